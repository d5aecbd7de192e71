/// The kitchen's answers to the keypad's presses other than a start and a report (issue 28:
/// every press is answered by voice).
extension Phrasebook {
    /// The answer when the alarms were acknowledged: "Pasta stopped", "Soft egg stopped" for one
    /// timer, "Stopped" for several; "Pasta gestoppt", "Gestoppt".
    /// - Parameter labels: The labels of the timers stopped.
    /// - Returns: One sentence, without a full stop.
    public func stopped(_ labels: [String]) -> String {
        let word = language == .english ? "stopped" : "gestoppt"
        guard labels.count == 1, let label = labels.first else { return language == .english ? "Stopped" : "Gestoppt" }
        return "\(name(label)) \(word)"
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

    /// The answer when the acknowledge or snooze press finds nothing ringing.
    public var nothingRinging: String { language == .english ? "Nothing is ringing" : "Es klingelt nichts" }
}
