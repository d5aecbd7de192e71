import Kitchen
import KitchenWeb
import TextCoding
import TimerCore
import TimerModel

// The eggtimer(1) man page: its prose is the roff source dist/eggtimer.1.in (embedded at build time
// through its link Man/eggtimer.1.in), whose slots are filled here from the tables `--help` and the
// parser read (Options+Table.swift, ExitStatus.table, TimerState, the HTTP API's words), so the
// installed page lists what the binary accepts.

extension Options {
    /// The eggtimer(1) man page for the eggs (``Preset/eggs``).
    static let manPage = manText(presets: Preset.eggs)

    /// The man page's roff source with its slots (dist/eggtimer.1.in), as built into the binary.
    static let manTemplate = FileTemplate(PackageResources.eggtimer_1_in)

    /// The eggtimer(1) man page in troff (the `man` macros), ending in a newline.
    ///
    /// Every option but the hidden ones, every subcommand, key, state and exit status; MQTT topics,
    /// payloads and discovery; the HTTP API; the reference sections; files and environment.
    /// `make install` writes it to `PREFIX/share/man/man1/eggtimer.1`.
    /// - Parameter presets: The eggs, whose names and times the synopsis, the description, the keys
    ///   and the kitchen's Home Assistant buttons show (a test passes others).
    /// - Returns: The page.
    static func manText(presets: [Preset]) -> String {
        manTemplate.filled(manSlots(presets))
    }

    /// What fills each slot of dist/eggtimer.1.in, from the tables; roff throughout.
    /// - Parameter presets: The eggs.
    /// - Returns: One value per slot of ``manTemplate`` (``FileTemplate/filled(_:)`` checks that).
    static func manSlots(_ presets: [Preset]) -> [String: String] {
        let first = presets.first.map { $0.name.lowercased() } ?? "soft"
        var slots: [String: String] = [
            "VERSION": Version.current,
            "PRESETS": presets.map { "\\fB\(roff($0.name.lowercased()))\\fR" }.joined(separator: "|"),
            "MODE_SYNOPSES": modes.map { ".br\n.B eggtimer \($0.name)\n\\fI\($0.usage)\\fR [\\fIOPTION\\fR]..." }
                .joined(separator: "\n"),
            "SUBCOMMAND_SYNOPSES": Subcommand.table.map {
                ".br\n.B eggtimer \($0.name)" + ($0.usage.isEmpty ? "" : "\n" + roffUsage($0.usage))
            }.joined(separator: "\n"),
            "MENU": roff(menuText(presets)),
            "DURATION_TITLE": durationProse.title, "DURATION_TEXT": roff(durationProse.text),
            "TIME_TITLE": timeProse.title, "TIME_TEXT": roff(timeProse.text),
            "SUBCOMMANDS": Subcommand.table.map { subcommand in
                let aliases = subcommand.names.dropFirst().map { "\\fB\(roff($0))\\fR" }.joined(separator: ", ")
                return ".TP\n\\fBeggtimer \(roff(subcommand.name))\\fR \(roffUsage(subcommand.usage))\n"
                    + sentence(subcommand.help) + (aliases.isEmpty ? "" : "\nAlias: \(aliases).")
            }.joined(separator: "\n"),
            "KEYS_HEADING": keysHeading,
            "KEYS": keyTable(presets).map { ".TP\n.B \(roff($0.keys).replacingSpaces())\n\(sentence($0.action))" }
                .joined(separator: "\n"),
            "KEYBOARDLESS": roff(keyboardlessText),
            "STATES": TimerState.allCases.map { ".TP\n.B \($0.rawValue)\n\(sentence($0.summary))" }
                .joined(separator: "\n"),
            // The kitchen's Home Assistant buttons, one per egg (MQTT).
            "FIRST_PRESET": first,
            "PRESET_BUTTONS": presets.map { "\\fB\($0.name) egg\\fR" }.joined(separator: ", "),
            "PRESET_ENTITIES": presets.map { "\\fI.../start\\-\($0.name.lowercased())\\fR" }.joined(separator: ", "),
            "PRESET_PAYLOADS": presets.map { "\\fB\($0.name.lowercased())\\fR" }.joined(separator: ", "),
            "START_SECONDS_LIMIT": "\(KitchenAPI.startSecondsLimit)",
            // The house's part of the kitchen's picture (issue 43).
            "HOUSE_LIMIT": "\(HousePicture.limit)", "HOUSE_NODE_LIMIT": "\(HousePicture.perNodeLimit)",
            "SILENT_LIMIT": "\(WebTimer.silentLimit)", "HOUSE_ROW_BYTES": "\(KitchenAPI.houseRowBytes)",
            "HTTP_STATES": KitchenAPI.stateWords.map { "\\fB\($0)\\fR" }.joined(separator: ", "),
            "CONFIG_KEYS": configSpecs.map { "\\fB" + roff($0.key) + "\\fR" }.joined(separator: ", "),
            "EXIT_STATUSES": ExitStatus.table.map { ".TP\n.B \($0.status.code)\n\(sentence($0.meaning))" }
                .joined(separator: "\n"),
        ]
        for (slot, group) in manOptionGroups {
            slots[slot + "_SCOPE"] = group.headingNote
            slots[slot + "_OPTIONS"] = optionSpecs.filter { $0.group == group }.map(manEntry).joined(separator: "\n")
        }
        return slots
    }

    /// The OPTIONS section's groups, by the slot names of their headings' scope notes and entries
    /// (`TIMER_SCOPE`, `TIMER_OPTIONS`); every group but the hidden one.
    static let manOptionGroups: [(slot: String, group: Spec.Group)] = [
        ("TIMER", .timer), ("GENERAL", .general), ("PRESETS", .presets), ("POMODORO", .pomodoro),
        ("ALARM", .alarm), ("SUBCOMMAND", .subcommand),
    ]

    /// `text` as troff text: backslashes as `\e`, hyphens as `\-` (so options copy as typed), and
    /// a leading `.` or `'` kept from reading as a request.
    static func roff(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            default: escaped.append(character)
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// A usage string (`[LABEL] [--for D]`) in troff: options bold, placeholders italic.
    static func roffUsage(_ usage: String) -> String {
        usage.split(separator: " ").map { token in
            let opening = token.prefix { $0 == "[" }
            let closing = token.reversed().prefix { $0 == "]" }.count
            let core = String(token.dropFirst(opening.count).dropLast(closing))
            let font = core.hasPrefix("-") ? "\\fB" : (core.allSatisfy { $0.isUppercase } ? "\\fI" : "")
            let end = font.isEmpty ? "" : "\\fR"
            return String(opening) + font + roff(core) + end + String(repeating: "]", count: closing)
        }.joined(separator: " ")
    }

    /// A help fragment as a man-page sentence: capitalised, with a full stop.
    private static func sentence(_ help: String) -> String {
        let capital = help.prefix(1).uppercased() + help.dropFirst()
        return roff(capital.hasSuffix(".") ? capital : capital + ".")
    }

    /// `\fB\-D\fR, \fB\-\-device\fR \fINAME\fR`.
    private static func roffHead(_ spec: Spec) -> String {
        spec.names.map { "\\fB" + roff($0) + "\\fR" }.joined(separator: ", ")
            + (spec.argument.map { " \\fI" + roff($0) + "\\fR" } ?? "")
    }

    /// One option's `.TP` entry; where it fits other than its section's heading says, it says so.
    private static func manEntry(_ spec: Spec) -> String {
        ".TP\n\(roffHead(spec))\n\(sentence(spec.help + fitNote(spec, heading: spec.group.scopes)))"
    }

    /// docs/DESIGN.md's list of states: one Markdown table row per ``TimerState``, from ``TimerState/summary``.
    static let statesTable: String =
        "| state | meaning |\n|---|---|\n"
        + TimerState.allCases.map { "| `\($0.rawValue)` | \($0.summary) |" }.joined(separator: "\n")
}

extension String {
    /// Spaces as unbreakable `\ `, for a one-argument request (`.B 1-3, s m h`).
    fileprivate func replacingSpaces() -> String {
        var result = ""
        for character in self { result += character == " " ? "\\ " : String(character) }
        return result
    }
}
