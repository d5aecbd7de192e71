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
    /// A request on the control socket that names no front: a client older than the control
    /// protocol's version 4 (``shell`` and the kitchen's fronts name themselves).
    case control
    /// A message on the timer's MQTT command topic, or the kitchen's MQTT side.
    case mqtt
    /// A shell's command (`eggtimer ack` from another shell), on the control socket.
    case shell
    /// The kitchen's HTTP API (the phone page), through the timer's control socket.
    case http
    /// The kitchen's keypad, through the timer's control socket.
    case keypad
    /// The kitchen's voice (a spoken answer), through the timer's control socket.
    case voice

    /// The origins a control-socket peer may name (protocol version 4's `by=`): the fronts
    /// that reach a timer through its socket, and MQTT through the kitchen.
    public static let named: [Origin] = [.shell, .http, .keypad, .voice, .mqtt]
}

extension Command {
    /// The longest move ``add(_:)`` takes from outside, either way: a day.
    public static let addLimit: Duration = .seconds(86_400)
    /// The longest snooze a front may ask for: 999 hours.
    public static let snoozeLimit: Duration = .seconds(999 * 3600)

    /// The command's word, as the control socket and MQTT payloads spell it: `status`, `ack`,
    /// `cancel`, `snooze`, `pause`, `resume`, `add`.
    public var verb: String {
        switch self {
        case .status: "status"
        case .acknowledge: "ack"
        case .cancel: "cancel"
        case .snooze: "snooze"
        case .pause: "pause"
        case .resume: "resume"
        case .add: "add"
        }
    }

    /// The command's argument in whole seconds (rounded toward zero): the snooze's length when
    /// one is given, the amount of an `add`; nil for the others.
    public var seconds: Int64? {
        switch self {
        case .snooze(let length?): length.components.seconds
        case .add(let delta): delta.components.seconds
        case .status, .acknowledge, .cancel, .snooze(nil), .pause, .resume: nil
        }
    }

    /// The command as one line of words: the verb, then the seconds if any (`add -60`).
    public var text: String { seconds.map { "\(verb) \($0)" } ?? verb }
}
