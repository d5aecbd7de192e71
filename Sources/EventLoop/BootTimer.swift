import Glibc
package import SystemKit

/// A timer descriptor on the boot clock (CLOCK_BOOTTIME) that becomes readable at an absolute
/// instant, for the event loop's poll set.
///
/// A relative `poll`/`ppoll` timeout runs on CLOCK_MONOTONIC, which stops during suspend, while
/// the deadline is on the boot clock: a laptop or Pi that sleeps across the deadline would ring
/// late by the time it slept. An absolute timerfd on CLOCK_BOOTTIME fires on time
/// (PLATFORM-NOTES, "Processes, signals and clocks"). `/proc/PID/fdinfo/N` shows it as
/// `clockid: 7` with `settime flags: 01`.
///
/// The event loop's own source: it arms it at its next deadline and only acknowledges it (its
/// wake-up is the round's `.tick`). Owned by the event loop; not thread-safe. Close with
/// ``close()``.
package final class BootTimer: LoopSource {
    /// The readable descriptor (nonblocking, close-on-exec).
    package let descriptor: Int32
    /// Maps a boot-clock instant to CLOCK_BOOTTIME nanoseconds.
    private let bootNanoseconds: (ContinuousClock.Instant) -> Int64

    /// Creates the timer, disarmed.
    ///
    /// Nil if the kernel refuses (then the loop falls back to a relative timeout).
    /// C: `timerfd_create`.
    /// - Parameter bootNanoseconds: Maps instants to CLOCK_BOOTTIME nanoseconds.
    package init?(bootNanoseconds: @escaping (ContinuousClock.Instant) -> Int64) {
        guard let timer = try? FileDescriptor.timer(clock: CLOCK_BOOTTIME, nonBlocking: true) else { return nil }
        descriptor = timer.release()
        self.bootNanoseconds = bootNanoseconds
    }

    /// Arms the timer to fire at `instant`, or disarms it for nil.
    ///
    /// An instant in the past fires at once. C: `timerfd_settime` with `TFD_TIMER_ABSTIME`.
    /// - Parameter instant: When to become readable, on the boot clock.
    package func arm(at instant: ContinuousClock.Instant?) {
        // 0 would disarm: fire at 1 ns instead when the instant is at the clock's origin.
        let deadline = instant.map { Duration.nanoseconds(max(1, bootNanoseconds($0))).timespecValue }
        try? setTimer(descriptor, at: deadline)
    }

    /// Clears a fired timer so the descriptor stops being readable; never blocks.
    ///
    /// C: `read`.
    package func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }

    /// Closes the descriptor.
    package func close() { _ = Glibc.close(descriptor) }

    /// The timer's descriptor, always polled (a disarmed timer never becomes readable).
    package var pollRequests: [PollRequest] { [PollRequest(descriptor: descriptor, events: Int16(POLLIN))] }

    /// Acknowledges the fired timer; no event of its own.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into events: inout [Never]) {
        acknowledge()
    }
}
