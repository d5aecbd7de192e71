import Glibc
import SystemKit
import TimerEngine

/// A child process's exit as a source of the event loop, through its pidfd.
///
/// The child is reaped without SIGCHLD and without blocking, and its end becomes the ``Input``
/// its creator chose (`--on-done`'s `.doneCommandEnded`). Finished once reaped.
///
/// Without a pidfd (a kernel before 5.3) the child is looked at every ``fallbackPeriod``.
/// Owned by the event loop's thread; not thread-safe.
final class ChildWatch: LoopSource {
    /// How a child ended (``ChildExit``, the engine's: it is a case of ``Input``).
    typealias Exit = ChildExit

    /// How often a child without a pidfd is looked at.
    static let fallbackPeriod: Duration = .milliseconds(10)

    /// The child's process id.
    let pid: pid_t
    /// Readable once the child has exited (close-on-exec); -1 if the kernel gave none.
    private var descriptor: Int32
    private let ended: (Exit) -> Input
    /// When a child without a pidfd is looked at next.
    private var fallbackCheck: ContinuousClock.Instant?
    /// How the child ended, once reaped.
    private(set) var exit: Exit?

    /// Watches `pid`, a child of this process.
    /// - Parameters:
    ///   - pid: The child's process id.
    ///   - now: The boot clock now (for the fallback without a pidfd).
    ///   - ended: The input its end becomes.
    /// C: `pidfd_open`.
    init(pid: pid_t, at now: ContinuousClock.Instant = .now, ended: @escaping (Exit) -> Input) {
        self.pid = pid
        self.ended = ended
        descriptor = (try? FileDescriptor.process(pid))?.release() ?? -1
        if descriptor < 0 { fallbackCheck = now }
    }

    deinit { if descriptor >= 0 { _ = close(descriptor) } }

    /// Whether the child was reaped.
    var isFinished: Bool { exit != nil }

    /// The pidfd until the child is reaped.
    var pollRequests: [PollRequest] {
        descriptor >= 0 && exit == nil ? [PollRequest(descriptor: descriptor, events: Int16(POLLIN))] : []
    }

    /// Without a pidfd: the next look.
    var nextCheck: ContinuousClock.Instant? { exit == nil ? fallbackCheck : nil }

    /// Reaps the child if it has exited and says how it ended.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        guard exit == nil else { return }
        guard let exit = reap() else {
            if fallbackCheck != nil { fallbackCheck = now.advanced(by: Self.fallbackPeriod) }
            return
        }
        self.exit = exit
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
        inputs.append(ended(exit))
    }

    /// Collects the child's exit status once it has exited; never blocks.
    /// - Returns: nil while it still runs; else how it ended.
    /// C: `waitpid` with `WNOHANG`.
    private func reap() -> Exit? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }
}
