/// The one rounding rule for time shown in whole seconds, on every front (the status table, the
/// plain log line, the screen, the MQTT survey, `snooze`'s answer; issue 24).
///
/// A wall-clock instant is truncated to its second, as clocks show it: an alarm due at
/// 09:12:03.600 shows `09:12:03` in `status` and the log says `09:12:03 … time is up`. A time
/// left is rounded up, as countdowns show it, so `0:00` only once it rings
/// (``Swift/Duration/roundedUpToWholeSeconds``). Pure; any thread.
public enum WholeSeconds {
    /// The Unix second a wall-clock instant falls in: rounded down (towards the past, also
    /// before 1970).
    /// - Parameter unixMilliseconds: Milliseconds since 1970-01-01T00:00:00Z.
    /// - Returns: Whole seconds since the epoch.
    public static func wallSecond(unixMilliseconds: Int64) -> Int64 { floor(unixMilliseconds, 1000) }

    /// The Unix second a wall-clock instant falls in, as ``wallSecond(unixMilliseconds:)``.
    /// - Parameter unixNanoseconds: Nanoseconds since 1970-01-01T00:00:00Z.
    /// - Returns: Whole seconds since the epoch.
    public static func wallSecond(unixNanoseconds: Int64) -> Int64 { floor(unixNanoseconds, 1_000_000_000) }

    /// A time left in whole seconds: any fraction rounded up; zero and negative are 0.
    /// - Parameter remaining: The time left.
    /// - Returns: Whole seconds, at least 1 while any time is left.
    public static func left(_ remaining: Duration) -> Int64 { remaining.roundedUpToWholeSeconds.components.seconds }

    /// `value / unit` rounded towards minus infinity.
    private static func floor(_ value: Int64, _ unit: Int64) -> Int64 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: unit)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
