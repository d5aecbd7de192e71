import Glibc
import Testing

@testable import SystemKit

@Suite struct SystemThreadTests {
    /// The signals the new thread found blocked, read on that thread.
    private final class Seen: Sendable {
        let blocked = Locked<[Int32]?>(nil)
    }

    private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD, SIGPIPE, SIGALRM]

    private static func blockedSignals() -> [Int32] {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        return signals.filter { sigismember(&mask, $0) == 1 }
    }

    @Test func theThreadStartsWithEverySignalBlockedAndTheCallersMaskIsKept() throws {
        let before = Self.blockedSignals()
        let seen = Seen()
        let thread = try SystemThread.start { seen.blocked.withLock { $0 = Self.blockedSignals() } }.get()
        thread.join()
        #expect(seen.blocked.withLock { $0 } == Self.signals)
        #expect(Self.blockedSignals() == before)
    }

    /// A wake pipe a thread can ring.
    private final class Bell: Sendable {
        let pipe = WakePipe()
    }

    @Test func aDetachedThreadRunsWithEverySignalBlocked() {
        let bell = Bell()
        let seen = Seen()
        let failure = SystemThread.startDetached {
            seen.blocked.withLock { $0 = Self.blockedSignals() }
            bell.pipe.ring()
        }
        #expect(failure == nil)
        var entry = pollfd(fd: bell.pipe.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 10_000) == 1, "the detached thread never rang")
        #expect(seen.blocked.withLock { $0 } == Self.signals)
    }
}
