import EventLoop
import Glibc
import Testing
import TimerText

/// The wall-clock timer as the session drives it: armed when its deadline is handed over, and
/// not again for the same deadline (issue 23: the session hands it over only when it changes).
@Suite struct WallTimerTests {
    /// Whether `timer`'s descriptor is readable now (poll, no wait).
    private func readable(_ timer: WallTimer) -> Bool {
        var request = pollfd(fd: timer.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) == 1
    }

    /// A wall instant an hour before now: a deadline already passed, which fires at once.
    private var anHourAgo: WallInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallInstant(unixSeconds: Int64(spec.tv_sec) - 3600)
    }

    @Test func aHandedOverDeadlineArmsItAndTheSameOneAgainDoesNot() throws {
        let timer = try #require(WallTimer())
        #expect(timer.pollRequests.isEmpty, "no deadline: not polled")
        #expect(fcntl(timer.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        let passed = anHourAgo
        timer.deadline = passed
        #expect(timer.pollRequests.map(\.descriptor) == [timer.descriptor])
        #expect(readable(timer))
        #expect(timer.read() == .fired)
        #expect(!readable(timer))
        timer.deadline = passed
        #expect(!readable(timer), "the same deadline again arms nothing")
        timer.deadline = WallInstant(unixNanoseconds: passed.unixNanoseconds + 1_000_000)
        #expect(readable(timer), "a new deadline is armed")
        #expect(timer.read() == .fired)
        timer.deadline = nil
        #expect(timer.pollRequests.isEmpty)
    }
}
