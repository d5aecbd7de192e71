import CSystem
import Glibc

/// The app's clock: `ContinuousClock` (CLOCK_BOOTTIME on Linux, counts through suspend), and a
/// mapping of its instants to CLOCK_BOOTTIME nanoseconds for the JSON stream's `t_mono_ns`.
///
/// The mapping is read once at start (two clock reads a few tens of nanoseconds apart), so
/// differences between mapped instants are exact. Immutable; safe from any thread.
struct MonotonicClock: Sendable {
    private let origin: ContinuousClock.Instant
    private let originNanoseconds: Int64

    init() {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        origin = .now
        originNanoseconds = Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Now.
    func now() -> ContinuousClock.Instant { .now }

    /// `instant` as CLOCK_BOOTTIME nanoseconds.
    func nanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
        originNanoseconds + origin.duration(to: instant).nanoseconds
    }
}
