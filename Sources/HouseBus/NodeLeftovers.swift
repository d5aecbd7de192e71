/// What the node's timers that died left on the broker, as a process that outlives them sees it
/// (the kitchen: issue 45).
///
/// A timer that ends cleanly clears everything it retained; one that dies (`kill -9`, a crash)
/// leaves its discovery configs, its last state and its Last Will's `offline` on its availability,
/// and, when it rang, the node's ringing state `ON`, which only a timer of the node sets right
/// (``NodeRinging``). With no timer of the node left online, nobody would: Home Assistant would
/// show the dead timer's entities `unavailable` for ever and the node ringing.
///
/// This picture, fed every message on the node's timers' states and availabilities and on its
/// ringing topic (``see(topic:payload:)``), gives the node's ringing state to publish while no
/// timer of the node is online (``ringingUpdate()``), and the messages that clear a dead timer's
/// leftovers (``clear(_:)``) once its owner decided it is gone for good. A value type; pure; any thread.
public struct NodeLeftovers: Sendable, Equatable {
    /// The node's timers as the broker shows them (its ringing state among them).
    public private(set) var node: NodeRinging
    /// The labels whose availability last said `offline`: a Last Will's (a clean end clears its
    /// availability after its `offline`; a timer that runs says `online`).
    public private(set) var offline: Set<String> = []

    /// An empty picture of the node `topics`.
    /// - Parameter topics: The node's topics.
    public init(topics: NodeTopics) {
        node = NodeRinging(topics: topics)
    }

    /// The node's topics.
    public var topics: NodeTopics { node.topics }

    /// Takes in one message, if it is one of the node's (``NodeRinging/see(topic:payload:)``).
    /// - Parameters:
    ///   - topic: The topic it arrived on.
    ///   - payload: Its payload (empty: a clear).
    /// - Returns: The timer's label when this message is its availability saying `offline` now;
    ///   nil for any other message.
    @discardableResult
    public mutating func see(topic: String, payload: [UInt8]) -> String? {
        // A timer's availability (not the kitchen's or the follower's, which the node's picture leaves out).
        guard node.see(topic: topic, payload: payload),
            let (timer, kind) = TimerTopics.parse(topic, prefix: topics.prefix), kind == "availability"
        else { return nil }
        guard payload == NodeRinging.offline else {
            offline.remove(timer.label)
            return nil
        }
        return offline.insert(timer.label).inserted ? timer.label : nil
    }

    /// The node's ringing state `OFF` when the broker keeps `ON`, or none (issue 45: the
    /// kitchen's `Ringing` entity then says off from the kitchen's start, not unknown until a
    /// first timer), but no timer of the node rings (``NodeRinging/isRinging(excluding:)``: the
    /// last ringing one died, its availability `offline`) and none is online to set it right.
    ///
    /// Nil otherwise: while a timer of the node is online, it keeps the ringing state itself.
    /// Marks `OFF` as seen (the broker's copy follows), so it is said once per change.
    /// - Returns: The message (retained, QoS 1), or nil.
    public mutating func ringingUpdate() -> BusMessage? {
        guard node.online.isEmpty, node.seenRinging != false, !node.isRinging() else { return nil }
        return node.ringingUpdate()
    }

    /// The messages that clear what the dead timer `label` left retained: its discovery configs
    /// removed (first, so that Home Assistant drops its sensors before their state is cleared),
    /// then its state and its availability cleared.
    ///
    /// Only for a label whose availability says `offline` (``offline``): a timer that runs, or
    /// ended cleanly, is left alone. It is no longer ``offline`` after (it is cleared), so a
    /// second call clears nothing.
    /// - Parameter label: The dead timer's label.
    /// - Returns: The messages (retained, QoS 1), in order; none when `label` is not offline.
    public mutating func clear(_ label: String) -> [BusMessage] {
        guard offline.remove(label) != nil else { return [] }
        let timer = TimerTopics(prefix: topics.prefix, node: topics.node, label: label)
        return HomeAssistantDiscovery.removals(for: timer) + [
            BusMessage(topic: timer.state, payload: [], retain: true, qos: 1),
            BusMessage(topic: timer.availability, payload: [], retain: true, qos: 1),
        ]
    }
}
