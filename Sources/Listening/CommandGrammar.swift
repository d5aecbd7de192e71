/// The JSGF grammar the recogniser hears commands with, generated from the command vocabulary.
///
/// One public rule, `<utterance>`: the wake phrase followed by a command, or a command alone (the
/// caller decides what a command without the wake phrase means). A recogniser forced onto this
/// grammar hears a command in every sentence; ``Hypothesis/isConfident`` tells most of those
/// apart. A rule of common English words beside the commands, for unrelated speech to match
/// instead, was tried and dropped: on espeak-ng's speech it took the commands too (5 of 76 heard
/// exactly, against 64 without it). Pure: the same vocabulary gives the same text.
public enum CommandGrammar {
    /// What the grammar offers.
    public struct Vocabulary: Sendable, Equatable {
        /// The wake phrase's words, lowercased; "egg timer" by default.
        public var wakePhrase: [String]
        /// The presets' spoken names, lowercased; soft, medium and hard egg by default.
        public var presets: [String]
        /// Timer labels that can be spoken (before a duration, after "cancel"), lowercased.
        public var labels: [String]
        /// The longest duration in minutes spoken as a number, 1 to 99; 90 by default.
        public var maximumMinutes: Int

        /// Makes a vocabulary.
        /// - Parameters:
        ///   - wakePhrase: The wake phrase's words.
        ///   - presets: The presets' names.
        ///   - labels: Labels that can be spoken.
        ///   - maximumMinutes: The longest duration in minutes, 1 to 99.
        /// - Precondition: `maximumMinutes` is 1 to 99; the wake phrase is not empty.
        public init(
            wakePhrase: [String] = ["egg", "timer"], presets: [String] = ["soft egg", "medium egg", "hard egg"],
            labels: [String] = [], maximumMinutes: Int = 90
        ) {
            precondition((1...99).contains(maximumMinutes) && !wakePhrase.isEmpty)
            (self.wakePhrase, self.presets, self.labels) = (wakePhrase, presets, labels)
            self.maximumMinutes = maximumMinutes
        }
    }

    /// The grammar's text for `vocabulary`.
    /// - Parameter vocabulary: What to offer.
    /// - Returns: JSGF V1.0 text with the public rule `<utterance>`, one rule a line.
    public static func text(for vocabulary: Vocabulary) -> String {
        let labels = vocabulary.labels.isEmpty ? nil : alternatives(vocabulary.labels)
        var rules: [(String, String)] = [("wake", vocabulary.wakePhrase.joined(separator: " "))]
        // JSGF has no empty alternatives: without presets there is no <preset> rule.
        if !vocabulary.presets.isEmpty { rules.append(("preset", alternatives(vocabulary.presets))) }
        rules.append(("duration", alternatives(durations(upTo: vocabulary.maximumMinutes))))
        if let labels { rules.append(("label", labels)) }
        var commands =
            (vocabulary.presets.isEmpty ? [] : ["<preset>"]) + [
                labels == nil ? "<duration>" : "[<label>] <duration>", "stop", "snooze",
                labels == nil ? "cancel" : "cancel [<label>]", "pause", "resume", "add a minute",
                "how long is left", "which timers are running", "no", "cancel that",
            ]
        commands = commands.map { $0.contains(" ") && !$0.hasPrefix("<") ? "(\($0))" : $0 }
        rules.append(("command", commands.joined(separator: " | ")))
        var lines = ["#JSGF V1.0;", "grammar eggtimer;", "public <utterance> = <wake> <command> | <command>;"]
        lines += rules.map { "<\($0.0)> = \($0.1);" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The durations offered, in words: "one minute", "two minutes" … up to `maximumMinutes`,
    /// "an hour", "an hour and a half".
    /// - Parameter maximumMinutes: The longest, 1 to 99.
    /// - Returns: The phrases, shortest first.
    public static func durations(upTo maximumMinutes: Int) -> [String] {
        (1...maximumMinutes).map { $0 == 1 ? "one minute" : "\(number($0)) minutes" } + [
            "an hour", "an hour and a half",
        ]
    }

    /// `value` in words as the dictionary spells them: "seven", "fifteen", "twenty one".
    /// - Parameter value: 1 to 99.
    /// - Returns: One or two words.
    /// - Precondition: `value` is 1 to 99.
    public static func number(_ value: Int) -> String {
        precondition((1...99).contains(value))
        if value < 20 { return small[value] }
        let tens = tensWords[value / 10]
        return value % 10 == 0 ? tens : "\(tens) \(small[value % 10])"
    }

    /// Every word a command of `vocabulary` can hold, each once: the words the dictionary must have.
    /// - Parameter vocabulary: The vocabulary.
    /// - Returns: The words, in order of first appearance.
    public static func words(of vocabulary: Vocabulary) -> [String] {
        let phrases =
            vocabulary.wakePhrase + vocabulary.presets + vocabulary.labels
            + durations(upTo: vocabulary.maximumMinutes) + [
                "stop", "snooze", "cancel", "pause", "resume", "add a minute", "how long is left",
                "which timers are running", "no", "cancel that",
            ]
        var seen = Set<String>()
        return phrases.flatMap { $0.split(separator: " ").map(String.init) }.filter { seen.insert($0).inserted }
    }

    /// "a | b | (c d)": phrases as JSGF alternatives.
    private static func alternatives(_ phrases: [String]) -> String {
        phrases.map { $0.contains(" ") ? "(\($0))" : $0 }.joined(separator: " | ")
    }

    private static let small = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    private static let tensWords = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ]
}
