import AlarmAudio
import Glibc
import KeyInput
import Kitchen
import SystemKit
import TextCoding
import TimerCore
import TimerEngine
import TimerModel
import TimerText

// The one table of options and subcommands: the parser reads it, and `--help` is printed from it
// (Options+Help.swift), so what is documented is what is accepted.

extension Options {
    /// One option: its spellings, its value's name, where `--help` lists it and what it says
    /// there, the modes and subcommands it fits, and what it sets.
    struct Spec: Sendable {
        /// Where `--help` and the man page list an option (what it fits is ``fits``).
        enum Group: Sendable, Equatable {
            /// Works with a timer and with the subcommands its ``fits`` lists.
            case general
            /// Starting a timer: device, sound, alarm.
            case timer
            /// The egg times.
            case presets
            /// Only with `pomodoro`.
            case pomodoro
            /// Only with `at`.
            case alarm
            /// Only with the subcommands its ``fits`` lists.
            case subcommand
            /// Not in `--help`, the man page or the completion: for `make install`, and what
            /// `eggtimer recover` passes to the timers it starts.
            case hidden
        }

        /// Its spellings: a short one (`-D`) first if any; the last is the canonical name.
        var names: [String]
        /// The value's name in `--help` (`NAME`, `D`), or nil for a flag that takes none.
        var argument: String?
        var group: Group
        /// One line for `--help` (wrapped there to fit 80 columns).
        var help: String
        /// Where it does something: the modes and subcommands (the one place that says so; the
        /// parser refuses it elsewhere, and `--help`, the man page and the completion list it from here).
        var fits: [Scope]
        /// Whether the config file may set it, under ``configKey``.
        var inConfigFile = false
        /// Sets the option's value in `options`.
        ///
        /// A bad value throws a message naming `name` (as typed on the command line, or the config
        /// file's key). Flags get the value "".
        var apply: @Sendable (inout Options, _ name: ValueSource, _ value: String) throws(UsageError) -> Void

        /// Whether it takes a value.
        var takesValue: Bool { argument != nil }

        /// Its key in the config file, if it has one: the canonical name without `--` (`ring-for`).
        var configKey: String? { inConfigFile ? String(names.last!.dropFirst(2)) : nil }
    }

    /// A subcommand: a first positional word that talks to running timers instead of starting one.
    struct Subcommand: Sendable {
        /// Its spellings; the first is its name.
        var names: [String]
        /// What follows the name in `--help`'s usage column: `[LABEL]`, `[--json]`.
        var usage: String
        /// One line for `--help`.
        var help: String
        /// Whether it takes a LABEL argument (its words, joined by one space).
        var takesLabel: Bool
        /// Whether a SECONDS argument comes first (`add SECONDS [LABEL]`): whole seconds,
        /// -86400 to 86400, not 0, read into ``Options/addAmount``.
        var takesSeconds = false
        /// Whether its positional words are one request (`start 7m30s pasta`), joined by spaces and
        /// checked by the command itself (StartRequest) rather than as a label.
        var takesWords = false
        /// The command, from its label (validated) and the options given.
        var make: @Sendable (_ label: String?, _ options: Options) -> ControlCommand

        /// Its name, as options' ``Spec/fits`` and messages say it.
        var name: String { names[0] }

        /// The subcommand `word` names (case-insensitively, as modes), if any.
        static func named(_ word: String) -> Subcommand? {
            let lower = word.lowercased()
            return table.first { $0.names.contains(lower) }
        }

        /// The command for the positional arguments after the subcommand's name.
        /// - Throws: `UsageError` for a label where none is taken, a second label, or a bad one.
        func command(_ arguments: [String], _ options: Options) throws(UsageError) -> ControlCommand {
            var (arguments, options) = (arguments, options)
            if takesWords { return make(arguments.isEmpty ? nil : arguments.joined(separator: " "), options) }
            if takesSeconds {
                let limit = TimerModel.Command.addLimit.components.seconds
                // A range check, not `abs`: `abs(Int64.min)` traps.
                guard let text = arguments.first, let seconds = Int64(text), seconds != 0,
                    (-limit...limit).contains(seconds)
                else {
                    let given = arguments.first.map { "invalid amount '\($0)'" } ?? "missing amount"
                    throw UsageError(
                        description: "\(given) for '\(name)': give whole seconds, -\(limit) to \(limit), not 0")
                }
                options.addAmount = .seconds(seconds)
                arguments.removeFirst()
            }
            if let extra = arguments.first, !takesLabel {
                throw UsageError(description: "unexpected argument '\(extra)': '\(name)' takes no label")
            }
            // `snooze --for 5 min`, `add 5 min tea`: the unit belongs to the number before it, which
            // an option or SECONDS took (issue 41); no label begins with one.
            if let first = arguments.first, DurationParser.isUnitWord(first) {
                throw UsageError(
                    description: "'\(first)': a unit needs its number before it; write a duration as one word "
                        + "(--for 5min) and 'add' in seconds (add 300)")
            }
            // The words are one label, joined by one space (`ack roast beef`, `cancel 5 min`): a
            // label with spaces needs no quotes. Matched by its key (LabelRule.key).
            let label = arguments.isEmpty ? nil : Options.defaultLabel(typed: arguments.joined(separator: " "))
            if let label, options.all {
                throw UsageError(description: "unexpected label '\(label)' with '--all': give a label or --all")
            }
            if let label, options.bus.url != nil {
                // Across the house: `LABEL` or `NODE/LABEL`, as the topics name them.
                guard BusOptions.isValidTarget(label) else {
                    throw UsageError(description: "invalid timer '\(label)': give LABEL or NODE/LABEL")
                }
            } else if let label, !BusOptions.isShownLabel(label) {
                throw UsageError(description: "invalid label '\(label)': give the label as 'eggtimer status' shows it")
            }
            return make(label, options)
        }

        /// Every subcommand, in `--help` order.
        static let table: [Subcommand] = [
            Subcommand(
                names: ["status", "list"], usage: "[--json]",
                help: "list them: label, pid, state, time left and when it rings; then the kept records of timers "
                    + "that no longer run",
                takesLabel: false
            ) { _, options in .status(json: options.json) },
            Subcommand(
                names: ["ack"], usage: "[LABEL]", help: "stop the alarm (--all: every one ringing or snoozed)",
                takesLabel: true
            ) { label, options in
                options.all ? .acknowledgeAll : .acknowledge(label: label)
            },
            Subcommand(
                names: ["cancel"], usage: "[LABEL]",
                help: "end the timer (one that no longer runs: forget its kept record; --all: every running one)",
                takesLabel: true
            ) { label, options in
                options.all ? .cancelAll : .cancel(label: label)
            },
            Subcommand(
                names: ["snooze"], usage: "[LABEL] [--for D]",
                help: "silence the alarm and ring it again after D (default 10m)", takesLabel: true
            ) { label, options in .snooze(label: label, for: options.snoozeFor) },
            Subcommand(names: ["pause"], usage: "[LABEL]", help: "freeze the time left", takesLabel: true) {
                label, _ in .pause(label: label)
            },
            Subcommand(
                names: ["resume"], usage: "[LABEL]", help: "count on from where it was paused", takesLabel: true
            ) { label, _ in .resume(label: label) },
            Subcommand(
                names: ["add"], usage: "SECONDS [LABEL]",
                help: "move the deadline by SECONDS (negative: earlier; at most a day either way)", takesLabel: true,
                takesSeconds: true
            ) { label, options in .add(label: label, by: options.addAmount) },
            Subcommand(
                names: ["recover"], usage: "[--boot] [--quiet] [LABEL]",
                help: "start again the timers a kill, a power cut or a reboot ended (LABEL: only that one)",
                takesLabel: true
            ) { label, options in
                .recover(bootOnly: options.recoverBoot, quiet: options.recoverQuiet, label: label)
            },
            Subcommand(
                names: ["follow"], usage: "--mqtt URL",
                help: "ring here whenever any timer on the broker rings; a key or SIGUSR1 acknowledges them",
                takesLabel: false
            ) { _, _ in .follow },
            Subcommand(
                names: ["kitchen"], usage: "[--max-timers N] [--http ADDRESS:PORT] [--pair|--unpair]",
                help: "run the kitchen: start timers asked for with start (or MQTT), follow every running one",
                takesLabel: false
            ) { _, options in options.kitchenPairing ?? .kitchen },
            Subcommand(
                names: ["start"], usage: "WHAT [LABEL]",
                help:
                    "start a timer (soft, 7m30s pasta, ...) through the kitchen when it runs, else directly, detached",
                takesLabel: true, takesWords: true
            ) { what, options in .start(what: what ?? "", label: options.label) },
        ]
    }

    /// A timer mode named by a first word that takes words after it (`at TIME`); `--help`, the man
    /// page's synopsis and the completion list it from ``modes``, and the parser finds it there.
    struct Mode: Sendable {
        /// The first word.
        var name: String
        /// What follows it in `--help`'s usage column and the man page (`TIME`).
        var usage: String
        /// One line for `--help`.
        var help: String
    }

    /// Every mode with words after it (the egg names, `pomodoro` and a duration take none).
    static let modes = [Mode(name: "at", usage: "TIME", help: "ring at TIME on the wall clock (--every: repeat)")]

    /// What a label must be, for messages (see ``LabelRule/isValid(_:)``).
    static let labelRule = LabelRule.description

    static func duration(_ name: ValueSource, _ value: String) throws(UsageError) -> Duration {
        do { return try DurationParser.parse(value) } catch { throw name.error(because: error.description) }
    }

    static func count(_ name: ValueSource, _ value: String) throws(UsageError) -> Int {
        guard value.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(value), n >= 1, n <= ValueRule.countLimit
        else {
            throw name.error("needs a whole number from 1 to \(ValueRule.countLimit), got '\(value)'")
        }
        return n
    }

    /// `--volume`: a whole number from the audible floor (``Loudness/floorPercent``, 10) to 100,
    /// with or without a trailing `%`.
    ///
    /// Below the floor is refused, not raised, so that nobody believes a quieter alarm was set
    /// (issue 37: `--volume 0` rang pure silence).
    static func volume(_ name: ValueSource, _ value: String) throws(UsageError) -> Int {
        let least = Loudness.floorPercent
        let digits = value.hasSuffix("%") ? value.dropLast() : Substring(value)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 3,
            let n = Int(digits), n <= 100
        else {
            throw name.error("needs a whole number from \(least) to 100 (percent), got '\(value)'")
        }
        guard n >= least else {
            throw name.error(
                "needs a whole number from \(least) to 100 (percent), got '\(value)': below \(least) the alarm "
                    + "may not be heard")
        }
        return n
    }

    /// `--ramp`: a duration up to ``Loudness/longestRamp`` (60 s), so the alarm is at its full
    /// volume within a minute of its first loop frame (issue 37).
    static func ramp(_ name: ValueSource, _ value: String) throws(UsageError) -> Duration {
        let ramp = try duration(name, value)
        let longest = Loudness.longestRamp.components.seconds
        guard ramp <= Loudness.longestRamp else {
            throw name.error(
                "needs a duration of at most \(longest)s (the alarm reaches its volume within a minute), "
                    + "got '\(value)'")
        }
        return ramp
    }

    /// Every option, in `--help` order within each group.
    static let optionSpecs: [Spec] =
        generalSpecs + timerSpecs + speechSpecs + presetSpecs + eggSpecs + busSpecs + webSpecs
        + pomodoroSpecs
        + alarmSpecs
        + subcommandSpecs
        + hiddenSpecs + listenSpecs

    private static let alarmSpecs: [Spec] = [
        Spec(
            names: ["--every"], argument: "WHEN", group: .alarm,
            help: "ring again after each ringing: day, weekday, weekend, days such as mon,wed,fri, or an interval "
                + "such as 2h", fits: [.at]
        ) { options, _, value throws(UsageError) in
            options.every = try Recurrence.parse(value)
            options.everyText = value
        }
    ]

    private static let generalSpecs: [Spec] = [
        Spec(
            names: ["--json"], group: .general,
            help: "print one JSON object per event on standard output (status: an array)",
            fits: Scope.timers + [.resumed, .subcommand("status")]
        ) { options, _, _ in options.json = true },
        Spec(names: ["-h", "--help"], group: .general, help: "show this help", fits: Scope.everywhere) {
            options, _, _ in options.command = .help
        },
        Spec(names: ["--version"], group: .general, help: "show the version and the licence", fits: Scope.everywhere) {
            options, _, _ in options.command = .version
        },
    ]

    /// Where the alarm's sound options fit: every timer, and `follow`, which rings too.
    private static let timersAndFollow = Scope.timers + Scope.subcommands(["follow"])

    private static let timerSpecs: [Spec] = [
        Spec(
            names: ["-D", "--device"], argument: "NAME", group: .timer,
            help: "ALSA PCM to play on (default \"default\"; see aplay -L)", fits: timersAndFollow, inConfigFile: true
        ) { options, name, value throws(UsageError) in options.device = try deviceName(name, value) },
        Spec(
            names: ["--fallback-device"], argument: "NAME", group: .timer,
            help: "ALSA PCM the alarm moves to when its device cannot be opened or stalls",
            fits: timersAndFollow, inConfigFile: true
        ) { options, name, value throws(UsageError) in options.fallbackDevice = try deviceName(name, value) },
        Spec(
            names: ["--sound"], argument: "PATH", group: .timer,
            help: "MP3 file to loop instead of the shipped alarm sound", fits: timersAndFollow, inConfigFile: true
        ) { options, name, value throws(UsageError) in
            // `--sound 1s`: a duration where the file belongs (and no file of that name).
            if (try? DurationParser.parse(value)) != nil, access(value, F_OK) != 0 {
                throw name.error("takes a file; '\(value)' looks like a duration")
            }
            options.soundPath = SoundFilePath(value)
        },
        Spec(
            names: ["--loops"], argument: "N", group: .timer,
            help: "stop the alarm by itself after N plays (null and file: devices take no time to play them)",
            fits: Scope.timers
        ) { options, name, value throws(UsageError) in options.loops = try count(name, value) },
        Spec(
            names: ["--ring-for"], argument: "D", group: .timer,
            help: "stop ringing after D if nobody stops the alarm (the timer is missed)", fits: Scope.timers,
            inConfigFile: true
        ) { options, name, value throws(UsageError) in options.ringFor = try duration(name, value) },
        Spec(
            names: ["--volume"], argument: "PERCENT", group: .timer,
            help: "alarm volume, 10 to 100 (default 100; below 10 is refused)", fits: timersAndFollow,
            inConfigFile: true
        ) { options, name, value throws(UsageError) in options.volume = try volume(name, value) },
        Spec(
            names: ["--ramp"], argument: "D", group: .timer,
            help: "rise from 10 % to the volume over the first D of the alarm (at most 60s)",
            fits: timersAndFollow, inConfigFile: true
        ) { options, name, value throws(UsageError) in options.ramp = try ramp(name, value) },
        Spec(
            names: ["--label"], argument: "NAME", group: .timer,
            help: "name the timer for status, ack, cancel and snooze (default: the egg, "
                + "the duration as typed, or pomodoro); letters, digits, - _ . : +",
            fits: Scope.timers + [.subcommand("start")]
        ) { options, name, value throws(UsageError) in
            guard LabelRule.isValid(value) else { throw name.error("needs \(labelRule), got '\(value)'") }
            options.label = value
        },
        Spec(
            names: ["--request-id"], argument: "ID", group: .timer,
            help: "the kitchen's id of the start this timer is (its status's request field; "
                + "1 to 64 of letters, digits, - _ . :)",
            fits: Scope.timers
        ) { options, name, value throws(UsageError) in
            guard let id = RequestID(value) else {
                throw name.error("needs 1 to \(RequestID.limit) of letters, digits, - _ . :, got '\(value)'")
            }
            options.requestID = id
        },
        Spec(
            names: ["--on-done"], argument: "CMD", group: .timer,
            help: "run CMD with /bin/sh -c once the time is up (never when cancelled)", fits: Scope.timers
        ) { options, _, value in options.onDone = value },
    ]

    private static let presetSpecs: [Spec] = Preset.eggs.indices.map { index in
        let preset = Preset.eggs[index]
        return Spec(
            names: ["--" + preset.name.lowercased()], argument: "D", group: .presets,
            help: "\(preset.name.lowercased()) egg time (default \(preset.duration.clockText))",
            fits: [.menu, .egg(index)], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            options.presets[index].duration = try duration(name, value)
            options.explicitPresets[index] = true
        }
    }

    private static let pomodoroSpecs: [Spec] = [
        Spec(names: ["--work"], argument: "D", group: .pomodoro, help: "work interval (default 25m)", fits: [.pomodoro])
        {
            options, name, value throws(UsageError) in options.plan.work = try duration(name, value)
        },
        Spec(
            names: ["--short-break"], argument: "D", group: .pomodoro, help: "short break (default 5m)",
            fits: [.pomodoro]
        ) {
            options, name, value throws(UsageError) in options.plan.shortBreak = try duration(name, value)
        },
        Spec(
            names: ["--long-break"], argument: "D", group: .pomodoro, help: "long break (default 15m)",
            fits: [.pomodoro]
        ) {
            options, name, value throws(UsageError) in options.plan.longBreak = try duration(name, value)
        },
        Spec(
            names: ["--long-break-after"], argument: "N", group: .pomodoro,
            help: "completed pomodori before a long break (default 4)", fits: [.pomodoro]
        ) { options, name, value throws(UsageError) in options.plan.longBreakAfter = try count(name, value) },
        Spec(
            names: ["--sets"], argument: "N", group: .pomodoro, help: "long-break cycles to run (default 1)",
            fits: [.pomodoro]
        ) {
            options, name, value throws(UsageError) in options.plan.sets = try count(name, value)
        },
        Spec(
            names: ["--wait"], group: .pomodoro,
            help: "loop the alarm until a key between intervals; without it each interval's alarm plays once",
            fits: [.pomodoro]
        ) { options, _, _ in options.wait = true },
    ]

    private static let subcommandSpecs: [Spec] = [
        Spec(
            names: ["--all"], group: .subcommand,
            help: "act on every timer that fits (ack: ringing or snoozed; cancel: running), one line each",
            fits: Scope.subcommands(["ack", "cancel"])
        ) { options, _, _ in options.all = true },
        Spec(
            names: ["--for"], argument: "D", group: .subcommand, help: "snooze for D instead of 10m",
            fits: [.subcommand("snooze")]
        ) { options, name, value throws(UsageError) in
            let snooze = try duration(name, value)
            guard snooze <= snoozeLimit else { throw name.error("takes at most 999h, got '\(value)'") }
            options.snoozeFor = snooze
        },
        Spec(
            names: ["--max-timers"], argument: "N", group: .general,
            help:
                "run at most N timers at once, 1 to \(KitchenCore.maxTimersLimit) (default 12); one more start is refused",
            fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            guard value.allSatisfy({ $0.isASCII && $0.isNumber }), value.count <= 2, let n = Int(value),
                (1...KitchenCore.maxTimersLimit).contains(n)
            else { throw name.error("needs a whole number from 1 to \(KitchenCore.maxTimersLimit), got '\(value)'") }
            options.maxTimers = n
        },
        Spec(
            names: ["--keys"], argument: "auto|PATH|none", group: .general,
            help: "read keys from every key-bearing input device (auto, the default), from one (PATH: "
                + "/dev/input/by-id/..., grabbed) or none",
            fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            if value == "none" {
                options.keypad.selection = nil
                return
            }
            guard let selection = KeySelection.parse(value) else {
                throw name.error(
                    "needs auto, none or a device's absolute path (/dev/input/by-id/...), got '\(printable(value))'")
            }
            options.keypad.selection = selection
        },
        Spec(
            names: ["--pair"], group: .subcommand,
            help: "ask the running kitchen for a web pairing code and print it (6 digits, 10 minutes, 5 tries)",
            fits: [.subcommand("kitchen")]
        ) { options, name, _ throws(UsageError) in try options.setKitchenPairing(.pair, name) },
        Spec(
            names: ["--unpair"], group: .subcommand,
            help: "forget every paired web device (through the running kitchen, else in the state folder)",
            fits: [.subcommand("kitchen")]
        ) { options, name, _ throws(UsageError) in try options.setKitchenPairing(.unpair, name) },
        Spec(
            names: ["--boot"], group: .subcommand,
            help: "only the timers an earlier boot left (a power cut, a reboot), as the boot service does; "
                + "timers killed in this boot stay for a plain recover",
            fits: [.subcommand("recover")]
        ) { options, _, _ in options.recoverBoot = true },
        Spec(
            names: ["--quiet"], group: .subcommand,
            help: "say only what was done, nothing of a timer that still runs (as the kitchen runs it when it "
                + "starts: it follows those)",
            fits: [.subcommand("recover")]
        ) { options, _, _ in options.recoverQuiet = true },
    ]

    /// What `make install` generates from these tables (``Document``).
    private static let hiddenSpecs: [Spec] = [
        Spec(names: ["--print-man"], group: .hidden, help: "print the eggtimer(1) man page", fits: [.menu]) {
            options, _, _ in
            options.command = .print(.manPage)
        },
        Spec(
            names: ["--print-completion"], argument: "SHELL", group: .hidden, help: "print the completion script",
            fits: [.menu]
        ) { options, name, value throws(UsageError) in
            guard value == "bash" else {
                throw UsageError(description: "option '\(name)' knows only 'bash', got '\(value)'")
            }
            options.command = .print(.bashCompletion)
        },
        Spec(
            names: ["--resume-record"], argument: "PATH", group: .hidden,
            help: "run the timer recorded in PATH (eggtimer recover starts timers so)", fits: [.resumed]
        ) { options, _, value in options.resumeRecord = value },
    ]
}
