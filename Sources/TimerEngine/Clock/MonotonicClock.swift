import Glibc

/// The app's clock: `ContinuousClock` (CLOCK_BOOTTIME on Linux, counts through suspend), and a
/// mapping of its instants to CLOCK_BOOTTIME nanoseconds for the JSON stream's `t_mono_ns`.
///
/// The mapping is read once per process (``anchor``: bracketed, so a preemption cannot skew it), so
/// differences between mapped instants are exact. Immutable; safe from any thread.
package struct MonotonicClock: Sendable {
    private let origin: ContinuousClock.Instant
    private let originNanoseconds: Int64

    /// One `ContinuousClock` instant and its CLOCK_BOOTTIME nanoseconds, read once per process.
    ///
    /// `ContinuousClock.now` is read between two `clock_gettime(CLOCK_BOOTTIME)` calls, and the
    /// tightest of up to 16 tries is kept (its midpoint): a thread preempted between two plain
    /// reads, as happens on a loaded machine, would otherwise shift every mapped instant of the
    /// process by the length of the preemption (a resumed timer's deadline, every `t_mono_ns`).
    /// Within 2 µs the first try is taken; the error is at most half the kept bracket.
    package static let anchor: (instant: ContinuousClock.Instant, nanoseconds: Int64) = {
        var best: (instant: ContinuousClock.Instant, nanoseconds: Int64, width: Int64)?
        for _ in 0..<16 {
            let before = bootNanoseconds()
            let instant = ContinuousClock.now
            let after = bootNanoseconds()
            let width = after - before
            if best == nil || width < best!.width { best = (instant, before + width / 2, width) }
            if width < 2_000 { break }
        }
        return (best!.instant, best!.nanoseconds)
    }()

    /// CLOCK_BOOTTIME now, in nanoseconds.
    ///
    /// C: `clock_gettime`.
    package static func bootNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    package init() {
        (origin, originNanoseconds) = Self.anchor
    }

    /// Now.
    package func now() -> ContinuousClock.Instant { .now }

    /// `instant` as CLOCK_BOOTTIME nanoseconds.
    package func nanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
        originNanoseconds + origin.duration(to: instant).nanoseconds
    }

    /// The instant at `nanoseconds` on CLOCK_BOOTTIME.
    package static func instant(bootNanoseconds nanoseconds: Int64) -> ContinuousClock.Instant {
        anchor.instant.advanced(by: .nanoseconds(nanoseconds - anchor.nanoseconds))
    }
}
