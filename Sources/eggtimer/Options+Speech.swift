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

    /// Checks that espeak-ng has `voice` before a timer or the kitchen that will speak starts.
    ///
    /// Blocks for espeak-ng's initialisation (about 15 ms, once; the synthesis would do it a
    /// moment later anyway), at most ``voiceCheckLimit``: a hung library is one warning and the
    /// timer starts. Without libespeak-ng nothing is said here: the line's own warning comes, and
    /// the plain alarm.
    /// - Parameters:
    ///   - voice: The `--voice` (or config `voice =`) name.
    ///   - synthesizer: The speech layer that looks it up (a test's may hide the library).
    /// - Throws: `ExitStatus.usage` for a voice espeak-ng does not have, one line naming it.
    static func checkVoice(_ voice: String, synthesizer: SpeechSynthesizer = SpeechSynthesizer()) throws(ExitStatus) {
        do throws(SpeechError) {
            try synthesizer.check(voice: voice, within: voiceCheckLimit)
        } catch .unknownVoice {
            printError("eggtimer: --voice: espeak-ng has no voice '\(voice)'; espeak-ng --voices lists them")
            throw .usage
        } catch .tooSlow {
            // A hung libespeak-ng: the timer starts anyway, its line times out and it rings plain.
            printError("eggtimer: warning: espeak-ng did not answer within 2 s: voice '\(voice)' not checked")
        } catch {
            return  // no library: the spoken line warns once and the alarm rings plain
        }
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
            help: "the espeak-ng voice to speak in (en-gb, de; espeak-ng --voices lists them)", fits: Scope.timers,
            inConfigFile: true
        ) { options, name, value throws(UsageError) in
            guard ValueRule.isValidVoice(value) else {
                throw name.error(
                    "needs 1 to \(ValueRule.voiceLimit) letters, digits, - or +, got '\(value.escapingControlCharacters)'"
                )
            }
            options.voice = value
        },
    ]
}
