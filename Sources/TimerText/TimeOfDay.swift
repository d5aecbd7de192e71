import TextCoding

/// A time on a local clock face, with no date and no zone: what a user types as `07:30`.
///
/// Always valid once made. A plain value.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 0...23.
    public let hour: Int
    /// 0...59.
    public let minute: Int
    /// 0...59 (a leap second is not accepted).
    public let second: Int

    /// A time of day, or nil when a field is out of range.
    /// - Parameters:
    ///   - hour: 0...23.
    ///   - minute: 0...59.
    ///   - second: 0...59.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    /// Seconds since midnight on the clock face (0...86_399).
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + second }

    /// `HH:MM`, or `HH:MM:SS` when the seconds are not zero.
    public var description: String {
        let base = "\(pad(hour, 2)):\(pad(minute, 2))"
        return second == 0 ? base : base + ":\(pad(second, 2))"
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
    }
}
