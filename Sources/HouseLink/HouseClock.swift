import Glibc
package import HouseBus
package import TimerEngine

/// What a reader of the house's retained states knows of the time: its wall clock and whether
/// that clock is synchronised, so a state's `published` can be trusted.
///
/// The seam for tests: ``system`` reads CLOCK_REALTIME and the kernel's clock discipline
/// (adjtimex); a test injects both. Immutable; any thread.
package struct HouseClock: Sendable {
    /// The wall clock now, in milliseconds since the Unix epoch.
    package var nowUnixMilliseconds: @Sendable () -> Int64
    /// Whether the wall clock is synchronised now (``ClockSync/isSynchronised()``).
    package var isSynchronised: @Sendable () -> Bool

    /// A clock of the given readings (a test's, or ``system``'s).
    /// - Parameters:
    ///   - nowUnixMilliseconds: Reads the wall clock, in milliseconds since the Unix epoch.
    ///   - isSynchronised: Reads whether the wall clock is synchronised.
    package init(
        nowUnixMilliseconds: @escaping @Sendable () -> Int64, isSynchronised: @escaping @Sendable () -> Bool
    ) {
        self.nowUnixMilliseconds = nowUnixMilliseconds
        self.isSynchronised = isSynchronised
    }

    /// The system's wall clock and its synchronisation.
    ///
    /// C: `clock_gettime(CLOCK_REALTIME)`.
    package static let system = HouseClock(
        nowUnixMilliseconds: {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        }, isSynchronised: { ClockSync.isSynchronised() })

    /// The wall clock and its synchronisation now, read once.
    /// - Returns: The reading, for ``WallReading/isStale(_:)`` and the follower's reducer.
    package func reading() -> WallReading {
        WallReading(unixMilliseconds: nowUnixMilliseconds(), synchronised: isSynchronised())
    }

    /// Whether `state` is stale now (``TimerStatePayload/isStale(atUnixMilliseconds:clockSynchronised:)``):
    /// never while this clock is not synchronised.
    /// - Parameter state: A retained state.
    /// - Returns: Whether it was not refreshed within three of its promised intervals.
    package func isStale(_ state: TimerStatePayload) -> Bool {
        state.isStale(atUnixMilliseconds: nowUnixMilliseconds(), clockSynchronised: isSynchronised())
    }
}
