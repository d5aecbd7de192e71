/// The MQTT topics of a node (a machine or room) as a whole: `<prefix>/<node>/<kind>`.
///
/// Two levels after the prefix, where a timer's topics (``TimerTopics``) have three: no label can
/// make a timer topic equal to one of these. The node is escaped by ``TimerTopics/level(_:)``.
/// Pure; any thread.
public struct NodeTopics: Sendable, Equatable {
    /// The first topic levels, `eggtimer` by default (may hold `/`).
    public var prefix: String
    /// The machine or room, for example the host name.
    public var node: String

    /// Creates the topics of one node.
    /// - Parameters:
    ///   - prefix: The topic prefix, for example `eggtimer`.
    ///   - node: The node name (escaped by ``TimerTopics/level(_:)`` in the topics).
    public init(prefix: String = "eggtimer", node: String) {
        self.prefix = prefix
        self.node = node
    }

    /// The node topics beside a timer's: its prefix and node.
    /// - Parameter timer: One timer's topics.
    public init(of timer: TimerTopics) {
        self.init(prefix: timer.prefix, node: timer.node)
    }

    /// `prefix/node/` with the node escaped.
    private var base: String { "\(prefix)/\(TimerTopics.level(node))/" }
    /// The retained `ON`/`OFF`: whether a timer of the node rings (``NodeRinging``).
    public var ringing: String { base + "ringing" }
    /// Where the "acknowledge all" button sends `ack`: every timer of the node acknowledges itself.
    public var ackAll: String { base + "ack-all" }
    /// The retained availability of the node's entities (`online`, `offline`).
    public var availability: String { base + "availability" }
    /// The filter of every timer's state on the node: `prefix/node/+/state`.
    public var timerStates: String { base + "+/state" }
    /// The filter of every timer's availability on the node: `prefix/node/+/availability`.
    public var timerAvailabilities: String { base + "+/availability" }
    /// Where the node's kitchen (`eggtimer kitchen`) takes starts: `prefix/node/start`, payload a
    /// preset or a duration and a label (`soft`, `7m30s pasta`); not retained.
    public var start: String { base + "start" }
    /// The kitchen's own retained availability (`online`, `offline`; its Last Will `offline`):
    /// `prefix/node/kitchen/availability`, a timer's availability topic for the label
    /// ``kitchenLabel``, which is therefore no timer's.
    public var kitchenAvailability: String { base + "\(Self.kitchenLabel)/availability" }
    /// Where the node's kitchen answers every start it got on ``start`` (started or refused,
    /// with the request's id): `prefix/node/kitchen/result`, JSON, QoS 1, not retained.
    public var kitchenResult: String { base + "\(Self.kitchenLabel)/result" }
    /// The kitchen's retained summary of the node's timers (``NodeSummary``: how many run, the
    /// next due, ringing, silent), which its stable Home Assistant entities read:
    /// `prefix/node/kitchen/summary`, JSON, published when it changes.
    public var kitchenSummary: String { base + "\(Self.kitchenLabel)/summary" }
    /// The kitchen's events for Home Assistant's `event` entity (started, finished, missed,
    /// acknowledged, refused): `prefix/node/kitchen/event`, JSON, QoS 1, not retained.
    public var kitchenEvent: String { base + "\(Self.kitchenLabel)/event" }
    /// The retained id of the kitchen that takes the node's starts (one kitchen per node):
    /// `prefix/node/kitchen/instance`, its random instance id as text.
    public var kitchenInstance: String { base + "\(Self.kitchenLabel)/instance" }

    /// The label reserved for the kitchen's availability (``kitchenAvailability``): no timer on a
    /// broker may take it, as none may take `follow`, the follower's.
    public static let kitchenLabel = "kitchen"
}
