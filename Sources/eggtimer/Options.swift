import AlarmAudio
import Glibc
import TimerCore

/// A command-line mistake: one line naming the bad token; the app exits 64 (EX_USAGE).
struct UsageError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// What the command line asked for, after tokenising, interpreting and validating it.
struct Options: Equatable {
    /// What to run.
    enum Command: Equatable {
        case menu
        case preset(Int)
        /// A countdown of the duration, as typed (the timer's label).
        case countdown(Duration, text: String)
        case pomodoro
        case help
        case version
    }

    var command: Command = .menu
    var presets = Preset.eggs
    /// The ALSA PCM name, as aplay's `-D`.
    var device = "default"
    /// `--sound PATH`, or nil for the shipped sound.
    var soundPath: SoundFilePath?
    /// Stop the alarm by itself after this many passes.
    var loops: Int?
    /// Print JSON events on standard output.
    var json = false
    var plan = Pomodoro.Plan()
    /// Pomodoro: loop the alarm until a key between intervals.
    var wait = false
    /// `--label NAME`: the timer's label instead of the preset's name or the duration as typed.
    var label: String?
    /// `--ring-for DURATION`: ring at most this long unacknowledged, then end as missed.
    var ringFor: Duration?
    /// `--volume PERCENT`, 0–100 of full scale.
    var volume = 100
    /// `--ramp DURATION`: one fade-in from silence to the volume across the passes.
    var ramp: Duration?
    /// `--on-done CMD`: run through `/bin/sh -c` at the deadline.
    var onDone: String?

    /// What the controller starts with; `.menu` also for help and version, which never run it.
    var start: Controller.Start {
        switch command {
        case .preset(let index): .timer(.egg(index), presets[index].duration, label: label ?? presets[index].name)
        case .countdown(let duration, let text): .timer(.plain, duration, label: label ?? text)
        case .pomodoro: .pomodoro(plan, label: label ?? "pomodoro")
        case .menu, .help, .version: .menu
        }
    }

    /// `--volume` and `--ramp` for `sound`: the ramp counted in frames at the sound's rate.
    func loudness(for sound: AlarmSound) -> Loudness {
        let rampFrames = ramp.map { Int(($0 / .seconds(1)) * Double(sound.sampleRate)) } ?? 0
        return Loudness(volumePercent: volume, rampFrames: rampFrames)
    }

    /// The label this process answers to on its control socket: `--label`, else the timer's
    /// (the preset's name, the duration as typed, `pomodoro`), else `menu-PID` for the egg menu.
    var processLabel: String {
        if let label { return label }
        switch start {
        case .timer(_, _, let label): return label
        case .pomodoro(_, let label): return label
        case .menu: return "menu-\(getpid())"
        }
    }

    /// The largest `--loops` and `--sets` accepted (a sanity bound, not a design limit).
    static let countLimit = 1_000_000

    /// Parses `arguments` (without the program name).
    ///
    /// `-h`, `--help` and `--version` win wherever they appear as an option (not as an option's
    /// value, not after `--`): over any usage error before or after them, so that
    /// `eggtimer soft --help` and `eggtimer --loops 0 --help` print the help. The first of them wins.
    /// - Parameters:
    ///   - arguments: The arguments as text.
    ///   - raw: The same arguments as the bytes the kernel passed, when known: file names are
    ///     bytes, and one that is not UTF-8 (`R\xe9veil.mp3`) must be opened as given.
    /// - Throws: `UsageError` naming the first bad token.
    static func parse(_ arguments: [String], raw: [[UInt8]]? = nil) throws(UsageError) -> Options {
        var parser = Parser(arguments: arguments, raw: raw?.count == arguments.count ? raw : nil)
        var firstError: UsageError?
        while parser.index < arguments.count {
            do { try parser.step() } catch { firstError = firstError ?? error }
        }
        var options = parser.options
        if let request = parser.request {
            options.command = request
            return options
        }
        if let firstError { throw firstError }
        switch parser.positional.count {
        case 0: break
        case 1: options.command = try command(for: parser.positional[0], options)
        default: throw UsageError(description: "unexpected argument '\(parser.positional[1])': give one duration or mode")
        }
        if let pomodoroOnly = parser.pomodoroOnly, options.command != .pomodoro {
            throw UsageError(description: "option '\(pomodoroOnly)' only works with 'pomodoro'")
        }
        return options
    }

    /// The command line, token by token.
    private struct Parser {
        let arguments: [String]
        let raw: [[UInt8]]?
        var options = Options()
        var index = 0
        var seen: [String] = []
        var positional: [String] = []
        /// The first pomodoro-only option, as typed.
        var pomodoroOnly: String?
        var optionsEnded = false
        /// `--help` or `--version`, the first one given.
        var request: Command?

        /// Takes the next token (and its value, if it has one).
        /// - Throws: `UsageError` naming the token; the next step goes on after it.
        mutating func step() throws(UsageError) {
            let token = arguments[index]
            index += 1
            if optionsEnded || !token.hasPrefix("-") || token == "-" || token.dropFirst().first?.isNumber == true {
                positional.append(token)
                return
            }
            if token == "--" {
                optionsEnded = true
                return
            }
            // Split `--name=value` and `-Dvalue`.
            var name = token
            var inlineValue: String?
            if token.hasPrefix("--"), let equals = token.firstIndex(of: "=") {
                name = String(token[..<equals])
                inlineValue = String(token[token.index(after: equals)...])
            } else if !token.hasPrefix("--"), token.count > 2 {
                name = String(token.prefix(2))
                inlineValue = String(token.dropFirst(2))
            }
            guard let spec = optionSpecs.first(where: { $0.names.contains(name) }) else {
                throw UsageError(description: "unknown option '\(token)' (see --help)")
            }
            if !spec.takesValue, inlineValue != nil {
                throw UsageError(description: "option '\(name)' takes no value: '\(token)'")
            }
            let canonical = spec.names.last!
            if canonical == "--help" || canonical == "--version" {
                request = request ?? (canonical == "--help" ? .help : .version)
                return
            }
            let value = try spec.takesValue ? takeValue(name, inline: inlineValue) : ""
            if seen.contains(canonical) { throw UsageError(description: "option '\(name)' given twice") }
            seen.append(canonical)
            if spec.pomodoroOnly, pomodoroOnly == nil { pomodoroOnly = name }
            try spec.apply(&options, name, value)
            if canonical == "--sound", let raw {
                // The value's own bytes: after `=` in the same token, or the next token.
                let bytes = inlineValue != nil ? Array(raw[index - 1].drop { $0 != UInt8(ascii: "=") }.dropFirst()) : raw[index - 1]
                options.soundPath = SoundFilePath(bytes: bytes)
            }
        }

        /// The option's value: `inline` (after `=` or the letter), else the next token.
        private mutating func takeValue(_ name: String, inline: String?) throws(UsageError) -> String {
            var value = ""
            if let inline {
                value = inline
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(description: "option '\(name)' needs a value")
            }
            if value.isEmpty { throw UsageError(description: "option '\(name)' needs a value, got ''") }
            return value
        }
    }

    private static func command(for word: String, _ options: Options) throws(UsageError) -> Command {
        let lower = word.lowercased()
        if lower == "pomodoro" { return .pomodoro }
        if let index = options.presets.firstIndex(where: { $0.name.lowercased() == lower }) { return .preset(index) }
        do {
            return .countdown(try DurationParser.parse(word), text: word)
        } catch {
            if word.first?.isLetter == true && !word.contains(where: \.isNumber) {
                throw UsageError(
                    description: "unknown mode '\(word)': expected soft, medium, hard, pomodoro or a duration")
            }
            throw UsageError(description: error.description)
        }
    }

    /// One option: its spellings, whether it takes a value, and what it sets.
    private struct Spec: Sendable {
        var names: [String]
        var takesValue: Bool
        var pomodoroOnly = false
        var apply: @Sendable (inout Options, _ name: String, _ value: String) throws(UsageError) -> Void
    }

    private static func duration(_ name: String, _ value: String) throws(UsageError) -> Duration {
        do { return try DurationParser.parse(value) } catch {
            throw UsageError(description: "option '\(name)': \(error.description)")
        }
    }

    private static func count(_ name: String, _ value: String) throws(UsageError) -> Int {
        guard value.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(value), n >= 1, n <= countLimit else {
            throw UsageError(
                description: "option '\(name)' needs a whole number from 1 to \(countLimit), got '\(value)'")
        }
        return n
    }

    private static let optionSpecs: [Spec] = [
        Spec(names: ["-h", "--help"], takesValue: false) { options, _, _ in options.command = .help },
        Spec(names: ["--version"], takesValue: false) { options, _, _ in options.command = .version },
        Spec(names: ["-D", "--device"], takesValue: true) { options, _, value in options.device = value },
        Spec(names: ["--sound"], takesValue: true) { options, name, value throws(UsageError) in
            // `--sound 1s`: a duration where the file belongs (and no file of that name).
            if (try? DurationParser.parse(value)) != nil, access(value, F_OK) != 0 {
                throw UsageError(description: "option '\(name)' takes a file; '\(value)' looks like a duration")
            }
            options.soundPath = SoundFilePath(value)
        },
        Spec(names: ["--loops"], takesValue: true) { options, name, value throws(UsageError) in
            options.loops = try count(name, value)
        },
        Spec(names: ["--json"], takesValue: false) { options, _, _ in options.json = true },
        Spec(names: ["--soft"], takesValue: true) { options, name, value throws(UsageError) in
            options.presets[0].duration = try duration(name, value)
        },
        Spec(names: ["--medium"], takesValue: true) { options, name, value throws(UsageError) in
            options.presets[1].duration = try duration(name, value)
        },
        Spec(names: ["--hard"], takesValue: true) { options, name, value throws(UsageError) in
            options.presets[2].duration = try duration(name, value)
        },
        Spec(names: ["--work"], takesValue: true, pomodoroOnly: true) { options, name, value throws(UsageError) in
            options.plan.work = try duration(name, value)
        },
        Spec(names: ["--short-break"], takesValue: true, pomodoroOnly: true) {
            options, name, value throws(UsageError) in
            options.plan.shortBreak = try duration(name, value)
        },
        Spec(names: ["--long-break"], takesValue: true, pomodoroOnly: true) { options, name, value throws(UsageError) in
            options.plan.longBreak = try duration(name, value)
        },
        Spec(names: ["--long-break-after"], takesValue: true, pomodoroOnly: true) {
            options, name, value throws(UsageError) in
            options.plan.longBreakAfter = try count(name, value)
        },
        Spec(names: ["--sets"], takesValue: true, pomodoroOnly: true) { options, name, value throws(UsageError) in
            options.plan.sets = try count(name, value)
        },
        Spec(names: ["--wait"], takesValue: false, pomodoroOnly: true) { options, _, _ in options.wait = true },
    ]

    /// The exit statuses for `--help`, from ``ExitStatus/table``, one per line.
    private static let exitStatusHelp = ExitStatus.table.map { entry in
        let code = "\(entry.status.code)"
        return "  " + String(repeating: " ", count: 4 - code.count) + code + "  " + entry.meaning
    }.joined(separator: "\n")

    /// The `--help` text; every line fits 80 columns.
    static let help = """
        eggtimer - a kitchen timer whose alarm loops through ALSA until you press a key

        Usage:
          eggtimer                    the egg menu: Soft 5:00, Medium 7:00, Hard 12:00
          eggtimer soft|medium|hard   boil one egg
          eggtimer DURATION           count down DURATION
          eggtimer pomodoro           25 min work, 5 min breaks, long break after four

        DURATION: 90, 90s, 1:30, 1:02:03, 7m30s, 1h2m3s, 1.5m, 1h30 (1 h 30 m),
          1m30 (1 m 30 s), 5min, 90sec, "2 hours", "1h 30m"; more than zero, at
          most \(DurationParser.maximumText) (999 h 59 min 59 s).

        Options:
          -D, --device NAME    ALSA PCM to play on (default "default"; see aplay -L)
              --sound PATH     MP3 file to loop instead of the shipped alarm sound
              --loops N        stop the alarm by itself after N plays (null and file:
                               devices take no time to play them)
              --json           print one JSON object per event on standard output
              --soft D  --medium D  --hard D
                               override the egg times
          -h, --help           show this help
              --version        show the version
        Pomodoro options:
              --work D             work interval (default 25m)
              --short-break D      short break (default 5m)
              --long-break D       long break (default 15m)
              --long-break-after N completed pomodori before a long break (default 4)
              --sets N             long-break cycles to run (default 1)
              --wait               loop the alarm until a key between intervals;
                                   without it each interval's alarm plays once

        Keys: 1-3 or s/m/h pick an egg, arrows + Enter, t types a time; space
          pauses and resumes, r restarts, + and - add or take a minute, n skips a
          pomodoro interval, c or Esc cancels, q quits; any key stops the alarm.
        Without a keyboard: kill -USR1 PID stops the alarm.

        Exit status:
        \(exitStatusHelp)
        """
}
