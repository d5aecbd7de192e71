/// The sentences the timer and the kitchen say, in one ``SpeechLanguage``.
///
/// Pure: text in, text out. The egg presets (`Soft`, `Medium`, `Hard`, any case) get their own
/// sentences ("Soft eggs are ready", "Die weichen Eier sind fertig"); any other label is spoken as
/// given ("Pasta is ready", "Pasta ist fertig"). Durations are spoken in words
/// (``spoken(_:)``): "three minutes forty", "drei Minuten vierzig".
public struct Phrasebook: Sendable {
    /// The language of the sentences.
    public let language: SpeechLanguage

    /// A phrasebook for `language`.
    public init(_ language: SpeechLanguage) { self.language = language }

    /// A phrasebook for the language of an espeak-ng voice (English for any but German).
    /// - Parameter voice: An espeak-ng voice name.
    public init(voice: String) { self.init(SpeechLanguage(voice: voice)) }

    /// The egg presets by their lowercased name: (English, German plural for the ring line,
    /// German singular for the kitchen's answer).
    static let eggs: [String: (english: String, germanReady: String, germanOne: String)] = [
        "soft": ("Soft", "Die weichen Eier sind fertig", "Weiches Ei"),
        "medium": ("Medium", "Die mittleren Eier sind fertig", "Mittleres Ei"),
        "hard": ("Hard", "Die harten Eier sind fertig", "Hartes Ei"),
    ]

    /// What a timer says when it rings: "Soft eggs are ready", "Pasta is ready"; "Die weichen
    /// Eier sind fertig", "Pasta ist fertig".
    /// - Parameter label: The timer's label or preset name, as shown.
    /// - Returns: One sentence, without a full stop.
    public func ready(_ label: String) -> String {
        if let egg = Self.eggs[label.lowercased()] {
            return language == .english ? "\(egg.english) eggs are ready" : egg.germanReady
        }
        return language == .english ? "\(label) is ready" : "\(label) ist fertig"
    }

    /// What a timer named by its length says when it rings: "Five minutes are up", "One minute is
    /// up", "Three minutes forty are up"; "Fünf Minuten sind um", "Eine Minute ist um".
    ///
    /// For a timer whose label is its duration as typed (`eggtimer 5min`: `5min`), which read
    /// aloud would be "five min is ready" (and `5s` "five z").
    /// - Parameter duration: The timer's length; spoken in whole seconds, rounded up.
    /// - Returns: One sentence, without a full stop.
    public func timeUp(_ duration: Duration) -> String {
        let words = spoken(duration, roundingUp: true)
        let seconds = max(1, (duration + .nanoseconds(999_999_999)).components.seconds)
        let one = [1, 60, 3_600].contains(seconds)
        let sentence =
            language == .english ? "\(words) \(one ? "is" : "are") up" : "\(words) \(one ? "ist" : "sind") um"
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }

    /// What a pomodoro says when a break starts: "Break time" / "Pause"; a long one "Long break" /
    /// "Lange Pause".
    /// - Parameter long: Whether it is the long break.
    /// - Returns: The words.
    public func breakTime(long: Bool = false) -> String {
        switch (language, long) {
        case (.english, false): "Break time"
        case (.english, true): "Long break"
        case (.german, false): "Pause"
        case (.german, true): "Lange Pause"
        }
    }

    /// What a pomodoro says when work starts again: "Back to work" / "Weiter geht's".
    public var backToWork: String { language == .english ? "Back to work" : "Weiter geht's" }

    /// The kitchen's answer to a started timer: "Soft egg, five minutes", "Pasta, eight minutes";
    /// "Weiches Ei, fünf Minuten".
    /// - Parameters:
    ///   - label: The timer's label or preset name.
    ///   - duration: Its length; spoken in whole seconds (rounded down).
    /// - Returns: One sentence, without a full stop.
    public func started(_ label: String, duration: Duration) -> String {
        "\(name(label)), \(spoken(duration))"
    }

    /// The kitchen's answer to a started timer named by its length (`5min`, which read aloud is
    /// "five min"): "Timer, five minutes" / "Timer, fünf Minuten".
    /// - Parameter duration: Its length; spoken in whole seconds (rounded down).
    /// - Returns: One sentence, without a full stop.
    public func started(duration: Duration) -> String { "Timer, \(spoken(duration))" }

    /// A timer's name in the kitchen's answers: an egg preset's singular ("Soft egg", "Weiches
    /// Ei"), any other label as given.
    func name(_ label: String) -> String {
        guard let egg = Self.eggs[label.lowercased()] else { return label }
        return language == .english ? "\(egg.english) egg" : egg.germanOne
    }

    /// The kitchen's answer to "how long": "Pasta: three minutes forty left" / "Pasta: noch drei
    /// Minuten vierzig".
    /// - Parameters:
    ///   - label: The timer's label.
    ///   - remaining: Time left; spoken in whole seconds, rounded up (as a countdown shows it).
    ///   - paused: Whether the timer is paused (the report says so: its time does not run).
    /// - Returns: One sentence, without a full stop.
    public func left(_ label: String, remaining: Duration, paused: Bool = false) -> String {
        let words = spoken(remaining, roundingUp: true)
        return language == .english
            ? "\(label): \(words) left" + (paused ? ", paused" : "")
            : "\(label): noch \(words)" + (paused ? ", angehalten" : "")
    }

    /// The kitchen's answer when a timer is cancelled.
    public var cancelled: String { language == .english ? "Cancelled" : "Abgebrochen" }

    /// The kitchen's answer when asked while no timer runs.
    public var nothingRunning: String { language == .english ? "Nothing is running" : "Es läuft nichts" }

    /// The kitchen's answer to a spoken start it is unsure it heard right (issue 46).
    public var sayAgain: String { language == .english ? "Please say that again" : "Bitte noch einmal" }

    /// The kitchen's answer to "no" or "cancel that" with no spoken start to take back.
    public var nothingToTakeBack: String {
        language == .english ? "Nothing to take back" : "Nichts zurückzunehmen"
    }

    /// The kitchen's answer to "pause" with no timer counting.
    public var nothingToPause: String { language == .english ? "Nothing to pause" : "Nichts anzuhalten" }

    /// The kitchen's answer to "resume" with no timer paused.
    public var nothingPaused: String { language == .english ? "Nothing is paused" : "Nichts ist angehalten" }

    /// The kitchen's answer to a paused or resumed timer.
    public func paused(_ label: String, _ paused: Bool) -> String {
        switch (language, paused) {
        case (.english, true): "\(label) paused"
        case (.english, false): "\(label) goes on"
        case (.german, true): "\(label) angehalten"
        case (.german, false): "\(label) läuft weiter"
        }
    }
}
