/// An instant on the wall clock (CLOCK_REALTIME): nanoseconds since the Unix epoch, UTC.
///
/// Unlike the boot clock (`ContinuousClock`), the wall clock can be stepped (NTP, `date -s`), so
/// a deadline held as a `WallInstant` means "when the wall clock reads this", not "after this long".
/// A plain value; safe from any thread.
public struct WallInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since 1970-01-01 00:00:00 UTC (leap seconds not counted, as CLOCK_REALTIME).
    public let unixNanoseconds: Int64

    /// - Parameter unixNanoseconds: Nanoseconds since the Unix epoch, UTC.
    public init(unixNanoseconds: Int64) { self.unixNanoseconds = unixNanoseconds }

    /// - Parameter unixSeconds: Whole seconds since the Unix epoch, UTC.
    public init(unixSeconds: Int64) { self.unixNanoseconds = unixSeconds * 1_000_000_000 }

    /// The instant `unixSeconds` after the epoch, or nil when its nanoseconds do not fit an `Int64`
    /// (before 1677-09-21 or after 2262-04-11).
    /// - Parameter unixSeconds: Whole seconds since the Unix epoch, UTC; any value.
    public init?(exactlyUnixSeconds unixSeconds: Int64) {
        let (nanoseconds, overflow) = unixSeconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        self.unixNanoseconds = nanoseconds
    }

    /// Whole seconds since the Unix epoch, rounded down (towards the past).
    public var unixSeconds: Int64 {
        let (quotient, remainder) = unixNanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The instant `duration` later (earlier if negative), in real (elapsed) time.
    /// - Parameter duration: Any length; sub-nanosecond parts are dropped.
    /// - Returns: `self` moved by `duration`.
    public func advanced(by duration: Duration) -> WallInstant {
        let (seconds, attoseconds) = duration.components
        return WallInstant(unixNanoseconds: unixNanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The time from `self` to `other` (negative when `other` is earlier).
    /// - Parameter other: Another wall-clock instant.
    /// - Returns: The elapsed time, to the nanosecond.
    public func duration(to other: WallInstant) -> Duration {
        .nanoseconds(other.unixNanoseconds - unixNanoseconds)
    }

    public static func < (lhs: WallInstant, rhs: WallInstant) -> Bool { lhs.unixNanoseconds < rhs.unixNanoseconds }

    public var description: String { "WallInstant(\(unixNanoseconds) ns)" }
}
