import SystemKit
import TimerModel

/// The node's timers summed up for the kitchen's stable Home Assistant entities (issue 45): how
/// many run, which is due next, whether one rings, whether one rings on no device and why.
///
/// Fed every message on the node's timers' states and availabilities (``see(topic:payload:)``),
/// as ``NodeRinging`` is; a timer whose availability says `offline` or was cleared (a Last Will,
/// a clean end) counts no more. The kitchen, which always runs, publishes ``message`` retained on
/// ``NodeTopics/kitchenSummary`` when it changes, so its entities stay between timers (a timer's
/// come and go with it). A value type; pure; any thread.
public struct NodeSummary: Sendable, Equatable {
    /// The node's topics.
    public let topics: NodeTopics
    /// The last state each timer's state topic held, by label (absent: none, cleared, unreadable).
    public private(set) var states: [String: TimerStatePayload] = [:]
    /// The labels whose availability is `offline` or cleared.
    public private(set) var gone: Set<String> = []

    /// An empty summary of the node `topics`: nothing runs.
    /// - Parameter topics: The node's topics.
    public init(topics: NodeTopics) {
        self.topics = topics
    }

    /// Takes in one message, if it is a timer's state or availability on this node.
    /// - Parameters:
    ///   - topic: The topic it arrived on.
    ///   - payload: Its payload (empty: a clear).
    /// - Returns: Whether it was one (the follower's and the kitchen's availability are not).
    @discardableResult
    public mutating func see(topic: String, payload: [UInt8]) -> Bool {
        guard let (timer, kind) = TimerTopics.parse(topic, prefix: topics.prefix), timer.node == topics.node else {
            return false
        }
        switch kind {
        case "state":
            states[timer.label] = payload.isEmpty ? nil : TimerStatePayload.parse(payload)
        case "availability" where timer.label != "follow" && timer.label != NodeTopics.kitchenLabel:
            if payload == Array("online".utf8) { gone.remove(timer.label) } else { gone.insert(timer.label) }
        default:
            return false
        }
        return true
    }

    /// The states of the timers that count, in label order: not gone, not in the menu, not ended.
    public var running: [TimerStatePayload] {
        states.filter { !gone.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value).filter { state in
            guard let word = TimerState(rawValue: state.state) else { return false }
            return word != .menu && !word.isFinal
        }
    }

    /// The running timer that rings next: the earliest deadline of those counting or snoozed
    /// (one that rings is due already; a paused one has none), the first label on a tie.
    public var nextDue: TimerStatePayload? {
        let waiting = running.filter { $0.state == "counting" || $0.state == "snoozed" }
        return
            waiting
            .compactMap { state in state.deadlineUnixMilliseconds.map { (state, $0) } }
            .min { $0.1 < $1.1 }?.0
    }

    /// Whether a running timer rings (`ringing`, or `silent`: only the bell reaches anyone).
    public var isRinging: Bool {
        running.contains { TimerState(rawValue: $0.state)?.isRinging == true }
    }

    /// The first running timer (label order) whose alarm reaches no device (`silent`), if any.
    public var silent: TimerStatePayload? {
        running.first { $0.state == "silent" }
    }

    /// The summary as JSON: `running` (how many), `next_due` (the deadline, UTC ISO 8601, or
    /// null), `next_label`, `ringing`, `silent` (bools), `silent_label` and `silent_reason` (the
    /// silent timer's `silent` text; null when none).
    public var jsonValue: JSONValue {
        let next = nextDue
        let silent = silent
        return .object([
            JSONMember("running", .number(Double(running.count))),
            JSONMember(
                "next_due",
                next?.deadlineUnixMilliseconds.map { .string(UTCTimestamp.text(unixMilliseconds: $0)) } ?? .null),
            JSONMember("next_label", next.map { .string($0.label) } ?? .null),
            JSONMember("ringing", .bool(isRinging)),
            JSONMember("silent", .bool(silent != nil)),
            JSONMember("silent_label", silent.map { .string($0.label) } ?? .null),
            JSONMember("silent_reason", silent.map { .string($0.silent ?? "no device") } ?? .null),
        ])
    }

    /// The summary as the kitchen publishes it: ``jsonValue`` on ``NodeTopics/kitchenSummary``,
    /// retained, QoS 1 (the kitchen's client sends it again after a reconnect: only the one
    /// kitchen that holds the node's starts publishes it).
    public var message: BusMessage {
        BusMessage(topic: topics.kitchenSummary, payload: jsonValue.json(), retain: true, qos: 1)
    }
}
