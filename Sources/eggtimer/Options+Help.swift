import TimerCore
import TimerText

extension Options {
    /// The widest `--help` line, in columns.
    static let helpWidth = 80

    /// The `--help` text; every line fits ``helpWidth`` columns.
    ///
    /// The subcommands and options are listed from the tables the parser reads
    /// (``Subcommand/table``, ``optionSpecs``).
    static let help = """
        eggtimer - a kitchen timer whose alarm loops through ALSA until you press a key

        Usage:
          eggtimer                    the egg menu: Soft 5:00, Medium 7:00, Hard 12:00
          eggtimer soft|medium|hard   boil one egg
          eggtimer DURATION           count down DURATION
          eggtimer pomodoro           25 min work, 5 min breaks, long break after four
        \(modeHelp)

        Subcommands, for this user's running timers (without LABEL: the only timer,
        else the only ringing one):
        \(subcommandHelp)
        With --mqtt URL, status, ack, cancel and snooze reach every timer on the
        broker: give NODE/LABEL or LABEL.

        DURATION: 90, 90s, 1:30, 1:02:03, 7m30s, 1h2m3s, 1.5m, 1h30 (1 h 30 m),
          1m30 (1 m 30 s), 5min, 90sec, "2 hours", "1h 30m"; more than zero, at
          most \(DurationParser.maximumText) (999 h 59 min 59 s). A countdown runs on the boot clock:
          setting the wall clock never moves it.
        TIME: 14:30, 7:05, 07:05:30, 7pm, 7:30am, noon, tomorrow 07:00,
          2026-12-24 18:00, ISO 8601 (2026-12-24T18:00+01:00); local time (TZ). A
          time of day already past means tomorrow; a date or instant must be after
          now and at most \(DurationParser.maximumText) ahead, as a countdown. An alarm follows
          the wall clock: if the clock is set, it moves. A time in a daylight-saving
          gap rings when the gap ends; one that occurs twice rings at the first.

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

        Keys: 1-3 or s/m/h pick an egg, arrows + Enter, t types a time; space
          pauses and resumes, r restarts, + and - add or take a minute, n skips a
          pomodoro interval, c or Esc cancels, q quits; z snoozes the alarm, any
          other key stops it.
        Without a keyboard: eggtimer ack, or kill -USR1 PID, stops the alarm.

        Exit status:
        \(exitStatusHelp)
        """

    /// The exit statuses for `--help`, from ``ExitStatus/table``, one per line.
    private static let exitStatusHelp = ExitStatus.table.map { entry in
        let code = "\(entry.status.code)"
        return "  " + String(repeating: " ", count: 4 - code.count) + code + "  " + entry.meaning
    }.joined(separator: "\n")

    /// The modes with words after them (``modes``), in the Usage section's column.
    private static let modeHelp = helpRows(
        modes.map { ("  eggtimer \($0.name) \($0.usage)", $0.help) }, column: 30)

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
        }, column: 30)

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

    /// Two columns: the left texts, then each text wrapped in a column after the widest left
    /// one; a left text too wide for `column` has its text start on the next line.
    /// - Parameters:
    ///   - rows: The left texts and their texts.
    ///   - column: Where the texts start (nil: two after the widest left text, from 24 to 30).
    /// - Returns: The lines joined by newlines, each at most ``helpWidth`` columns.
    static func helpRows(_ rows: [(left: String, text: String)], column: Int? = nil) -> String {
        let column = column ?? min(30, max(24, (rows.map(\.left.displayWidth).max() ?? 0) + 2))
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
