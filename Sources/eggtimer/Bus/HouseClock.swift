import HouseBus
import TimerEngine

/// What a reader of the house's retained states knows of the time: its wall clock and whether
/// that clock is synchronised, so a state's `published` can be trusted.
///
/// The seam for tests: ``system`` reads CLOCK_REALTIME and the kernel's clock discipline
/// (adjtimex); a test injects both. Immutable; any thread.
struct HouseClock: Sendable {
    /// The wall clock now, in milliseconds since the Unix epoch.
    var nowUnixMilliseconds: @Sendable () -> Int64
    /// Whether the wall clock is synchronised now (``ClockSync/isSynchronised()``).
    var isSynchronised: @Sendable () -> Bool

    /// The system's wall clock and its synchronisation.
    static let system = HouseClock(
        nowUnixMilliseconds: { HouseSurvey.nowUnixMilliseconds() }, isSynchronised: { ClockSync.isSynchronised() })

    /// The wall clock and its synchronisation now, read once.
    /// - Returns: The reading, for ``WallReading/isStale(_:)`` and the follower's reducer.
    func reading() -> WallReading {
        WallReading(unixMilliseconds: nowUnixMilliseconds(), synchronised: isSynchronised())
    }

    /// Whether `state` is stale now (``TimerStatePayload/isStale(atUnixMilliseconds:clockSynchronised:)``):
    /// never while this clock is not synchronised.
    /// - Parameter state: A retained state.
    /// - Returns: Whether it was not refreshed within three of its promised intervals.
    func isStale(_ state: TimerStatePayload) -> Bool {
        state.isStale(atUnixMilliseconds: nowUnixMilliseconds(), clockSynchronised: isSynchronised())
    }
}
