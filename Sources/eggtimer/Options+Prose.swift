import TimerCore

// The prose `--help` and the man page both print, written once (issue 24): what DURATION and TIME
// accept, the keys, and the egg menu's times, which come from the presets. Options+Help.swift
// wraps it into columns, Options+Man.swift sets it in troff for dist/eggtimer.1.in.

extension Options {
    /// One section of prose both renderers print: a title (`DURATION`) and plain text.
    struct Prose: Sendable, Equatable {
        /// What it describes, as the usage lines name it: `DURATION`, `TIME`.
        var title: String
        /// Plain sentences, no markup; each renderer wraps and escapes it.
        var text: String
    }

    /// What `eggtimer DURATION` accepts.
    static let durationProse = Prose(
        title: "DURATION",
        text: "90, 90s, 1:30, 1:02:03, 7m30s, 1h2m3s, 1.5m, 1h30 (1 h 30 m), 1m30 (1 m 30 s), 5min, 90sec, "
            + "5 min, 2 hours, 1h 30m, 1 hour 30 minutes (one argument or several words); more than zero, at most "
            + "\(DurationParser.maximumText) (999 h 59 min 59 s). A start, here as with start, MQTT, the HTTP API or "
            + "a keypad key, is one grammar: a preset (any case) or the longest run of words that reads as a "
            + "duration, then a label of the words after it (5 min pasta, 1h 30m roast beef, soft eggs); without "
            + "one the label is the duration as typed, blanks collapsed (5 min). A label that begins with a number, "
            + "a duration or a unit word, or reads as another duration, is refused naming it, never guessed "
            + "(5 30, 5 min min, soft 5m). "
            + "The countdown runs on the boot clock: it keeps counting through suspend, and setting the wall "
            + "clock never moves it.")

    /// What `eggtimer at TIME` accepts.
    static let timeProse = Prose(
        title: "TIME",
        text: "14:30, 7:05, 07:05:30, 7pm, 7:30am, 7 pm, noon, midnight, tomorrow 07:00, 7pm tomorrow, "
            + "2026-12-24 18:00, or ISO 8601 (2026-12-24T18:00+01:00), in the local time zone (TZ). A time of day already past today means "
            + "tomorrow. A date or an instant must lie after now and at most \(DurationParser.maximumText) ahead "
            + "(as the longest DURATION); one in the past or further ahead exits 64 naming it. An alarm at a time "
            + "follows the wall clock: when the clock is set it is resolved again, and a clock set past it rings "
            + "at once. A local time inside a daylight-saving gap rings at the first instant after the gap; one "
            + "that occurs twice rings at its first occurrence.")

    /// The sections of prose, in the order both renderers print them.
    static let prose = [durationProse, timeProse]

    /// The egg menu's entries with their times: `Soft 5:00, Medium 7:00, Hard 12:00`.
    /// - Parameter presets: The eggs (``Preset/eggs``; a test passes others).
    /// - Returns: The names and times, comma-separated.
    static func menuText(_ presets: [Preset]) -> String {
        presets.map { "\($0.name) \($0.duration.clockText)" }.joined(separator: ", ")
    }

    /// When the keys of ``keyTable(_:)`` work.
    static let keysHeading = "With the countdown on a terminal"

    /// The keys: what is pressed, what it does.
    /// - Parameter presets: The eggs, which the menu's keys pick (``Preset/eggs``).
    /// - Returns: One row per key or group of keys.
    static func keyTable(_ presets: [Preset]) -> [(keys: String, action: String)] {
        let names = presets.map(\.name)
        let picked = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        let letters = presets.map { $0.name.prefix(1).lowercased() }.joined(separator: " ")
        return [
            ("1-\(presets.count), \(letters)", "in the menu: pick \(picked) (arrows and Enter too)"),
            ("t", "in the menu: type a time (Enter starts it, Backspace and Ctrl-U erase)"),
            ("space", "pause and resume"),
            ("r", "restart"),
            ("+  -", "add or take a minute"),
            ("n", "skip a pomodoro interval"),
            ("c, Esc", "cancel"),
            ("q", "quit"),
            ("z", "while ringing: snooze the alarm (10 min)"),
            ("any other key", "while ringing: stop the alarm"),
        ]
    }

    /// The keys for the eggs (``Preset/eggs``).
    static let keyTable = keyTable(Preset.eggs)

    /// How the alarm is stopped without a keyboard.
    static let keyboardlessText = "Without a keyboard, eggtimer ack or kill -USR1 PID stops the alarm."
}
