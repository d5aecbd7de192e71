import TextCoding

/// UTC ISO 8601 timestamps with milliseconds (`2026-11-30T11:02:03.123Z`) for Unix milliseconds:
/// the event log's `time` and the MQTT payloads' `deadline` and `published`.
///
/// Calendar arithmetic in Swift on the proleptic Gregorian calendar (TextCoding's ``CivilDate``,
/// Howard Hinnant's algorithms), so no time zone, locale or libc state is involved.
/// Years 0000–9999 have four digits; later ones are written in full. Pure; any thread.
public enum UTCTimestamp {
    /// The timestamp of `unixMilliseconds` (milliseconds since 1970-01-01T00:00:00Z; negative
    /// before), milliseconds as given.
    /// - Parameter unixMilliseconds: Milliseconds since the Unix epoch.
    /// - Returns: `YYYY-MM-DDTHH:MM:SS.fffZ`.
    public static func text(unixMilliseconds: Int64) -> String {
        let (days, dayMilliseconds) = divmod(unixMilliseconds, 86_400_000)
        let (year, month, day) = CivilDate.components(daysSinceEpoch: days)
        let seconds = dayMilliseconds / 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(dayMilliseconds % 1000, 3))Z"
    }

    /// The timestamp of `unixNanoseconds`, milliseconds rounded down (also before 1970).
    /// - Parameter unixNanoseconds: Nanoseconds since the Unix epoch.
    /// - Returns: `YYYY-MM-DDTHH:MM:SS.fffZ`.
    public static func text(unixNanoseconds: Int64) -> String {
        text(unixMilliseconds: divmod(unixNanoseconds, 1_000_000).quotient)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z` (1–9 fraction digits, cut to milliseconds).
    /// - Parameter text: The timestamp.
    /// - Returns: Unix milliseconds, or nil for any other shape or an impossible date.
    public static func unixMilliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func field(_ start: Int, _ length: Int) -> Int64? {
            guard start + length <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[start..<start + length] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
            let year = field(0, 4), let month = field(5, 2), let day = field(8, 2), let hour = field(11, 2),
            let minute = field(14, 2), let second = field(17, 2), (1...12).contains(month),
            (1...CivilDate.length(ofMonth: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var milliseconds: Int64 = 0
        if bytes.count > 20 {
            let digits = bytes.count - 21
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digits), let fraction = field(20, digits) else {
                return nil
            }
            milliseconds = digits >= 3 ? fraction / power10(digits - 3) : fraction * power10(3 - digits)
        } else {
            guard bytes.count == 20 else { return nil }
        }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milliseconds
    }

    /// Floor division: the remainder has the divisor's sign.
    private static func divmod(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func power10(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }

}
