/// The states a timer can be in, named as `status`, the JSON log and (later) MQTT say them.
///
/// One vocabulary for every front: the controller derives the current one, the exit status
/// follows the final one.
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

    /// Whether the alarm is sounding: ``ringing`` on a device, or ``silent`` on none.
    public var isRinging: Bool { self == .ringing || self == .silent }

    /// Whether the timer is over.
    public var isFinal: Bool { self == .done || self == .cancelled || self == .missed }
}
