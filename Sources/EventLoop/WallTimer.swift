import Glibc
import SystemKit
package import TimerText

/// A timer descriptor on the wall clock (CLOCK_REALTIME) that becomes readable at an absolute
/// wall-clock instant, or as soon as the wall clock is set: the alarm of `eggtimer at`.
///
/// Armed with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`: it fires when the wall clock reads the
/// deadline, whatever steps the clock took before, and a step (NTP, `date -s`, an RTC-less Pi
/// setting its time) makes its `read` fail with ECANCELED, so the loop re-evaluates the alarm at
/// once. `/proc/PID/fdinfo/N` shows it as `clockid: 0` with `settime flags: 03`. A countdown stays
/// on ``BootTimer``.
///
/// A source of the event loop while ``deadline`` is set: its firing, or the clock being set, only
/// wakes the loop (the round's `.tick`); the caller reads the wall clock after each wait and sees
/// the step. Owned by the event loop's thread; not thread-safe. Its descriptor closes with it.
package final class WallTimer: LoopSource {
    /// What reading the descriptor found.
    package enum Reading: Equatable {
        /// Nothing (not yet due, or already read).
        case none
        /// The deadline passed on the wall clock.
        case fired
        /// The wall clock was set (stepped) since the timer was armed; it must be armed again.
        case clockSet
    }

    /// The readable descriptor (nonblocking, close-on-exec).
    package let descriptor: Int32
    /// The deadline armed, if any, so an unchanged one is not armed again each round.
    private var armed: WallInstant?
    /// When the alarm at a time rings on the wall clock (the controller's `wallDeadline`, handed over
    /// by the session when it changes); nil for none (then the descriptor is not polled).
    package var deadline: WallInstant? {
        didSet { arm(at: deadline) }
    }

    /// Creates the timer, disarmed; nil if the kernel refuses.
    ///
    /// C: `timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC)`.
    package init?() {
        guard let timer = try? FileDescriptor.timer(clock: CLOCK_REALTIME, nonBlocking: true) else { return nil }
        descriptor = timer.release()
    }

    /// Arms the timer at `instant` on the wall clock, or disarms it for nil; does nothing when
    /// `instant` is already armed.
    ///
    /// An instant in the past fires at once.
    /// C: `timerfd_settime` with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`.
    /// - Parameter instant: When to become readable (UTC).
    package func arm(at instant: WallInstant?) {
        guard instant != armed else { return }
        armed = instant
        let deadline = instant.map { Duration.nanoseconds(max(1, $0.unixNanoseconds)).timespecValue }  // 0 would disarm
        try? setTimer(descriptor, at: deadline, cancelOnClockSet: true)
    }

    /// Reads the descriptor once it polled readable; never blocks.
    ///
    /// After ``Reading/clockSet`` the kernel no longer cancels the timer on a set until it is
    /// armed again, so it is armed again at once at ``deadline`` (the caller hands over a
    /// deadline only when it changes).
    /// C: `read`.
    /// - Returns: Whether the deadline passed or the clock was set.
    package func read() -> Reading {
        var expirations: UInt64 = 0
        let count = Glibc.read(descriptor, &expirations, MemoryLayout<UInt64>.size)
        if count < 0, errno == ECANCELED {
            armed = nil
            arm(at: deadline)
            return .clockSet
        }
        return count == MemoryLayout<UInt64>.size ? .fired : .none
    }

    deinit { _ = Glibc.close(descriptor) }

    /// The descriptor while a ``deadline`` is set.
    package var pollRequests: [PollRequest] {
        deadline == nil ? [] : [PollRequest(descriptor: descriptor, events: Int16(POLLIN))]
    }

    /// Reads the fired (or cancelled) timer; no event of its own.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into events: inout [Never]) {
        _ = read()
    }
}
