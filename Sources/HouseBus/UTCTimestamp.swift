import Glibc

/// UTC ISO 8601 timestamps with milliseconds (`2026-11-30T11:02:03.123Z`) for Unix milliseconds.
///
/// Calendar arithmetic by libc (`gmtime_r`, `timegm`: the proleptic Gregorian calendar, as the
/// event log's `time` uses it). Pure; any thread.
enum UTCTimestamp {
    /// The timestamp of `unixMilliseconds` (milliseconds since 1970-01-01T00:00:00Z).
    static func text(unixMilliseconds: Int64) -> String {
        let (days, dayMilliseconds) = divmod(unixMilliseconds, 86_400_000)
        var midnight = time_t(days * 86_400)
        var parts = tm()
        gmtime_r(&midnight, &parts)
        let (year, month, day) = (Int64(parts.tm_year) + 1900, Int64(parts.tm_mon) + 1, Int64(parts.tm_mday))
        let seconds = dayMilliseconds / 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(dayMilliseconds % 1000, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z` (1–9 fraction digits, cut to milliseconds).
    /// - Returns: Unix milliseconds, or nil for any other shape or an impossible date.
    static func unixMilliseconds(_ text: String) -> Int64? {
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
            (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
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
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        let days = Int64(timegm(&parts)) / 86_400
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milliseconds
    }

    private static func divmod(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value - 1) / divisor) - 1
        return (quotient, value - quotient * divisor)
    }

    private static func power10(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Int(month - 1)]
    }
}
