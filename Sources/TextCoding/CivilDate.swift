/// A date in the proleptic Gregorian calendar, with no time zone: what a user types as `2026-12-24`.
///
/// Always valid once made (``init(year:month:day:)`` checks it). A plain value.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    /// 1...12.
    public let month: Int
    /// 1...the month's length.
    public let day: Int

    /// A date, or nil when no such day exists (`2026-02-30`, month 13).
    /// - Parameters:
    ///   - year: 1...9999.
    ///   - month: 1...12.
    ///   - day: 1...28, 29, 30 or 31, by month and leap year.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CivilDate.length(ofMonth: month, year: year)).contains(day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The date `daysSinceEpoch` days after 1970-01-01 (negative: before).
    /// - Parameter daysSinceEpoch: Days, as ``daysSinceEpoch`` returns.
    /// - Precondition: The result lies in years 1...9999.
    public init(daysSinceEpoch: Int) {
        let (year, month, day) = Self.components(daysSinceEpoch: Int64(daysSinceEpoch))
        precondition((1...9999).contains(year), "date out of range")
        (self.year, self.month, self.day) = (Int(year), Int(month), Int(day))
    }

    /// Days from 1970-01-01 to this date (negative before it).
    public var daysSinceEpoch: Int {
        Int(Self.daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The proleptic Gregorian year, month (1...12) and day of a day since 1970-01-01, for any
    /// year (no range check: UTC stamps past 9999 use it too).
    ///
    /// Howard Hinnant's `civil_from_days` ("chrono-Compatible Low-Level Date Algorithms").
    /// - Parameter days: Days since 1970-01-01, negative before; within ±2^60.
    /// - Returns: The date's parts.
    public static func components(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date, for any year (no range check).
    ///
    /// Howard Hinnant's `days_from_civil`.
    /// - Parameters:
    ///   - year: Any year within ±2^50.
    ///   - month: 1...12.
    ///   - day: 1...31.
    /// - Returns: Days, negative before 1970-01-01.
    public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the week.
    public var weekday: Weekday {
        let index = (daysSinceEpoch + 4) % 7  // 1970-01-01 was a Thursday
        return Weekday(rawValue: index < 0 ? index + 7 : index)!
    }

    /// The date `days` days later (earlier if negative).
    /// - Parameter days: Whole days.
    /// - Returns: The date `days` days from `self`.
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// `YYYY-MM-DD`.
    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    /// Days in `month` of `year` (28...31), in the proleptic Gregorian calendar.
    /// - Parameters:
    ///   - month: 1...12.
    ///   - year: Any year.
    /// - Returns: 28, 29, 30 or 31.
    public static func length<Number: BinaryInteger>(ofMonth month: Number, year: Number) -> Number {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A day of the week; raw values as C's `tm_wday` (0 = Sunday).
public enum Weekday: Int, CaseIterable, Sendable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday
}

/// `value` in decimal, zero-padded on the left to `width` digits: the one zero-padder (dates,
/// clock times, UTC stamps, status columns).
/// - Parameters:
///   - value: Not negative.
///   - width: Minimum digits.
/// - Returns: At least `width` digits.
public func pad(_ value: some BinaryInteger, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
