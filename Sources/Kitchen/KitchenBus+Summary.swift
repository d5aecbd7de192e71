import HouseBus

// The kitchen's summary of the node's timers (issue 45): how many run, the next due, ringing,
// silent and why, retained on P/NODE/kitchen/summary for the kitchen's stable Home Assistant
// entities (Timers running, Next due, Silent), which stay while timers come and go.

extension KitchenBus {
    /// The summary (``NodeSummary/message``) when it differs from the one last published, while
    /// this kitchen holds the node's starts (one kitchen per node publishes it); nothing otherwise.
    ///
    /// Published as the kitchen takes the starts, every retained message being in, then at each
    /// change: never every second (``NodeSummary`` holds deadlines, not time left).
    /// - Returns: The effects (one publication, or none).
    mutating func summaryUpdate() -> [KitchenBusEffect] {
        guard claim == .held else { return [] }
        let message = summary.message
        guard message.payload != publishedSummary else { return [] }
        publishedSummary = message.payload
        return [.publish(message)]
    }
}
