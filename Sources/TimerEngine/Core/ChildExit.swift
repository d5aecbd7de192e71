/// How a child process ended, as ``Input/childExited(pid:_:)`` carries it: the executable's
/// `ChildWatch` (a pidfd source of the event loop) reaps the child and reports it as this value.
///
/// A plain value; any thread.
package enum ChildExit: Equatable, Sendable {
    /// It exited with this status (0–255).
    case exited(Int32)
    /// This signal ended it.
    case signaled(Int32)
}
