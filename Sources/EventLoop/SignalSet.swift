import Glibc
package import SystemKit

/// The signals the app handles, blocked for every thread and read from a `signalfd` in the same
/// poll set as the keyboard, so a signal is handled by the event loop like a key (never in an
/// async signal handler) and the terminal is always restored.
///
/// Create it on the main thread before starting any other thread: threads inherit the mask.
/// The descriptor is owned by this value and closed by `close()`.
package final class SignalSet {
    /// The signals read from the descriptor.
    package static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT, SIGUSR1]
    /// The readable descriptor (nonblocking, close-on-exec); closed by ``close()``.
    package let descriptor: Int32

    /// Blocks the handled signals, ignores SIGPIPE (a broken pipe becomes EPIPE), and opens the
    /// signalfd.
    ///
    /// A signal that was ignored when eggtimer started (SIGHUP under `nohup`, SIGINT under
    /// `trap '' INT`) stays ignored: a blocked signal would be delivered to the signalfd even so
    /// (PLATFORM-NOTES), and a timer started with nohup must survive its terminal closing.
    /// - Returns: nil if the kernel refuses the signalfd (then signals keep their defaults).
    /// C: `sigaction`, `pthread_sigmask`, `signalfd` (``FileDescriptor/signals(_:nonBlocking:)``).
    package init?() {
        let signals = Self.handled.filter { !Self.isIgnored($0) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        signal(SIGPIPE, SIG_IGN)
        guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { return nil }
        guard let descriptor = try? FileDescriptor.signals(signals, nonBlocking: true) else {
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
            return nil
        }
        self.descriptor = descriptor.release()
    }

    /// Whether `signal`'s disposition is SIG_IGN, as inherited from the parent.
    package static func isIgnored(_ signal: Int32) -> Bool {
        var action = sigaction()
        guard sigaction(signal, nil, &action) == 0 else { return false }
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Reads every pending signal number; never blocks.
    package func drain() -> [Int32] {
        var signals: [Int32] = []
        while let signal = readSignal(from: descriptor) { signals.append(signal) }
        return signals
    }

    /// Stops the process as the default SIGTSTP action would (after the caller restored the
    /// terminal); returns once continued (`fg` or SIGCONT).
    package func suspendProcess() {
        kill(getpid(), SIGSTOP)
    }

    /// Closes the descriptor.
    ///
    /// The mask stays: the process is about to exit.
    package func close() { _ = Glibc.close(descriptor) }
}
