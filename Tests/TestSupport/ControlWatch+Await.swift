public import ControlChannel
public import TimerModel

/// Waits on a timer's watch stream (an event: each status line the timer pushes).
extension ControlWatch {
    /// Reads status lines until one says `state`, the stream ends or `deadline` passes.
    /// - Returns: Whether one said `state`.
    /// - Throws: `ControlError` when the stream breaks.
    public func awaitState(_ state: TimerState, until deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            switch try next(until: deadline) {
            case .line(let line) where TimerStatus(line: line)?.state == state: return true
            case .line: continue
            case .quiet, .ended: return false
            }
        }
    }

    /// Reads status lines until the stream ends (the timer exited, having logged its last event).
    /// - Returns: Whether it ended before `deadline`.
    /// - Throws: `ControlError` when the stream breaks.
    public func awaitEnd(until deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            switch try next(until: deadline) {
            case .line: continue
            case .ended: return true
            case .quiet: return false
            }
        }
    }
}
