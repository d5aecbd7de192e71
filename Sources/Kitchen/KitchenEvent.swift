import HouseBus
import TextCoding
import TimerModel

/// One event of the kitchen's Home Assistant `event` entity (issue 45).
///
/// Fired from what the kitchen already knows: its core's answers to starts (``answer(_:origin:)``) and its followed
/// timers' state changes (``transition(from:to:label:)``). Published on
/// ``NodeTopics/kitchenEvent``, not retained (``KitchenBus/event(_:)``). A plain value; pure.
struct KitchenEvent: Equatable, Sendable {
    /// The event types, as Home Assistant's `event_types` lists them.
    enum Kind: String, CaseIterable, Sendable {
        /// A start was answered with a timer that runs.
        case started
        /// A timer's countdown reached its deadline: it began to ring (or only the bell did).
        case finished
        /// A timer stopped ringing without being acknowledged.
        case missed
        /// A ringing, silent or snoozed timer was acknowledged (its state `done`).
        case acknowledged
        /// A start was refused: ``KitchenEvent/reason`` says why.
        case refused
    }

    /// What happened.
    var kind: Kind
    /// The timer's label (nil: a refusal that names none).
    var label: String?
    /// Why a start was refused (its one line), for ``Kind/refused``.
    var reason: String?
    /// The refused request's id, when it carried one (an MQTT start: Home Assistant's presses do).
    var requestID: String?

    /// The event a followed timer's change of state from `previous` to `state` fires, if any.
    ///
    /// Only a change seen whole (a timer followed already: `previous` not nil): into `ringing`
    /// or `silent` from a state that does not ring is ``Kind/finished``; into `done` from
    /// `ringing`, `silent` or `snoozed` is ``Kind/acknowledged``; into `missed` is ``Kind/missed``.
    /// - Parameters:
    ///   - previous: The state the kitchen last saw, or nil for a timer it just began to follow.
    ///   - state: The state now.
    ///   - label: The timer's label.
    /// - Returns: The event, or nil.
    static func transition(from previous: TimerState?, to state: TimerState, label: String) -> KitchenEvent? {
        guard let previous, previous != state else { return nil }
        switch state {
        case .ringing, .silent:
            return previous.isRinging ? nil : KitchenEvent(kind: .finished, label: label)
        case .done:
            return previous.isCoveredByAcknowledgeAll ? KitchenEvent(kind: .acknowledged, label: label) : nil
        case .missed:
            return KitchenEvent(kind: .missed, label: label)
        default:
            return nil
        }
    }

    /// The event of a start's answer: ``Kind/started`` with the timer's label, or
    /// ``Kind/refused`` with the label it was for (if any), its line and the asker's id (an MQTT
    /// start's).
    /// - Parameters:
    ///   - outcome: How the start went.
    ///   - origin: Who asked.
    /// - Returns: The event.
    static func answer(_ outcome: KitchenCore.Outcome, origin: KitchenCore.Origin) -> KitchenEvent {
        switch outcome {
        case .started(let status): return KitchenEvent(kind: .started, label: status.label)
        case .refused(let refusal):
            var id: String?
            if case .bus(let requestID) = origin { id = requestID?.text }
            return KitchenEvent(kind: .refused, label: refusal.label, reason: refusal.text, requestID: id)
        }
    }

    /// The payload Home Assistant's MQTT event platform reads: `event_type`, then `label` and, for
    /// a refusal, `reason` and `request_id` (null when none), which become the event's attributes.
    var json: [UInt8] {
        var json = JSONText()
        json.object { json in
            json.member("event_type", kind.rawValue)
            json.member("label", orNull: label)
            if kind == .refused {
                json.member("reason", orNull: reason)
                json.member("request_id", orNull: requestID)
            }
        }
        return json.bytes
    }
}
