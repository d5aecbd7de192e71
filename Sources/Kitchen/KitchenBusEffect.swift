import HouseBus

/// What the kitchen's MQTT reducer (``KitchenBus``) asks the kitchen to do: its only way to reach
/// the broker, the log or the timers.
///
/// Carried out in order, on the main thread.
enum KitchenBusEffect: Equatable {
    /// Subscribe to a topic (QoS 1), now and after every reconnect.
    case subscribe(String)
    /// Publish a message (never blocks: queued by the client; a retained one is sent again after
    /// every reconnect).
    case publish(BusMessage)
    /// Start a timer for this request, as `eggtimer start` would, from ``KitchenCore/Origin/bus(id:)``
    /// with its id (the kitchen checks its limit; the answer is its log line, `… (from MQTT)`, and
    /// the result published: ``KitchenBus/result(_:id:)``).
    case start(StartPayload)
    /// One line for standard error, after `eggtimer: ` (the broker's warnings, payloads
    /// ignored; control characters already escaped).
    case log(String)
    /// One line for the kitchen's log on standard output, as its other `kitchen: ` lines (whether
    /// it takes the node's starts; control characters already escaped).
    case say(String)
    /// The node's timer of this label died (its Last Will's `offline` is on its availability):
    /// once it is forgotten (no record kept, not running, not starting), the kitchen clears what
    /// it left on the broker (``KitchenBus/clearLeftovers(_:)``).
    case leftover(String)
}
