import HouseBus
import TextCoding

// What the node's timers that died left on the broker (issue 45). A timer that ends cleanly
// clears all it retained; one that dies (kill -9, a crash) leaves its entities, its last state
// and its Last Will's `offline`, and the node's ringing state `ON` if it rang. Every timer of the
// node sets the ringing state right when another dies; with none left online, the kitchen (which
// always runs) does, as the one that holds the node's starts. A dead timer's leftovers stay while
// its record is kept (`eggtimer recover` may bring it back: its entities show unavailable); once
// it is forgotten (`eggtimer cancel LABEL`, or a recovery that gave up on an overdue alarm
// removes the record), the kitchen clears them, configs first, so Home Assistant drops its
// entities instead of showing them unavailable for ever.

extension KitchenBus {
    /// A message on the node's timers' states or availabilities, or on its ringing state.
    ///
    /// The kitchen's summary of the node's timers, when it changed (``summaryUpdate()``); and
    /// While this kitchen holds the node's starts: a timer's availability saying `offline` now
    /// (a Last Will, or a clean end's, which clears the rest itself) gives the node's ringing
    /// state when no timer of the node is online to say it (``NodeLeftovers/ringingUpdate()``);
    /// a retained `offline` (its timer died before the kitchen looked: a replay after a
    /// reconnect) is a ``KitchenBusEffect/leftover(_:)`` to look at.
    /// - Parameters:
    ///   - topic: The topic.
    ///   - payload: The payload.
    ///   - retained: Whether the broker sent it from its store (on subscribing).
    /// - Returns: The effects, in order; none for any other topic.
    mutating func nodeMessage(_ topic: String, _ payload: [UInt8], retained: Bool) -> [KitchenBusEffect] {
        summary.see(topic: topic, payload: payload)
        let effects = summaryUpdate()
        guard let label = leftovers.see(topic: topic, payload: payload), claim == .held else { return effects }
        if retained { return effects + [.leftover(label)] }
        return effects + (leftovers.ringingUpdate().map { [.publish($0)] } ?? [])
    }

    /// What the kitchen does as it takes the node's starts, every retained message being in: the
    /// node's ringing state set right when no timer of the node is online (a last ringing timer
    /// that died while no kitchen ran), and each dead timer's leftovers to look at, by label.
    /// - Returns: The effects, in order.
    mutating func takeCareOfLeftovers() -> [KitchenBusEffect] {
        var effects = leftovers.ringingUpdate().map { [KitchenBusEffect.publish($0)] } ?? []
        effects += leftovers.offline.sorted().map(KitchenBusEffect.leftover)
        return effects
    }

    /// Clears what the dead timer `label` left on the broker (``NodeLeftovers/clear(_:)``), with
    /// one line; the kitchen calls it once the timer is forgotten (no record kept, not running,
    /// not starting).
    ///
    /// Nothing while another kitchen holds the node's starts, or when its availability no longer
    /// says `offline` (it runs again, or was cleared).
    /// - Parameter label: The timer's label.
    /// - Returns: The messages to publish and the line, in order.
    mutating func clearLeftovers(_ label: String) -> [KitchenBusEffect] {
        guard claim == .held else { return [] }
        let messages = leftovers.clear(label)
        guard !messages.isEmpty else { return [] }
        return messages.map(KitchenBusEffect.publish) + [
            .say(
                "\(label.escapingControlCharacters): died and is forgotten (no record kept): "
                    + "its entities and retained state are cleared from the broker")
        ]
    }
}
