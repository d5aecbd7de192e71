/// The states a timer can be in, named as `status`, the control socket, the record and MQTT say
/// them.
///
/// One vocabulary for every front: the controller derives the current one (in its
/// ``TimerSnapshot``), the exit status follows the final one. The man page's and docs/DESIGN.md's
/// list of states is made from ``summary``, so the words and their meanings cannot drift.
public enum TimerState: String, Sendable, CaseIterable {
    /// No timer runs yet: the egg menu waits for a pick (a process started without a time).
    case menu
    /// Counting down towards its deadline.
    case counting
    /// Paused: the time left is frozen.
    case paused
    /// The deadline passed and the alarm is sounding on a device.
    case ringing
    /// The deadline passed and the alarm reaches no device: the terminal bell rings instead.
    case silent
    /// The alarm was snoozed and rings again later.
    case snoozed
    /// Acknowledged, or its `--loops` played.
    case done
    /// Cancelled, or quit before it was done.
    case cancelled
    /// Stopped ringing without being acknowledged.
    case missed

    /// What the state means, in one line for the documents (lower case, no final full stop).
    public var summary: String {
        switch self {
        case .menu: "no timer runs yet: the egg menu waits for a pick"
        case .counting: "counting down towards its deadline"
        case .paused: "paused: the time left is frozen"
        case .ringing: "the deadline passed and the alarm sounds on a device"
        case .silent: "the deadline passed and the alarm reaches no device: the terminal bell rings instead"
        case .snoozed: "the alarm was snoozed and rings again later"
        case .done: "acknowledged, or its --loops played"
        case .cancelled: "cancelled, or quit before it was done"
        case .missed: "stopped ringing without being acknowledged"
        }
    }

    /// Whether the alarm is sounding: ``ringing`` on a device, or ``silent`` on none.
    public var isRinging: Bool { self == .ringing || self == .silent }

    /// Whether "acknowledge all" stops a timer in this state: ringing, silent or snoozed.
    ///
    /// The one rule for every front (the kitchen's key and page, `POST /api/ack-all`, `ack --all`,
    /// the node's MQTT `ack-all`): everything that rings or would ring again unasked is stopped,
    /// so that after the press nothing rings until a timer is started again.
    public var isCoveredByAcknowledgeAll: Bool { isRinging || self == .snoozed }

    /// Whether the timer is over.
    public var isFinal: Bool { self == .done || self == .cancelled || self == .missed }
}
