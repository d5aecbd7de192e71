package import Glibc
package import SystemKit

/// A child process's exit as a source of the event loop, through its pidfd.
///
/// The child is reaped without SIGCHLD and without blocking, and its end becomes the `Event`
/// its creator chose (the timer's `--on-done`: `.doneCommandEnded`). Finished once reaped.
///
/// Without a pidfd (a kernel before 5.3) the child is looked at every ``fallbackPeriod``.
/// Owned by the event loop's thread; not thread-safe.
package final class ChildWatch<Event>: LoopSource {
    /// How a child ended (SystemKit's `ChildExit`, which the timer's `Input` carries).
    package typealias Exit = ChildExit

    /// How often a child without a pidfd is looked at.
    package static var fallbackPeriod: Duration { .milliseconds(10) }

    /// The child's process id.
    package let pid: pid_t
    /// Readable once the child has exited (close-on-exec); -1 if the kernel gave none.
    private var descriptor: Int32
    private let ended: (Exit) -> Event
    /// When a child without a pidfd is looked at next.
    private var fallbackCheck: ContinuousClock.Instant?
    /// How the child ended, once reaped.
    package private(set) var exit: Exit?

    /// Watches `pid`, a child of this process.
    /// - Parameters:
    ///   - pid: The child's process id.
    ///   - now: The boot clock now (for the fallback without a pidfd).
    ///   - ended: The event its end becomes.
    /// C: `pidfd_open`.
    package init(pid: pid_t, at now: ContinuousClock.Instant = .now, ended: @escaping (Exit) -> Event) {
        self.pid = pid
        self.ended = ended
        descriptor = (try? FileDescriptor.process(pid))?.release() ?? -1
        if descriptor < 0 { fallbackCheck = now }
    }

    deinit { if descriptor >= 0 { _ = close(descriptor) } }

    /// Whether the child was reaped.
    package var isFinished: Bool { exit != nil }

    /// The pidfd until the child is reaped.
    package var pollRequests: [PollRequest] {
        descriptor >= 0 && exit == nil ? [PollRequest(descriptor: descriptor, events: Int16(POLLIN))] : []
    }

    /// Without a pidfd: the next look.
    package var nextCheck: ContinuousClock.Instant? { exit == nil ? fallbackCheck : nil }

    /// Reaps the child if it has exited and says how it ended.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into events: inout [Event]) {
        guard exit == nil else { return }
        guard let exit = reap() else {
            if fallbackCheck != nil { fallbackCheck = now.advanced(by: Self.fallbackPeriod) }
            return
        }
        self.exit = exit
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
        events.append(ended(exit))
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
