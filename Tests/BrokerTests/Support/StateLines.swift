import HouseBus

/// The timer states in `mosquitto_sub -v` lines (`TOPIC PAYLOAD`), for the broker tests.
enum StateLines {
    /// The state payload of the line `topic payload`, parsed; nil for another topic, a clear
    /// (`(null)`) or a payload that is not a state.
    /// - Parameters:
    ///   - line: One line `mosquitto_sub -v` printed.
    ///   - topic: The state topic.
    /// - Returns: The payload.
    static func state(_ line: String, topic: String) -> TimerStatePayload? {
        guard line.hasPrefix(topic + " ") else { return nil }
        return TimerStatePayload.parse(Array(line.dropFirst(topic.count + 1).utf8))
    }

    /// The state payloads published on `topic` in `lines`, in order.
    /// - Parameters:
    ///   - lines: The lines `mosquitto_sub -v` printed.
    ///   - topic: The state topic.
    /// - Returns: The payloads.
    static func states(_ lines: some Sequence<String>, topic: String) -> [TimerStatePayload] {
        lines.compactMap { state($0, topic: topic) }
    }
}
