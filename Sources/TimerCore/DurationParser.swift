/// Why a duration could not be read; names the token as typed.
public struct DurationParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as the user typed it.
    public let token: String
    /// What is wrong with it, in a few words.
    public let reason: String

    /// One line: `invalid duration '1:75': seconds must be below 60`.
    public var description: String { "invalid duration '\(token)': \(reason)" }

    /// Creates an error for `token`.
    public init(token: String, reason: String) { (self.token, self.reason) = (token, reason) }
}

/// Reads a countdown length as a kitchen user types it.
///
/// Accepted forms (whitespace around the token is ignored, letters are case-insensitive):
/// - plain seconds: `90`, `2.5`;
/// - clock style: `m:ss` (`1:30` is 90 s) and `h:mm:ss` (`1:02:03`); fields after the first are
///   two digits below 60;
/// - units, largest first, each at most once: `90s`, `7m30s`, `1h2m3s`, `1.5m`; a unit is written
///   `h`/`hr`/`hrs`/`hour`/`hours`, `m`/`min`/`mins`/`minute`/`minutes` or
///   `s`/`sec`/`secs`/`second`/`seconds`, and spaces or tabs may stand between a number and its
///   unit and between fields, all in one argument: `5min`, `90 sec`, `2 hours`, `1.5 hours`,
///   `1h 30m`, `1 hour 30 minutes`. A trailing bare number is read as the next smaller unit
///   (`1h30` and `1 hour 30` are 1 h 30 m, `1m30` is 1 m 30 s); a bare number anywhere else is an
///   error (`1 30`). Only the last field may have a fraction. There is no millisecond unit (`5ms`).
///
/// The result is exact to the millisecond (a finer fraction is an error, never rounded) and lies in
/// `(0, maximum]`. It is a length, never a time of day.
public enum DurationParser {
    /// The longest countdown accepted: 999 h 59 m 59 s, so the display stays `hhh:mm:ss`.
    public static let maximum: Duration = .seconds(999 * 3600 + 59 * 60 + 59)
    /// `maximum` as users type it, for help texts.
    public static let maximumText = "999:59:59"

    /// Parses `text`.
    /// - Returns: The duration, more than zero and at most `maximum`.
    /// - Throws: `DurationParseError` naming `text` when it is empty, malformed, zero, negative,
    ///   finer than a millisecond, or longer than `maximum`.
    public static func parse(_ text: String) throws(DurationParseError) -> Duration {
        func fail(_ reason: String) -> DurationParseError { DurationParseError(token: text, reason: reason) }
        let token = text.trimmingSpaces
        if token.isEmpty { throw fail("empty") }
        if !token.contains(where: \.isASCIIDigit) { throw fail("no number in it") }
        if token.hasPrefix("-") { throw fail("must be more than zero") }
        let millis: Int64
        if token.contains(":") {
            millis = try clockMilliseconds(token, fail)
        } else {
            millis = try unitMilliseconds(token, fail)
        }
        if millis <= 0 { throw fail("must be more than zero") }
        if millis > maximum.components.seconds * 1000 { throw fail("longer than the maximum \(maximumText)") }
        return .milliseconds(millis)
    }

    /// Whether `word` is a unit word in any letter case (`h`, `min`, `Seconds`): what may follow a
    /// number in a duration, so a label that starts with one would be ambiguous after one.
    /// - Parameter word: One word.
    /// - Returns: Whether it names a unit.
    public static func isUnitWord(_ word: String) -> Bool { TimeUnit(named: Substring(word)) != nil }

    /// `m:ss` or `h:mm:ss`.
    private static func clockMilliseconds(
        _ token: String, _ fail: (String) -> DurationParseError
    ) throws(DurationParseError) -> Int64 {
        let fields = token.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 2 || fields.count == 3 else { throw fail("expected m:ss or h:mm:ss") }
        var total: Int64 = 0
        for (index, field) in fields.enumerated() {
            let isFirst = index == 0
            let isLast = index == fields.count - 1
            if field.isEmpty { throw fail("a field is empty") }
            let value = try decimal(field, fail)
            if value.fractionDigits > 0, !isLast { throw fail("only the seconds may have a fraction") }
            if !isFirst {
                guard value.integerDigits == 2 else { throw fail("expected two digits after ':'") }
                guard value.whole < 60 else {
                    throw fail(isLast ? "seconds must be below 60" : "minutes must be below 60")
                }
            }
            let place = fields.count - index  // 3: hours, 2: minutes, 1: seconds
            let unit: Int64 = place == 3 ? 3_600_000 : (place == 2 ? 60_000 : 1000)
            let (sum, overflow) = total.addingReportingOverflow(try value.milliseconds(per: unit, fail))
            if overflow { throw fail("too large") }
            total = sum
        }
        return total
    }

    /// `90`, `90s`, `7m30s`, `1h30`, `1.5m`, `1h 30m`, `2 hours`, `5min`, `1 hour 30 minutes`.
    private static func unitMilliseconds(
        _ token: String, _ fail: (String) -> DurationParseError
    ) throws(DurationParseError) -> Int64 {
        var rest = Substring(token)
        var nextUnit = TimeUnit.hours.rawValue  // the largest unit still allowed: units only shrink
        var total: Int64 = 0
        var sawField = false
        var sawFraction = false
        while true {
            rest = rest.drop(while: \.isSpaceOrTab)
            guard let first = rest.first else { break }
            let number = rest.prefix { $0.isASCIIDigit || $0 == "." }
            guard !number.isEmpty else {
                let word = rest.prefix(while: \.isLetter)
                if word.isEmpty { throw fail("'\(first)' is not a number or a unit (h, m, s)") }
                if TimeUnit(named: word) != nil { throw fail("'\(word)' needs a number before it") }
                throw fail("'\(word)' is not a number or a unit (h, m, s)")
            }
            if sawFraction { throw fail("only the last field may have a fraction") }
            let value = try decimal(String(number), fail)
            rest = rest.dropFirst(number.count).drop(while: \.isSpaceOrTab)
            let unit: TimeUnit
            if let next = rest.first, !next.isASCIIDigit, next != "." {
                let word = rest.prefix(while: \.isLetter)
                guard !word.isEmpty else { throw fail("'\(next)' is not a unit (h, m, s)") }
                guard let named = TimeUnit(named: word) else { throw fail("'\(word)' is not a unit (h, m, s)") }
                guard named.rawValue >= nextUnit else {
                    throw fail(
                        named.rawValue == nextUnit - 1 ? "'\(word)' given twice" : "units must go from h to m to s")
                }
                unit = named
                rest = rest.dropFirst(word.count)
            } else if !rest.isEmpty {
                throw fail("'\(number)' needs a unit after it")  // "1 30": which unit is the 1?
            } else if !sawField {
                unit = .seconds  // a lone number is seconds
            } else {
                // A trailing bare number is the next smaller unit: "1h30", "1 hour 30".
                guard let smaller = TimeUnit(rawValue: nextUnit) else { throw fail("nothing is smaller than seconds") }
                unit = smaller
            }
            let (sum, overflow) = total.addingReportingOverflow(try value.milliseconds(per: unit.milliseconds, fail))
            if overflow { throw fail("too large") }
            total = sum
            sawField = true
            sawFraction = value.fractionDigits > 0
            nextUnit = unit.rawValue + 1
        }
        return total
    }

    /// Reads `digits[.digits]` with a precise reason when it cannot.
    private static func decimal(
        _ text: String, _ fail: (String) -> DurationParseError
    ) throws(DurationParseError) -> Decimal {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let wholePart = parts.first, !wholePart.isEmpty,
            wholePart.allSatisfy(\.isASCIIDigit),
            parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy(\.isASCIIDigit))
        else { throw fail("'\(text)' is not a number") }
        guard wholePart.count <= 15, let whole = Int64(wholePart) else { throw fail("too large") }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if parts.count == 2 {
            // More than nine digits can never be a whole number of milliseconds that matters.
            guard parts[1].count <= 9, let value = Int64(parts[1]) else { throw fail("finer than a millisecond") }
            (fraction, fractionDigits) = (value, parts[1].count)
        }
        return Decimal(whole: whole, fraction: fraction, fractionDigits: fractionDigits, integerDigits: wholePart.count)
    }
}

/// A non-negative decimal number as typed, kept as digits so nothing is rounded.
private struct Decimal {
    var whole: Int64
    var fraction: Int64
    var fractionDigits: Int
    var integerDigits: Int

    /// `self × unit` in milliseconds.
    /// - Throws: "too large" on overflow, "finer than a millisecond" when not a whole number of ms.
    func milliseconds(
        per unit: Int64, _ fail: (String) -> DurationParseError
    ) throws(DurationParseError) -> Int64 {
        let (wholeMillis, overflow) = whole.multipliedReportingOverflow(by: unit)
        if overflow { throw fail("too large") }
        var scale: Int64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        let (fractionScaled, overflow2) = fraction.multipliedReportingOverflow(by: unit)
        if overflow2 { throw fail("too large") }
        if fractionScaled % scale != 0 { throw fail("finer than a millisecond") }
        let (sum, overflow3) = wholeMillis.addingReportingOverflow(fractionScaled / scale)
        if overflow3 { throw fail("too large") }
        return sum
    }
}

/// A unit a field may carry, largest first (the order fields must follow).
private enum TimeUnit: Int {
    case hours, minutes, seconds

    /// Reads a unit word in any letter case: `h`, `hr`, `hrs`, `hour`, `hours`, and `m`, `min`,
    /// `mins`, `minute`, `minutes`, and `s`, `sec`, `secs`, `second`, `seconds`; nil for anything else.
    init?(named word: Substring) {
        guard word.utf8.count <= 7, word.allSatisfy(\.isASCII) else { return nil }
        switch word.lowercased() {
        case "h", "hr", "hrs", "hour", "hours": self = .hours
        case "m", "min", "mins", "minute", "minutes": self = .minutes
        case "s", "sec", "secs", "second", "seconds": self = .seconds
        default: return nil
        }
    }

    /// One of this unit, in milliseconds.
    var milliseconds: Int64 {
        switch self {
        case .hours: 3_600_000
        case .minutes: 60_000
        case .seconds: 1000
        }
    }
}

extension Character {
    /// `0` through `9` only (not other scripts' digits).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }

    /// A space or a tab: what may separate the parts of a duration.
    fileprivate var isSpaceOrTab: Bool { self == " " || self == "\t" }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { !$0.isSpaceOrTab }), let last = lastIndex(where: { !$0.isSpaceOrTab })
        else {
            return ""
        }
        return String(self[first...last])
    }
}
