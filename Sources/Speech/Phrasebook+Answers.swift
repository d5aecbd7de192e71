/// The kitchen's answers to the keypad's presses other than a start and a report (issue 28:
/// every press is answered by voice).
extension Phrasebook {
    /// The answer when the alarms were acknowledged, naming every timer it stopped.
    ///
    /// It also names those whose alarm never reached a speaker (issue 37): "Pasta stopped", "Soft egg and Pasta stopped;
    /// Pasta never reached its speaker", "Soft egg, Pasta and Rice stopped; Pasta and Rice never
    /// reached their speakers"; "Weiches Ei und Pasta gestoppt; Pasta hat keinen Lautsprecher
    /// erreicht". "Stopped" / "Gestoppt" when no label is given.
    ///
    /// The one wording of that answer: the kitchen's voice says it, and its log and the page show it
    /// with `asWritten` (the labels as they are, `Soft` rather than "Soft egg").
    /// - Parameters:
    ///   - labels: The labels of the timers stopped, in the order to name them.
    ///   - silent: Those of `labels` whose alarm never reached a speaker, in that order.
    ///   - asWritten: Whether the labels stand as they are (the log, the page) rather than as
    ///     spoken (``name(_:)``: an egg preset's singular).
    /// - Returns: One sentence, without a full stop.
    public func stopped(_ labels: [String], silent: [String] = [], asWritten: Bool = false) -> String {
        guard !labels.isEmpty else { return language == .english ? "Stopped" : "Gestoppt" }
        let named = { (labels: [String]) in self.list(asWritten ? labels : labels.map(self.name)) }
        let stopped = "\(named(labels)) \(language == .english ? "stopped" : "gestoppt")"
        guard !silent.isEmpty else { return stopped }
        let one = silent.count == 1
        let unheard =
            language == .english
            ? (one ? "never reached its speaker" : "never reached their speakers")
            : (one ? "hat keinen Lautsprecher erreicht" : "haben keinen Lautsprecher erreicht")
        return "\(stopped); \(named(silent)) \(unheard)"
    }

    /// What the kitchen says when a followed timer rings and its alarm reaches no device (issue
    /// 37): "Pasta is ringing but cannot reach its speaker", "Soft egg is ringing but cannot reach
    /// its speaker"; "Pasta klingelt, erreicht aber keinen Lautsprecher".
    /// - Parameter label: The timer's label.
    /// - Returns: One sentence, without a full stop.
    public func ringingUnheard(_ label: String) -> String {
        language == .english
            ? "\(name(label)) is ringing but cannot reach its speaker"
            : "\(name(label)) klingelt, erreicht aber keinen Lautsprecher"
    }

    /// `names` joined as a sentence lists them: "A", "A and B", "A, B and C" ("und" in German).
    func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + (language == .english ? " and " : " und ") + last
    }

    /// The answer when the alarms were snoozed: "Snoozed for ten minutes" / "Noch einmal in zehn
    /// Minuten"; "Snoozed" / "Schlummert" when the length is not known.
    /// - Parameter length: Until the alarm rings again; spoken in whole seconds, rounded up.
    /// - Returns: One sentence, without a full stop.
    public func snoozed(for length: Duration?) -> String {
        guard let length else { return language == .english ? "Snoozed" : "Schlummert" }
        let words = spoken(length, roundingUp: true)
        return language == .english ? "Snoozed for \(words)" : "Noch einmal in \(words)"
    }

    /// The answer to the first press of the cancel key: "Pasta is cancelled in three seconds" /
    /// "Pasta wird in drei Sekunden abgebrochen".
    /// - Parameters:
    ///   - label: The timer's label.
    ///   - delay: Until it is cancelled unless the key is pressed again; in whole seconds.
    /// - Returns: One sentence, without a full stop.
    public func cancelling(_ label: String, in delay: Duration) -> String {
        let words = spoken(delay)
        return language == .english
            ? "\(name(label)) is cancelled in \(words)" : "\(name(label)) wird in \(words) abgebrochen"
    }

    /// The answer when a pending cancel is withdrawn (the cancel key pressed again).
    public var notCancelled: String { language == .english ? "Not cancelled" : "Nicht abgebrochen" }

    /// The answer when a start is refused (the kitchen's limit, a label that runs).
    public var notStarted: String { language == .english ? "Not started" : "Nicht gestartet" }

    /// Why a start was refused, as the keypad's answer says it (issue 42).
    public enum StartRefusal: Equatable, Sendable {
        /// The kitchen runs its most timers already (`max-timers`).
        case full(Int)
        /// The request could not be a timer (a label in use, a bad request).
        case refused
        /// Its timer did not come up (it exited first, or did not answer in time).
        case failed
    }

    /// The answer when a start is refused, with why: "Not started: twelve timers run already",
    /// "Nicht gestartet: der Timer ist nicht angelaufen".
    /// - Parameter why: Why.
    /// - Returns: One sentence, without a full stop.
    public func notStarted(_ why: StartRefusal) -> String {
        switch (why, language) {
        case (.full(let count), .english): "Not started: \(count) timers run already"
        case (.full(let count), _): "Nicht gestartet: es laufen schon \(count) Timer"
        case (.refused, .english): "Not started: the kitchen refused it"
        case (.refused, _): "Nicht gestartet: die Küche hat abgelehnt"
        case (.failed, .english): "Not started: the timer did not come up; see the kitchen's log"
        case (.failed, _): "Nicht gestartet: der Timer ist nicht angelaufen; siehe das Protokoll der Küche"
        }
    }

    /// The answer when the acknowledge or snooze press finds nothing ringing.
    public var nothingRinging: String { language == .english ? "Nothing is ringing" : "Es klingelt nichts" }
}
