import Speech
import SystemKit
import TimerCore
import TimerEngine
import TimerText

// The spoken line at the head of each ringing (issue 28): `--say`, `--announce`, `--voice`.

extension Options {
    /// The line this timer speaks at the head of each ringing: `--say`'s text, else with
    /// `--announce` the ring sentence of `label` (`sentence`, the phrase book's), else nil.
    /// - Parameters:
    ///   - label: The timer's label or preset name, as shown ("Soft", "pasta").
    ///   - sentence: Makes the ring sentence of a label ("Soft eggs are ready").
    /// - Returns: The text to prepare, or nil for the plain alarm.
    func spokenLine(label: String, sentence: (String) -> String) -> String? {
        if let say { return say }
        return announce == true ? sentence(label) : nil
    }

    /// The lines this timer speaks, by the ringing each starts: `--say`'s text for every ringing;
    /// with `--announce` a pomodoro's three ("Break time", "Long break", "Back to work") or any
    /// other timer's ring sentence; empty for the plain alarm.
    /// - Parameters:
    ///   - label: The timer's label or preset name, as shown.
    ///   - phrases: The phrase book of the voice's language.
    /// - Returns: The words by ``RingLine``.
    func spokenLines(label: String, phrases: Phrasebook) -> [RingLine: String] {
        if say == nil, announce == true, case .pomodoro = command {
            return [
                .breakTime(long: false): phrases.breakTime(), .breakTime(long: true): phrases.breakTime(long: true),
                .backToWork: phrases.backToWork,
            ]
        }
        return spokenLine(label: label, sentence: { Self.ringSentence(label: $0, phrases: phrases) }).map {
            [.ready: $0]
        } ?? [:]
    }

    /// A timer's ring sentence for `--announce`: "Pasta is ready", "Soft eggs are ready"; for a
    /// label that reads as a duration (a countdown without `--label` is named by its length as
    /// typed, `5min`, and a recovered one by its record's label) "Five minutes are up".
    /// - Parameters:
    ///   - label: The timer's label or preset name.
    ///   - phrases: The phrase book of the voice's language.
    /// - Returns: One sentence, without a full stop.
    static func ringSentence(label: String, phrases: Phrasebook) -> String {
        guard let duration = try? DurationParser.parse(label) else { return phrases.ready(label) }
        return phrases.timeUp(duration)
    }

    /// How long the voice check at start may take: 2 s (it takes about 15 ms).
    static let voiceCheckLimit = Duration.seconds(2)

    /// Checks that espeak-ng lists `voice` (``SpeechSynthesizer/check(voice:within:)``) before a
    /// timer or the kitchen that will speak starts.
    ///
    /// Blocks for espeak-ng's initialisation and the reading of its voice lists (about 20 ms, once;
    /// the synthesis would do it a moment later anyway), at most ``voiceCheckLimit``: a hung
    /// library is one warning and the timer starts. Without libespeak-ng nothing is said here: the
    /// line's own warning comes, and the plain alarm. A voice espeak-ng lacks, a variant alone
    /// (`m3`), a variant it lacks or an MBROLA voice not installed is one line naming it, on
    /// standard error: as a bad `--voice` (64), or as a bad line of the config file when `line`
    /// says the file set it (78).
    /// - Parameters:
    ///   - voice: The `--voice` (or config `voice =`) name.
    ///   - line: Where the config file set it; nil when the command line did.
    ///   - synthesizer: The speech layer that looks it up (a test's may hide the library).
    /// - Throws: `ExitStatus.usage` for a bad `--voice`, `ExitStatus.configuration` for a bad
    ///   `voice =`.
    static func checkVoice(
        _ voice: String, from line: ConfigLine?, synthesizer: SpeechSynthesizer = SpeechSynthesizer()
    ) throws(ExitStatus) {
        let problem: String
        do throws(SpeechError) {
            try synthesizer.check(voice: voice, within: voiceCheckLimit)
            return
        } catch .unknownVoice(let name) {
            problem = SpeechError.unknownVoice(name).message + "; espeak-ng --voices lists them"
        } catch .unknownVariant(let name, let variant) {
            problem =
                SpeechError.unknownVariant(voice: name, variant: variant).message
                + "; espeak-ng --voices=variant lists them (the name after !v/)"
        } catch .tooSlow {
            // A hung libespeak-ng: the timer starts anyway, its line times out and it rings plain.
            printError("eggtimer: warning: espeak-ng did not answer within 2 s: voice '\(voice)' not checked")
            return
        } catch .libraryMissing, .textRejected, .synthesisFailed {
            return  // no library: the spoken line warns once and the alarm rings plain
        } catch {
            problem = error.message  // a variant alone, an MBROLA voice not installed
        }
        if let line {
            printError("eggtimer: " + ConfigError(at: line, "voice: " + problem).description)
            throw .configuration
        }
        printError("eggtimer: --voice: " + problem)
        throw .usage
    }

    static let speechSpecs: [Spec] = [
        Spec(
            names: ["--say"], argument: "TEXT", group: .timer,
            help: "speak TEXT at the head of each ringing, then the alarm (at most \(ValueRule.sayLimit) bytes)",
            fits: Scope.timers
        ) { options, name, value throws(UsageError) in
            guard ValueRule.isValidSay(value) else {
                throw name.error(
                    "needs 1 to \(ValueRule.sayLimit) bytes of text without control characters, got '\(value.escapingControlCharacters)'"
                )
            }
            options.say = value
        },
        Spec(
            names: ["--announce"], group: .timer,
            help: "say the timer's name at the head of each ringing (\"Soft eggs are ready\"; the kitchen's timers do)",
            fits: Scope.timers + [.subcommand("kitchen")],
            inConfigFile: true
        ) { options, name, value throws(UsageError) in
            switch value {
            case "", "yes": options.announce = true
            case "no": options.announce = false
            default: throw name.error("takes yes or no, got '\(value.escapingControlCharacters)'")
            }
        },
        Spec(
            names: ["--voice"], argument: "NAME", group: .timer,
            help:
                "the espeak-ng voice to speak in, optionally +VARIANT (en-gb, de, en+f3; espeak-ng --voices lists them)",
            fits: Scope.timers,
            inConfigFile: true
        ) { options, name, value throws(UsageError) in
            if let problem = ValueRule.voiceNameProblem(value) { throw name.error(problem) }
            options.voice = value
            options.voiceConfigLine = nil  // the config file's reader sets it after this
        },
    ]
}
