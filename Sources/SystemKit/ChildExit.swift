/// How a child process ended: `ChildWatch` (EventLoop's pidfd source) reaps the child and reports
/// it as this value, and the timer engine's `Input.childExited(pid:_:)` carries it.
///
/// A plain value; any thread.
public enum ChildExit: Equatable, Sendable {
    /// It exited with this status (0–255).
    case exited(Int32)
    /// This signal ended it.
    case signaled(Int32)
}
