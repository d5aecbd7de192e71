package import HouseBus

/// One reading of the wall clock: what a judge of staleness needs, taken once by the caller
/// (``HouseClock/reading()``) and passed in, so the judgement is a function of values.
///
/// A plain value; any thread.
package struct WallReading: Sendable, Equatable {
    /// The wall clock, in milliseconds since the Unix epoch.
    package var unixMilliseconds: Int64
    /// Whether the wall clock was synchronised (adjtimex) when it was read.
    package var synchronised: Bool

    /// A reading taken by the caller (the memberwise initializer, for the executable's
    /// `HouseClock`).
    package init(unixMilliseconds: Int64, synchronised: Bool) {
        (self.unixMilliseconds, self.synchronised) = (unixMilliseconds, synchronised)
    }

    /// Whether `state` is stale at this reading
    /// (``TimerStatePayload/isStale(atUnixMilliseconds:clockSynchronised:)``): never while this
    /// clock is not synchronised.
    /// - Parameter state: A retained state.
    /// - Returns: Whether it was not refreshed within three of its promised intervals.
    package func isStale(_ state: TimerStatePayload) -> Bool {
        state.isStale(atUnixMilliseconds: unixMilliseconds, clockSynchronised: synchronised)
    }
}
