import TerminalUI
import TimerCore
import TimerEngine
import TimerText

extension Options {
    /// The widest `--help` line, in columns.
    static let helpWidth = 80

    /// Where every two-column row's text starts in `--help` (usage, subcommands, options, keys),
    /// counted from 0; a left part too wide for it has its text start there on the next line.
    static let helpColumn = 30

    /// The `--help` text for the eggs (``Preset/eggs``).
    static let help = helpText(presets: Preset.eggs)

    /// The `--help` text; every line fits ``helpWidth`` columns.
    ///
    /// The layout rule: the first line names the program; every other line at column 0 is a
    /// heading ending in `:` after a blank line; under it, text is indented by 2 and every
    /// two-column row's text starts at ``helpColumn``. The subcommands and options are listed
    /// from the tables the parser reads (``Subcommand/table``, ``optionSpecs``), the prose and the
    /// keys from what the man page prints too (Options+Prose.swift).
    /// - Parameter presets: The eggs, whose names and times the usage and the keys show.
    /// - Returns: The text, without a final newline.
    static func helpText(presets: [Preset]) -> String {
        let eggs = presets.map { $0.name.lowercased() }.joined(separator: "|")
        let usage = helpRows(
            [
                ("  eggtimer", "the egg menu: " + menuText(presets)), ("  eggtimer \(eggs)", "boil one egg"),
                ("  eggtimer DURATION", "count down DURATION"),
                ("  eggtimer pomodoro", "25 min work, 5 min breaks, long break after four"),
            ] + modes.map { ("  eggtimer \($0.name) \($0.usage)", $0.help) })
        let keys = helpRows(keyTable(presets).map { ("  " + $0.keys, $0.action) })
        let proseSections = prose.map { "\($0.title):\n" + helpParagraph($0.text) }.joined(separator: "\n\n")
        return """
            eggtimer - a kitchen timer whose alarm loops through ALSA until you press a key

            Usage:
            \(usage)

            Subcommands (for this user's running timers):
            \(subcommandHelp)
            \(helpParagraph(
                "Without LABEL: the only timer, else the only ringing one. With --mqtt URL, status, ack, cancel, "
                    + "snooze, pause, resume and add reach every timer on the broker: give NODE/LABEL or LABEL."))

            \(proseSections)

            Options\(Spec.Group.timer.headingNote):
            \(optionHelp(groups: [.timer, .general]))

            Egg times\(Spec.Group.presets.headingNote):
            \(optionHelp(groups: [.presets]))

            Pomodoro options\(Spec.Group.pomodoro.headingNote):
            \(optionHelp(groups: [.pomodoro]))

            Alarm options\(Spec.Group.alarm.headingNote):
            \(optionHelp(groups: [.alarm]))

            Subcommand options:
            \(optionHelp(groups: [.subcommand]))

            Keys (\(keysHeading.prefix(1).lowercased() + keysHeading.dropFirst())):
            \(keys)
            \(helpParagraph(keyboardlessText))

            Exit status:
            \(exitStatusHelp)
            """
    }

    /// `text` wrapped to ``helpWidth`` and indented by 2, as text under a heading.
    static func helpParagraph(_ text: String) -> String {
        wrap(text, width: helpWidth - 2).map { "  " + $0 }.joined(separator: "\n")
    }

    /// The exit statuses for `--help`, from ``ExitStatus/table``, one per line.
    private static let exitStatusHelp = ExitStatus.table.map { entry in
        let code = "\(entry.status.code)"
        return "  " + String(repeating: " ", count: 4 - code.count) + code + "  " + entry.meaning
    }.joined(separator: "\n")

    /// The subcommands, one entry each.
    ///
    /// `  eggtimer ack [LABEL]   stop the alarm`; aliases follow the text; the column is the
    /// Usage section's.
    private static let subcommandHelp = helpRows(
        Subcommand.table.map { subcommand in
            let aliases = subcommand.names.dropFirst().joined(separator: ", ")
            return (
                "  eggtimer \(subcommand.name) \(subcommand.usage)",
                subcommand.help + (aliases.isEmpty ? "" : " (alias: \(aliases))")
            )
        })

    /// The options of `groups`, in table order: `  -D, --device NAME   ALSA PCM …`.
    private static func optionHelp(groups: [Spec.Group]) -> String {
        let specs = groups.flatMap { group in optionSpecs.filter { $0.group == group } }
        return helpRows(
            specs.map { spec in
                let short = spec.names.first { !$0.hasPrefix("--") }
                let long = spec.names.filter { $0.hasPrefix("--") }.joined(separator: ", ")
                let left = "  " + (short.map { $0 + ", " } ?? "    ") + long + (spec.argument.map { " " + $0 } ?? "")
                return (left, spec.help + fitNote(spec, heading: spec.group.scopes))
            })
    }

    /// Two columns: the left texts, then each text wrapped in the column from `column` on; a
    /// left text too wide for `column` has its text start there on the next line.
    /// - Parameters:
    ///   - rows: The left texts and their texts.
    ///   - column: Where the texts start (``helpColumn`` for every section of `--help`).
    /// - Returns: The lines joined by newlines, each at most ``helpWidth`` columns.
    static func helpRows(_ rows: [(left: String, text: String)], column: Int = helpColumn) -> String {
        let indent = String(repeating: " ", count: column)
        var lines: [String] = []
        for row in rows {
            let wrapped = wrap(row.text, width: helpWidth - column)
            if row.left.displayWidth + 2 > column {
                lines.append(row.left)
                lines += wrapped.map { indent + $0 }
            } else {
                let pad = String(repeating: " ", count: column - row.left.displayWidth)
                lines.append(row.left + pad + (wrapped.first ?? ""))
                lines += wrapped.dropFirst().map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` cut at spaces into lines of at most `width` columns (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.displayWidth + 1 + word.description.displayWidth <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension Options {
    /// A text generated from the option tables, as `--help` is, so the installed documents cannot
    /// drift from what the parser accepts; `make install` writes them with the hidden options.
    enum Document: Equatable, Sendable {
        /// `--print-man`: the eggtimer(1) man page, troff (``manPage``).
        case manPage
        /// `--print-completion bash`: the bash completion script (``bashCompletion``).
        case bashCompletion

        /// The whole text, ending in a newline.
        var text: String {
            switch self {
            case .manPage: Options.manPage
            case .bashCompletion: Options.bashCompletion
            }
        }
    }
}
