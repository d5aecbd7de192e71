/// Why the timer does not carry out a ``Command``.
public enum Refusal: Equatable, Sendable {
    /// The command does not apply in the timer's state (acknowledging a timer that is counting).
    case state
    /// `pause`, `resume` and `add` on an alarm at a time: its deadline is a time of day.
    case alarmAtATime
    /// `pause`, `resume` and `add` on a recovered timer held until the wall clock is set: it has
    /// no time left to pause or move yet.
    case clockNotSet
    /// `add` that would take the time left to zero or below, or past the longest timer.
    case outOfRange
}

extension Command {
    /// The one line that says why this command was refused, whatever front it came through: the
    /// control socket replies with it, MQTT logs it, a key gets nothing.
    ///
    /// Pure; any thread.
    /// - Parameters:
    ///   - reason: Why it was refused.
    ///   - label: The timer's label (`eggtimer` when there is none, in the menu).
    ///   - state: The timer's state; nil in the menu.
    /// - Returns: The line, with no newline: `Soft is counting, not ringing`.
    public func refusal(_ reason: Refusal, label: String, state: TimerState?) -> String {
        let state = state?.rawValue ?? "in the menu"
        switch reason {
        case .alarmAtATime: return "pause/add do not apply to an alarm at a time; snooze or cancel it"
        case .clockNotSet: return "\(label) waits for the clock to be set: nothing to pause or move yet"
        case .outOfRange:
            return "\(label) cannot move by \(seconds ?? 0) s: the time left stays above zero and at most 999:59:59"
        case .state: break
        }
        switch self {
        case .acknowledge, .snooze: return "\(label) is \(state), not ringing"
        case .cancel: return "\(label) is \(state): nothing to cancel"
        case .pause: return "\(label) is \(state), not counting"
        case .resume: return "\(label) is \(state), not paused"
        case .add: return "\(label) is \(state): nothing to move"
        case .status: return "\(label) is \(state)"
        }
    }
}
