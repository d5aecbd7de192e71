/// A spoken command, read from the words the recogniser heard through ``CommandGrammar``'s
/// grammar (issue 46).
///
/// A start is a request in the one start grammar's text (`soft`, `7m`, `7m pasta`, `90m`), which
/// the kitchen parses again as every front's starts; the others name what to do to the running
/// timers. Pure.
public enum VoiceCommand: Equatable, Sendable {
    /// Start a timer: the request's text (an egg's preset name, or minutes and a label).
    case start(String)
    /// Stop every alarm ringing ("stop").
    case stop
    /// Snooze every alarm ringing ("snooze").
    case snooze
    /// Cancel the timer of this label, or the newest ("cancel", "cancel pasta").
    case cancel(label: String?)
    /// Pause the newest timer counting ("pause").
    case pause
    /// Resume the newest timer paused ("resume").
    case resume
    /// Add a minute to the newest timer ("add a minute").
    case addMinute
    /// Say how long each timer has left ("how long is left", "which timers are running").
    case report
    /// Take back the last start heard ("no", "cancel that").
    case undo

    /// What the recogniser's words mean.
    public struct Reading: Equatable, Sendable {
        /// Whether the words began with the wake phrase.
        public let woken: Bool
        /// The command after it.
        public let command: VoiceCommand

        /// A reading.
        public init(woken: Bool, command: VoiceCommand) { (self.woken, self.command) = (woken, command) }
    }

    /// Reads `words` (lowercased, as the grammar spells them) as a command of `vocabulary`.
    ///
    /// The wake phrase, if the words begin with it, is taken off first (``Reading/woken``). A
    /// preset is started by its first word (`soft egg` → `soft`, the preset's name); a duration
    /// in words by whole minutes (`seven minutes` → `7m`, `an hour and a half` → `90m`), after
    /// its label when one was said (`pasta seven minutes` → `7m pasta`).
    /// - Parameters:
    ///   - words: The words heard, in order.
    ///   - vocabulary: The grammar's vocabulary.
    /// - Returns: The reading, or nil when the words are no command (the grammar allows none
    ///   such; a recogniser with another grammar could give them).
    public static func read(_ words: [String], vocabulary: CommandGrammar.Vocabulary) -> Reading? {
        let woken = words.starts(with: vocabulary.wakePhrase)
        let rest = woken ? Array(words.dropFirst(vocabulary.wakePhrase.count)) : words
        guard let command = command(rest, vocabulary: vocabulary) else { return nil }
        return Reading(woken: woken, command: command)
    }

    /// The command `words` (the wake phrase taken off) say.
    private static func command(_ words: [String], vocabulary: CommandGrammar.Vocabulary) -> VoiceCommand? {
        let text = words.joined(separator: " ")
        switch text {
        case "stop": return .stop
        case "snooze": return .snooze
        case "cancel": return .cancel(label: nil)
        case "pause": return .pause
        case "resume": return .resume
        case "add a minute": return .addMinute
        case "how long is left", "which timers are running": return .report
        case "no", "cancel that": return .undo
        default: break
        }
        if vocabulary.presets.contains(text), let name = words.first { return .start(name) }
        if words.first == "cancel", let label = vocabulary.labels.first(where: { "cancel " + $0 == text }) {
            return .cancel(label: label)
        }
        for label in [nil] + vocabulary.labels.map(Optional.some) {
            let prefix = label.map { $0.split(separator: " ").map(String.init) } ?? []
            guard words.starts(with: prefix),
                let minutes = minutes(in: words.dropFirst(prefix.count).joined(separator: " "), vocabulary: vocabulary)
            else { continue }
            return .start("\(minutes)m" + (label.map { " " + $0 } ?? ""))
        }
        return nil
    }

    /// The whole minutes a duration of ``CommandGrammar/durations(upTo:)`` says; nil for other words.
    static func minutes(in phrase: String, vocabulary: CommandGrammar.Vocabulary) -> Int? {
        let phrases = CommandGrammar.durations(upTo: vocabulary.maximumMinutes)
        guard let index = phrases.firstIndex(of: phrase) else { return nil }
        switch phrase {
        case "an hour": return 60
        case "an hour and a half": return 90
        default: return index + 1
        }
    }
}
