import TimerModel

/// What the timers of one node say on the broker, as every timer of the node sees it: the
/// retained states and availabilities on `prefix/node/+/state` and `…/availability`, and the
/// node's retained ringing state.
///
/// Every timer of the node keeps one, and one of them, the keeper (``keeps(_:)``: the online
/// timer whose label sorts first), publishes the node's ringing state when the aggregate it
/// computes (``isRinging(excluding:)``) differs from the retained one it last saw
/// (``seenRinging``): all of them see the same retained messages, so they agree on the keeper
/// without talking to each other, no single process must stay alive (the next one keeps it
/// when the keeper goes), and each change is said once (issue 45: every timer used to say it,
/// 3 to 6 times a change). The message is not replayed by the client after a reconnect
/// (``BusMessage/replay``): a stale copy of a timer that was the keeper once would undo the
/// current one; the keeper works it out again once it knows what the broker kept
/// (``forgetRinging()``). A value type; pure; any thread.
public struct NodeRinging: Sendable, Equatable {
    /// The node's topics.
    public let topics: NodeTopics
    /// The last state word each timer's state topic held, by label (absent: none, or cleared).
    public private(set) var states: [String: String] = [:]
    /// The labels whose availability is `offline` or cleared (a Last Will, a clean end).
    public private(set) var gone: Set<String> = []
    /// The labels whose availability is `online`.
    public private(set) var online: Set<String> = []
    /// The node's retained ringing state last seen (nil: none yet, or cleared).
    public private(set) var seenRinging: Bool?

    /// An empty picture of the node `topics`.
    /// - Parameter topics: The node's topics.
    public init(topics: NodeTopics) {
        self.topics = topics
    }

    /// Takes in one message, if it is one of the node's.
    /// - Parameters:
    ///   - topic: The topic it arrived on.
    ///   - payload: Its payload (empty: a clear).
    /// - Returns: Whether it was one of the node's (a timer's state or availability on this node,
    ///   or the node's ringing state).
    @discardableResult
    public mutating func see(topic: String, payload: [UInt8]) -> Bool {
        if topic == topics.ringing {
            seenRinging = payload == Self.on ? true : payload == Self.off ? false : nil
            return true
        }
        guard let (timer, kind) = TimerTopics.parse(topic, prefix: topics.prefix), timer.node == topics.node else {
            return false
        }
        switch kind {
        case "state":
            states[timer.label] = payload.isEmpty ? nil : TimerStatePayload.parse(payload)?.state
        // `follow`'s and the kitchen's own, not a timer's.
        case "availability" where timer.label != "follow" && timer.label != NodeTopics.kitchenLabel:
            let isOnline = payload == Array("online".utf8)
            if isOnline { gone.remove(timer.label) } else { gone.insert(timer.label) }
            if isOnline { online.insert(timer.label) } else { online.remove(timer.label) }
        default:
            return false
        }
        return true
    }

    /// The labels an "acknowledge all" press, taken in by ``press(applyingTo:)``, reached while
    /// they rang or were snoozed: every one of them got the same press and ends acknowledged.
    public private(set) var acknowledged: Set<String> = []

    /// Whether a timer of the node rings: one of the states seen is `ringing` or `silent` (the
    /// alarm sounds, or only the bell reaches anyone) and its availability is not `offline` or
    /// cleared (a crashed timer's Last Will leaves its last state behind).
    /// - Parameter labels: Timers to leave out (ending now), if any.
    /// - Returns: The aggregate.
    public func isRinging(excluding labels: Set<String> = []) -> Bool {
        states.contains { entry in
            !labels.contains(entry.key) && !gone.contains(entry.key) && Self.rings(entry.value)
        }
    }

    /// Whether the timer `label` keeps the node's ringing state: no timer of the node that says
    /// it is `online` has a label that sorts before it (Swift's `<` on strings, the same on every
    /// machine).
    /// - Parameter label: The asking timer's label.
    /// - Returns: Whether it publishes the node's ringing state.
    public func keeps(_ label: String) -> Bool {
        !online.contains { $0 < label }
    }

    /// Forgets the ringing state seen (the client reconnected: the broker may have lost its
    /// retained copy in a restart), so that ``ringingUpdate(excluding:)`` says it again unless the
    /// broker's copy comes back first.
    public mutating func forgetRinging() {
        seenRinging = nil
    }

    /// Whether another timer than `label` of the node says it is `online`.
    /// - Parameter label: The asking timer's label.
    /// - Returns: Whether one does (then the node's availability stays `online`).
    public func othersOnline(excluding label: String) -> Bool {
        online.contains { $0 != label }
    }

    /// The retained ringing state to publish, when the aggregate differs from the one last seen.
    ///
    /// Marks it as seen (the broker's copy follows), so a timer asks once per change.
    /// - Parameter labels: Timers to leave out (ending now), if any.
    /// - Returns: The message (`ON` or `OFF`, retained, QoS 1, not replayed after a reconnect),
    ///   or nil when the broker has it.
    public mutating func ringingUpdate(excluding labels: Set<String> = []) -> BusMessage? {
        let ringing = isRinging(excluding: labels)
        guard seenRinging != ringing else { return nil }
        seenRinging = ringing
        return Self.message(ringing, on: topics)
    }

    /// The node's ringing state as published: `ON` or `OFF` on ``NodeTopics/ringing``, retained,
    /// QoS 1, not replayed by the client after a reconnect (``BusMessage/replay``).
    /// - Parameters:
    ///   - ringing: Whether a timer of the node rings.
    ///   - topics: The node's topics.
    /// - Returns: The message.
    public static func message(_ ringing: Bool, on topics: NodeTopics) -> BusMessage {
        var message = BusMessage(topic: topics.ringing, payload: ringing ? on : off, retain: true, qos: 1)
        message.replay = false
        return message
    }

    /// The last messages of the timer `label` ending cleanly: when it keeps the node's ringing
    /// state (``keeps(_:)``), that state without it (and without the timers an "acknowledge all"
    /// press ended along with it, whose clears may not have arrived yet; the next keeper saw its
    /// state change before its availability goes, and says nothing again), and the node's
    /// availability `offline` when no other timer of the node is `online`.
    /// - Parameter label: The ending timer's label.
    /// - Returns: The messages (retained, QoS 1), possibly none.
    public func leaving(_ label: String) -> [BusMessage] {
        var node = self
        var messages: [BusMessage] = []
        if keeps(label), let ringing = node.ringingUpdate(excluding: acknowledged.union([label])) {
            messages.append(ringing)
        }
        if !othersOnline(excluding: label) {
            messages.append(BusMessage(topic: topics.availability, payload: Self.offline, retain: true, qos: 1))
        }
        return messages
    }

    /// Takes in an "acknowledge all" press (not a retained one: a press is an event) for the timer
    /// in `state`.
    ///
    /// Notes the labels it reaches (``acknowledged``), the timer's own included.
    /// - Parameter state: The receiving timer's state word.
    /// - Returns: Whether the press applies to it (``pressApplies(to:)``): acknowledge then.
    public mutating func press(applyingTo state: String) -> Bool {
        acknowledged.formUnion(states.filter { Self.pressApplies(to: $0.value) }.keys)
        return Self.pressApplies(to: state)
    }

    /// Whether an "acknowledge all" press applies to a timer in `state`.
    ///
    /// The shared rule (``TimerState/isCoveredByAcknowledgeAll``): while the timer rings (or only
    /// the bell does) or is snoozed; every other state ignores it (nothing to acknowledge).
    /// - Parameter state: The timer's state word.
    /// - Returns: Whether to acknowledge.
    public static func pressApplies(to state: String) -> Bool {
        TimerState(rawValue: state)?.isCoveredByAcknowledgeAll ?? false
    }

    /// Whether a state word is a ringing one (`ringing`, `silent`).
    static func rings(_ state: String) -> Bool { state == "ringing" || state == "silent" }

    /// The payload `ON`.
    public static let on = Array("ON".utf8)
    /// The payload `OFF`.
    public static let off = Array("OFF".utf8)
    /// The payload `offline`.
    static let offline = Array("offline".utf8)
}
