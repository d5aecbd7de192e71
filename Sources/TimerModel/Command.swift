/// What a person asks of a timer, whichever front it came through: the one vocabulary the
/// controller acts on.
///
/// Keys, signals, control socket lines and MQTT payloads (and, later, a keypad's key codes and
/// HTTP requests) are each parsed into a `Command` with its ``Origin``; the controller never acts
/// on a front's raw input. A plain value: any thread.
public enum Command: Equatable, Sendable {
    /// Report the timer's state (answered with a snapshot; MQTT republishes the state).
    case status
    /// Stop the ringing alarm (or dismiss a snoozed one).
    case acknowledge
    /// End the timer.
    case cancel
    /// Silence the alarm and ring again after this long (nil: the timer's default).
    case snooze(Duration?)
    /// Freeze the time left.
    case pause
    /// Count on from where it was paused.
    case resume
    /// Move the deadline by this much (negative: earlier); the time left stays above zero.
    case add(Duration)
}

/// Where a ``Command`` came from, as the log's `by` field says it.
public enum Origin: String, Equatable, Sendable, CaseIterable {
    /// A key on the terminal (or piped in).
    case key
    /// A signal (SIGUSR1 acknowledges).
    case signal
    /// A request on the control socket (`eggtimer ack` from another shell).
    case control
    /// A message on the timer's MQTT command topic.
    case mqtt
}
