public import Glibc

/// A rounding direction for ``Swift/Duration`` conversions to whole units.
public enum DurationRounding: Sendable {
    /// Toward zero (drop the fraction): 1.9 ms → 1 ms, -1.9 ms → -1 ms.
    case towardZero
    /// Toward positive infinity: 1.1 ms → 2 ms, -1.9 ms → -1 ms (a timeout never short).
    case up
}

extension Duration {
    /// Whole milliseconds, saturating at `Int64.min`/`Int64.max` (no trap for any duration).
    /// - Parameter rounding: How a fraction of a millisecond goes; toward zero unless told.
    /// - Returns: The count of milliseconds.
    public func wholeMilliseconds(rounding: DurationRounding = .towardZero) -> Int64 {
        count(ofAttoseconds: 1_000_000_000_000_000, rounding: rounding)
    }

    /// Whole microseconds, saturating at `Int64.min`/`Int64.max` (no trap for any duration).
    /// - Parameter rounding: How a fraction of a microsecond goes; toward zero unless told.
    /// - Returns: The count of microseconds.
    public func wholeMicroseconds(rounding: DurationRounding = .towardZero) -> Int64 {
        count(ofAttoseconds: 1_000_000_000_000, rounding: rounding)
    }

    /// Whole nanoseconds, saturating at `Int64.min`/`Int64.max` (about ±292 years; no trap).
    /// - Parameter rounding: How a fraction of a nanosecond goes; toward zero unless told.
    /// - Returns: The count of nanoseconds.
    public func wholeNanoseconds(rounding: DurationRounding = .towardZero) -> Int64 {
        count(ofAttoseconds: 1_000_000_000, rounding: rounding)
    }

    /// The duration as a C `timespec` for a timeout or an absolute clock time: a negative
    /// duration gives zero, nanoseconds are rounded down, and seconds saturate at `Int.max`.
    public var timespecValue: timespec {
        guard self > .zero else { return timespec(tv_sec: 0, tv_nsec: 0) }
        let (seconds, attoseconds) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
        guard seconds <= Int128(Int.max) else { return timespec(tv_sec: .max, tv_nsec: 999_999_999) }
        return timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }

    /// The duration in units of `unit` attoseconds, rounded as told, clamped to `Int64`.
    private func count(ofAttoseconds unit: Int128, rounding: DurationRounding) -> Int64 {
        var (quotient, remainder) = attoseconds.quotientAndRemainder(dividingBy: unit)
        if rounding == .up, remainder > 0 { quotient += 1 }
        return Int64(clamping: quotient)
    }
}
