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

    /// The time left as of the wall clock `now` of a timer in this state whose status said
    /// `remaining` and `deadline`: a counting or snoozed timer's status is stale a second after it
    /// was sent (a watch sends none while only the time left changes), its deadline is not.
    ///
    /// Never more than `remaining` (a wall clock stepped back cannot add time), never below zero;
    /// `remaining` for other states (a paused timer's is frozen), without a deadline, or where the
    /// subtraction would overflow (a deadline from MQTT is any Int64). Pure; the one rule of the
    /// page, the API and the kitchen's spoken and keypad reports.
    /// - Parameters:
    ///   - remaining: The time left the status said.
    ///   - deadline: Its wall deadline, Unix milliseconds, or nil.
    ///   - now: The wall clock now, Unix milliseconds.
    /// - Returns: The time left now.
    public func timeLeft(remaining: Duration, deadlineUnixMilliseconds deadline: Int64?, atWall now: Int64) -> Duration
    {
        guard self == .counting || self == .snoozed, let deadline else { return remaining }
        let (left, overflow) = deadline.subtractingReportingOverflow(now)
        guard !overflow else { return remaining }
        return min(remaining, .milliseconds(max(0, left)))
    }
}
