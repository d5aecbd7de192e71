import Glibc
import SystemKit

/// The playback loop's view of time: where it reads the clock and how it sleeps.
///
/// Tests inject a fake that advances at once, so backoff and pacing are checked without waiting.
protocol PlaybackTimer: Sendable {
    /// The current instant.
    func now() -> ContinuousClock.Instant

    /// Blocks the calling thread until `deadline`, returning early as soon as a stop is requested
    /// on `control`.
    /// - Parameters:
    ///   - deadline: When to return; in the past returns at once.
    ///   - control: Whose stop request and wake pipe end the sleep early.
    func sleep(until deadline: ContinuousClock.Instant, control: PlaybackControl)
}

/// The real clock (`ContinuousClock`, CLOCK_BOOTTIME) and real sleeps on that same clock.
///
/// Polls the wake pipe together with a timerfd on CLOCK_BOOTTIME armed for about 1 ms before the
/// deadline (a stop request writes the pipe and ends it at once), then sleeps the last
/// millisecond or two precisely with `clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME)`. So waiting
/// 1.5 s for the alarm's start instant costs two or three wake-ups, the first frame still goes
/// out within a fraction of a millisecond of the deadline, and a machine suspended across the
/// deadline starts the alarm when it resumes: `poll` timeouts and `nanosleep` run on
/// CLOCK_MONOTONIC, which stops during suspend, and would wake late by the time slept.
struct SystemPlaybackTimer: PlaybackTimer {
    /// Below this much time left, sleep precisely instead of polling.
    private static let fine: Duration = .milliseconds(2)

    func now() -> ContinuousClock.Instant { .now }

    /// Blocks until `deadline` or a stop request.
    ///
    /// C: `timerfd_create`, `timerfd_settime`, `poll`, `clock_nanosleep`.
    func sleep(until deadline: ContinuousClock.Instant, control: PlaybackControl) {
        guard !control.isStopRequested, ContinuousClock.now < deadline else { return }
        let timer = (try? FileDescriptor.timer(clock: CLOCK_BOOTTIME, nonBlocking: true).release()) ?? -1
        defer { if timer >= 0 { close(timer) } }
        while !control.isStopRequested {
            let now = ContinuousClock.now
            let left = now.duration(to: deadline)
            if left <= .zero { return }
            if left > Self.fine {
                // Wake 1 ms early on the boot clock; the fine sleep below does the rest.
                let wake = Self.bootTime(of: now.advanced(by: left - .milliseconds(1)), now: now)
                var fds = [
                    pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
                ]
                // No timerfd (or no pipe): look at the clock and the flag every 10 ms.
                let armed = timer >= 0 && armTimer(timer, at: wake)
                let timeout: Int32 = armed && control.wakeFD >= 0 ? -1 : 10
                _ = poll(&fds, 2, timeout)
            } else {
                var request = Self.bootTime(of: deadline, now: now)
                _ = clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &request, nil)
            }
        }
    }

    /// `instant` as a CLOCK_BOOTTIME time, for absolute sleeps.
    /// - Parameters:
    ///   - instant: When to wake.
    ///   - now: Unused: the mapping is ``anchor``'s, never a reading that a preemption may have aged.
    /// - Returns: The CLOCK_BOOTTIME time of `instant`.
    private static func bootTime(of instant: ContinuousClock.Instant, now: ContinuousClock.Instant) -> timespec {
        let target = anchor.boot + anchor.instant.duration(to: instant)
        return target.timespecValue
    }

    /// One `ContinuousClock` instant and its CLOCK_BOOTTIME time, read once: `ContinuousClock.now`
    /// between two `clock_gettime` calls, the tightest of up to 16 tries, so a thread preempted
    /// between two reads (a loaded machine) cannot shift every wake-up by the preemption.
    private static let anchor: (instant: ContinuousClock.Instant, boot: Duration) = {
        func boot() -> Duration {
            var spec = timespec()
            clock_gettime(CLOCK_BOOTTIME, &spec)
            return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        }
        var best: (instant: ContinuousClock.Instant, boot: Duration, width: Duration)?
        for _ in 0..<16 {
            let before = boot()
            let instant = ContinuousClock.now
            let width = boot() - before
            if best == nil || width < best!.width { best = (instant, before + width / 2, width) }
            if width < .microseconds(2) { break }
        }
        return (best!.instant, best!.boot)
    }()
}
