import Glibc

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

/// The real clock (`ContinuousClock`, CLOCK_BOOTTIME) and real sleeps.
///
/// Sleeps in one `poll` on the wake pipe until about 1 ms before the deadline (a stop request
/// writes the pipe and ends it at once), then sleeps the last millisecond or two precisely with
/// `nanosleep`. So waiting 1.5 s for the alarm's start instant costs two or three wake-ups, not
/// one every few milliseconds, and the first frame still goes out within a fraction of a
/// millisecond of the deadline.
struct SystemPlaybackTimer: PlaybackTimer {
    /// Below this much time left, sleep precisely instead of polling.
    private static let fine: Duration = .milliseconds(2)

    func now() -> ContinuousClock.Instant { .now }

    /// Blocks until `deadline` or a stop request.
    ///
    /// C: `poll`, `nanosleep`.
    func sleep(until deadline: ContinuousClock.Instant, control: PlaybackControl) {
        while !control.isStopRequested {
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero { return }
            if left > Self.fine {
                // poll's timeout is in whole milliseconds, rounded down here: wake early, never late.
                let wait = left - .milliseconds(1)
                var milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
                if control.wakeFD < 0 { milliseconds = min(milliseconds, 10) }  // no pipe: look at the flag often
                var wake = pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&wake, 1, Int32(clamping: milliseconds))
            } else {
                var request = timespec(
                    tv_sec: Int(left.components.seconds), tv_nsec: Int(left.components.attoseconds / 1_000_000_000))
                _ = nanosleep(&request, nil)
            }
        }
    }
}
