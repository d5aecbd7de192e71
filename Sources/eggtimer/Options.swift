import AlarmAudio
import Glibc
import Kitchen
import SystemKit
import TimerCore
import TimerEngine
import TimerModel
import TimerText

/// What `eggtimer status|ack|cancel|snooze|pause|resume|add` asks of the running timers (this user's, found
/// through their control sockets).
enum ControlCommand: Equatable {
    /// List the running timers; `json`: as one JSON array.
    case status(json: Bool)
    /// Stop the alarm of the timer labelled `label` (nil: the only one, or the only ringing one).
    case acknowledge(label: String?)
    /// End the timer labelled `label` (nil: as for `acknowledge`).
    case cancel(label: String?)
    /// `ack --all`: stop the alarm of every timer ringing or snoozed.
    case acknowledgeAll
    /// `cancel --all`: end every running timer.
    case cancelAll
    /// Silence the alarm and ring it again after `for` (nil: the timer's default, 10 min).
    case snooze(label: String?, for: Duration?)
    /// Freeze the time left of the timer labelled `label` (nil: as for `acknowledge`).
    case pause(label: String?)
    /// Count on from where it was paused.
    case resume(label: String?)
    /// Move its deadline by `by`, whole seconds in -86400...86400, not 0 (`add -60`: a minute earlier).
    case add(label: String?, by: Duration)
    /// Start again the timers recorded in the state folder that no process runs any more;
    /// `bootOnly` (`recover --boot`, the boot service): only those an earlier boot left; `label`
    /// (`recover LABEL`, as the kitchen asks for a timer it followed that died by a signal): only
    /// that one's record; `quiet` (`recover --quiet`, the kitchen as it starts): nothing said of
    /// a timer that runs.
    case recover(bootOnly: Bool, quiet: Bool = false, label: String? = nil)
    /// Ring whenever any timer on the MQTT broker rings (`eggtimer follow --mqtt URL`).
    case follow
    /// Run the kitchen: start timers asked for on its socket and follow every timer of this user
    /// (`eggtimer kitchen`, a long-running front).
    case kitchen
    /// Start a timer through the kitchen when it runs, else directly (`eggtimer start WHAT`):
    /// `what` as typed (a preset or a duration, parsed by `StartRequest`), `label` from `--label`.
    case start(what: String, label: String?)
    /// `eggtimer kitchen --pair`: ask the running kitchen for a web pairing code and print it.
    case pair
    /// `eggtimer kitchen --unpair`: forget every paired web device (through the running kitchen,
    /// else in the state folder).
    case unpair
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
        /// `eggtimer at TIME`: an alarm at a time on the wall clock, with `TIME` as typed.
        case alarm(LocalAlarmTime, text: String)
        case help
        case version
        /// A subcommand talking to running timers; no timer is started.
        case control(ControlCommand)
        /// Print a document generated from the option tables (hidden `--print-man`, `--print-completion`).
        case print(Document)
    }

    var command: Command = .menu
    var presets = Preset.eggs
    /// The ALSA PCM name, as aplay's `-D`.
    var device = "default"
    /// `--fallback-device NAME`: the ALSA PCM a ringing moves to when ``device`` cannot be opened,
    /// is lost or stalls; nil for none (see ``fallback``).
    var fallbackDevice: String?
    /// `--sound PATH`, or nil for the shipped sound.
    var soundPath: SoundFilePath?
    /// Stop the alarm by itself after this many passes.
    var loops: Int?
    /// Print JSON events on standard output (or, with `status`, a JSON array).
    var json = false
    var plan = Pomodoro.Plan()
    /// Pomodoro: loop the alarm until a key between intervals.
    var wait = false
    /// The timer's name from `--label NAME`, or nil for the default.
    ///
    /// It names the control socket and the MQTT topic level; valid by ``LabelRule/isValid(_:)``.
    /// nil: the preset's name, the duration as typed, or "pomodoro".
    var label: String?
    /// `--request-id ID`: the kitchen's id of the start that runs this timer (issue 43), shown in
    /// its status so that a retry after the kitchen restarted finds it; nil for none.
    var requestID: RequestID?
    /// `--ring-for D`: stop ringing unacknowledged after this long (the timer is then `missed`).
    var ringFor: Duration?
    /// `--volume PERCENT`: the alarm's volume, ``Loudness/floorPercent`` (10) to 100 (% of the
    /// samples' own amplitude).
    var volume = 100
    /// `--ramp D`: rise from the floor (10 %) to ``volume`` across this much of the ringing; at most
    /// ``Loudness/longestRamp`` (60 s).
    var ramp: Duration?
    /// `--say TEXT`: the line spoken at the head of each ringing (Options+Speech.swift); nil for none.
    var say: String?
    /// `--announce`: speak the timer's ring sentence ("Soft eggs are ready") at the head of each
    /// ringing; nil when neither the command line nor the config file said (a timer then does not,
    /// and the kitchen passes `--announce` to the timers it starts: `announce = no` turns it off).
    var announce: Bool?
    /// `--voice NAME`: the espeak-ng voice to speak in; nil for espeak-ng's default.
    var voice: String?
    /// Where the config file set ``voice``: nil when the command line did, or nobody.
    ///
    /// espeak-ng's lists are read only by a run that speaks, at start
    /// (``checkVoice(_:from:synthesizer:)``): a voice they lack is then a bad config line (78)
    /// rather than a bad option (64).
    var voiceConfigLine: ConfigLine?
    /// `--on-done CMD`: run through `/bin/sh -c` once at the deadline; never empty.
    var onDone: String?
    /// `--size`, `--weight`, `--from`, `--altitude`, `--water`: eggs by physics (Options+Eggs.swift).
    var eggs = EggSettings()
    /// The keypad's devices and its keys 4 to 9 (config keys `keys`, `key-4` … `key-9`).
    var keypad = KeypadSettings()
    /// `--listen DEVICE`: the kitchen's microphone, an ALSA capture PCM; nil: it does not listen.
    var listenDevice: String?
    /// `--wake WORDS`: the wake phrase's words, lowercased; nil for "egg timer".
    var wakePhrase: [String]?
    /// `--listen-labels A,B`: the labels that can be spoken, lowercased.
    var listenLabels: [String] = []
    /// Where the config file gave `wake` (a phrase the dictionary lacks is then 78, not 64).
    var wakeConfigLine: ConfigLine?
    /// Which presets were given a time explicitly (`--soft 6m`, `soft = 6m`): those win over a
    /// computed time.
    var explicitPresets = [false, false, false]
    /// How each preset's time was computed ("Soft, 58 g from the fridge at sea level"), or nil
    /// for a fixed time.
    var presetBasis: [String?] = [nil, nil, nil]
    /// `snooze --for D`: how long to snooze (read only into ``ControlCommand/snooze(label:for:)``).
    var snoozeFor: Duration?
    /// `add SECONDS`: the amount (read only into ``ControlCommand/add(label:by:)``).
    var addAmount: Duration = .zero
    /// `ack --all`, `cancel --all`: every timer that fits (read only into ``ControlCommand/acknowledgeAll``
    /// and ``ControlCommand/cancelAll``).
    var all = false
    /// `recover --boot`: only the records an earlier boot left (read only into ``ControlCommand/recover(bootOnly:quiet:label:)``).
    var recoverBoot = false
    /// `recover --quiet`: nothing said of a timer that runs (read only into ``ControlCommand/recover(bootOnly:quiet:label:)``).
    var recoverQuiet = false
    /// `kitchen --pair` or `--unpair` (read only into ``ControlCommand/pair`` and ``ControlCommand/unpair``).
    var kitchenPairing: ControlCommand?
    /// `--every WHEN` (only with `at`): how the alarm repeats, with the value as typed.
    var every: Recurrence?
    var everyText: String?
    /// `--resume-record PATH` (hidden; `eggtimer recover` passes it): run the timer recorded in
    /// that file (see ``TimerRecord``) instead of one from the command line.
    var resumeRecord: String?
    /// `--mqtt`, `--mqtt-…` and `--node`: the broker and the topics (Options+Bus.swift).
    var bus = BusOptions()
    /// The kitchen's `--http…` options (Options+Web.swift).
    var web = WebOptions()
    /// `--max-timers N` (the kitchen): how many timers may run at once, 1...``KitchenCore/maxTimersLimit``.
    var maxTimers = 12

    /// The `--label` given for the timer (pomodoro's label when set; the default is "pomodoro").
    var timerLabel: String? { label }

    /// What the controller starts with; `.menu` also for help, version and subcommands, which
    /// never run it.
    var start: Controller.Start {
        switch command {
        case .preset(let index): .timer(.egg(index), presets[index].duration, label: label ?? presets[index].name)
        case .countdown(let duration, let text):
            .timer(.plain, duration, label: label ?? Self.defaultLabel(typed: text))
        case .pomodoro: .pomodoro(plan, label: label ?? "pomodoro")
        case .menu, .help, .version, .control, .print, .alarm: .menu
        }
    }

    /// `--volume` and `--ramp` for `sound`: the ramp counted in frames at the sound's rate.
    func loudness(for sound: AlarmSound) -> Loudness {
        Loudness(volumePercent: volume, ramp: ramp, sampleRate: sound.sampleRate)
    }

    /// The label this process answers to on its control socket: `--label`, else the timer's
    /// (the preset's name, the duration as typed, `pomodoro`), else `menu-PID` for the egg menu.
    var processLabel: String {
        if let label { return label }
        if case .alarm(_, let text) = command {
            // `at 7:15` is `at-7.15`: a label as `status` lists it and `ack` takes it.
            return "at-" + text.lowercased().split(separator: " ").joined(separator: "-").map { $0 == ":" ? "." : $0 }
        }
        switch start {
        case .timer(_, _, let label): return label
        case .pomodoro(_, let label): return label
        case .resumed(let resumption): return resumption.label
        case .alarm(_, let label): return label
        case .menu: return "menu-\(getpid())"
        }
    }

    /// The longest `snooze --for` (what the control protocol carries).
    static let snoozeLimit = Duration.seconds(999 * 3600)

    /// The label of a countdown without `--label`: the duration as typed, its blanks collapsed
    /// to one space, as ``StartRequest`` labels it on every path.
    ///
    /// `1h  30` → `1h 30`, `5\tmin` → `5 min`, `1:30` → `1:30`; `eggtimer cancel 5 min` reaches it
    /// (a control command joins its words into the label).
    /// - Parameter typed: The duration's words, already accepted by `DurationParser`.
    /// - Returns: `typed`'s words joined by one space.
    static func defaultLabel(typed: String) -> String {
        typed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }

    /// Parses `arguments` (without the program name).
    ///
    /// `-h`, `--help` and `--version` win wherever they appear as an option (not as an option's
    /// value, not after `--`): over any usage error before or after them, so that
    /// `eggtimer soft --help` and `eggtimer --loops 0 --help` print the help. The first of them wins.
    /// A first positional word that names a subcommand (``Subcommand/table``) makes the command
    /// `.control`. An option given on the command line where it does nothing (its row's
    /// ``Spec/fits`` lacks the subcommand or mode) is a usage error; the config file's settings
    /// in `base` are never refused.
    /// - Parameters:
    ///   - arguments: The arguments as text.
    ///   - raw: The same arguments as the bytes the kernel passed, when known: file names are
    ///     bytes, and one that is not UTF-8 (`R\xe9veil.mp3`) must be opened as given.
    ///   - base: The values options not given keep: the built-in defaults, or the config file's
    ///     settings over them (``settings(from:)``).
    /// - Returns: The options, with the command to run.
    /// - Throws: `UsageError` naming the first bad token.
    static func parse(_ arguments: [String], raw: [[UInt8]]? = nil, base: Options = Options()) throws(UsageError)
        -> Options
    {
        var parser = Parser(arguments: arguments, raw: raw?.count == arguments.count ? raw : nil, options: base)
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
        let positional = parser.positional
        if let word = positional.first, let subcommand = Subcommand.named(word) {
            try check(parser.given, fit: .subcommand(subcommand.name))
            options.command = .control(try subcommand.command(Array(positional.dropFirst()), options))
            return options
        }
        if positional.first?.lowercased() == modes[0].name {
            let text = positional.dropFirst().joined(separator: " ")
            options.command = .alarm(try AlarmTimeParser.parse(text), text: text)
        } else if positional.first?.lowercased() == "pomodoro" {
            if positional.count > 1 {
                throw UsageError(description: "unexpected argument '\(positional[1])': 'pomodoro' takes no words")
            }
            options.command = .pomodoro
        } else if !positional.isEmpty {
            try options.startCommand(positional)
        }
        try check(parser.given, fit: scope(of: options.command, resumed: options.resumeRecord != nil))
        try options.computeEggTimes()
        try options.bus.check(label: options.label)
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
        /// The options given, as typed (`-D`, `--device`), in order, with their specs.
        var given: [(name: String, spec: Spec)] = []
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
            if seen.contains(canonical), !repeatableOptions.contains(canonical) {
                throw UsageError(description: "option '\(name)' given twice")
            }
            seen.append(canonical)
            given.append((name, spec))
            try spec.apply(&options, .option(name), value)
            if canonical == "--sound", let raw {
                // The value's own bytes: after `=` in the same token, or the next token.
                let bytes =
                    inlineValue != nil
                    ? Array(raw[index - 1].drop { $0 != UInt8(ascii: "=") }.dropFirst()) : raw[index - 1]
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
                // `-D --json`: an option where the value belongs means the value was left out.
                let next = value.split(separator: "=", maxSplits: 1).first.map(String.init) ?? value
                if value.hasPrefix("-"), optionSpecs.contains(where: { $0.names.contains(next) }) {
                    throw UsageError(description: "option '\(name)' needs a value, got the option '\(value)'")
                }
                index += 1
            } else {
                throw UsageError(description: "option '\(name)' needs a value")
            }
            if value.isEmpty { throw UsageError(description: "option '\(name)' needs a value, got ''") }
            return value
        }
    }

    /// Reads the positional words of a timer's start (`5 min`, `1h 30m`, `7m pasta`, `soft eggs`)
    /// by the one grammar of a start (``StartRequest/parse(_:label:presets:)``), joined by one
    /// space, with `--label` given apart: the command, and ``label`` when the words name one.
    /// - Parameter positional: The positional arguments, not empty, the first no subcommand or
    ///   mode; each may hold several words (`eggtimer '5 min' pasta`).
    /// - Throws: `UsageError` naming the bad word: a first word of letters alone that is no
    ///   preset (a mistyped mode or subcommand), a first word with a digit that is no duration
    ///   (`DurationParser`'s reason), or the grammar's refusal.
    private mutating func startCommand(_ positional: [String]) throws(UsageError) {
        if let word = positional.first(where: { $0.unicodeScalars.contains { $0 != "\t" && $0.isControlCharacter } }) {
            throw UsageError(description: "'\(word)': a control character in a start")
        }
        let text = positional.joined(separator: " ")
        let first = Self.defaultLabel(typed: text).split(separator: " ").first.map(String.init) ?? text
        let lower = first.lowercased()
        let isPreset = presets.contains { $0.name.lowercased() == lower }
        if !isPreset, first.allSatisfy(\.isLetter) {
            throw UsageError(
                description:
                    "unknown mode '\(first)': expected \(presets.map { $0.name.lowercased() }.joined(separator: ", ")), "
                    + "pomodoro, a duration, or \(Subcommand.table.map(\.name).joined(separator: ", "))")
        }
        let request: StartRequest
        do {
            request = try StartRequest.parse(text, label: label, presets: presets.map(\.name))
        } catch {
            // A first word meant as a number (`0`, `-5`, `1:75`): the duration's own reason.
            if first.contains(where: \.isNumber), !isPreset {
                do { _ = try DurationParser.parse(first) } catch { throw UsageError(description: error.description) }
            }
            throw error
        }
        switch request.length {
        case .preset(let name):
            command = .preset(presets.firstIndex { $0.name.lowercased() == name } ?? 0)
            label = request.label ?? label
        case .duration(let duration):
            var typed = Self.defaultLabel(typed: text)
            if label != nil {
                label = request.label  // `--label`, its blanks collapsed
            } else if let given = request.label, given != typed {
                // The words' label (`7m pasta`): the duration is the words before it.
                typed = String(typed.dropLast(given.count + 1))
                label = given
            }
            command = .countdown(duration, text: typed)
        }
    }
}
