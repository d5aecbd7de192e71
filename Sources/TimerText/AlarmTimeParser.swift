public import TextCoding
import TimerCore

/// Reads the `TIME` of `eggtimer at TIME` into a ``LocalAlarmTime``; pure, no clock, no time zone.
///
/// Accepted (case-insensitive, words separated by spaces):
/// - a time of day: `14:30`, `7:05`, `07:05:30`, `7pm`, `7:30am`, `12am` (midnight), `noon`, `midnight`;
///   `am`/`pm` (or `a.m.`/`p.m.`) may stand as a word of its own: `7 pm`, `7:30 PM`;
/// - `tomorrow` before or after a time of day: `tomorrow 07:00`, `tomorrow 7 am`, `7pm tomorrow`;
/// - a date and a time: `2026-12-24 18:00`, `2026-12-24 7pm`, ISO 8601 `2026-12-24T18:00`, `2026-12-24T18:00:30`;
/// - a 24-hour time after a date with a UTC offset, which makes it an absolute instant: `2026-12-24T18:00Z`, `…+01:00`, `…-0530`.
///
/// A date is any day of years 0001...9999 here; `LocalTimeResolver` then refuses one in the past
/// or more than ``farthest`` ahead.
///
/// Anything else throws a one-line ``UsageError`` naming the token. Stateless; safe from any thread.
public enum AlarmTimeParser {
    /// The farthest ahead an alarm may be: as far as the longest countdown, 999:59:59.
    public static let farthest = DurationParser.maximum

    /// The reason named when an alarm is more than ``farthest`` ahead.
    public static let tooFarReason =
        "it is more than \(DurationParser.maximumText) ahead (999 h 59 min 59 s, as the longest countdown)"

    /// Parses `text` as an alarm time.
    /// - Parameter text: The argument(s) after `at`, joined by spaces.
    /// - Returns: The time as written, not yet resolved against a zone or a date.
    /// - Throws: `UsageError` ("invalid alarm time '25:00': hour must be 0–23").
    public static func parse(_ text: String) throws(UsageError) -> LocalAlarmTime {
        var words = joinedMeridiems(text.lowercased().split(separator: " ").map(String.init))
        var tomorrow = false
        if words.first == "tomorrow" {
            (tomorrow, words) = (true, Array(words.dropFirst()))
        } else if words.count > 1, words.last == "tomorrow" {
            (tomorrow, words) = (true, Array(words.dropLast()))
        }
        switch words.count {
        case 0:
            throw failure(words.isEmpty && !tomorrow ? "" : text, "TIME is one of \(forms)")
        case 1 where tomorrow:
            return .tomorrow(try timeOfDay(words[0], token: text))
        case 1:
            if let tee = words[0].firstIndex(of: "t"), words[0].first?.isNumber == true {
                let date = String(words[0][..<tee])
                let time = String(words[0][words[0].index(after: tee)...])
                return try dated(date, time, token: text)
            }
            return .timeOfDay(try timeOfDay(words[0], token: text))
        case 2 where !tomorrow && words[0].first?.isNumber == true && words[0].contains("-"):
            return try dated(words[0], words[1], twelveHourAllowed: true, token: text)
        default:
            // Name the first word that is no part of a time: `please` in `tomorrow 07:00 please`.
            let bad = words.first { word in
                let dateShaped = word.first?.isNumber == true && word.contains("-")
                return !dateShaped && (try? timeOfDay(word, token: text)) == nil
            }
            throw notATime(bad ?? words[words.count - 1], in: text)
        }
    }

    /// What TIME may be, for messages: every form, as typed.
    public static let forms =
        "14:30, 7:05, 7pm, 7 pm, noon, midnight, tomorrow 7:00, 7pm tomorrow, 2026-12-24 18:00 or ISO 8601 (2026-12-24T18:00+01:00)"

    /// Joins a lone `am`/`pm` (also `a.m.`, `p.m.`) to the number before it: `7 pm` → `7pm`.
    /// - Parameter words: Lowercased words.
    /// - Returns: The words with each meridiem word joined to a preceding word ending in a digit.
    private static func joinedMeridiems(_ words: [String]) -> [String] {
        var joined: [String] = []
        for word in words {
            let plain = String(word.filter { $0 != "." })
            if plain == "am" || plain == "pm", let last = joined.last, last.last?.isNumber == true {
                joined[joined.count - 1] = last + plain
            } else if word.hasSuffix("a.m.") || word.hasSuffix("p.m.") {
                joined.append(String(word.dropLast(4)) + plain.suffix(2))
            } else {
                joined.append(word)
            }
        }
        return joined
    }

    /// The one-line error for a word that is no part of a time: it names the word and lists ``forms``.
    private static func notATime(_ word: String, in text: String) -> UsageError {
        if word == text.trimmingSpaces { return failure(text, "TIME is one of \(forms)") }
        return failure(text, "'\(word)' is not part of a time; TIME is one of \(forms)")
    }

    /// A date word and a 24-hour time word with an optional UTC offset.
    /// - Parameters:
    ///   - dateText: `YYYY-MM-DD`.
    ///   - timeText: `HH:MM[:SS][Z|±HH:MM|±HHMM]`.
    ///   - twelveHourAllowed: Whether a time without an offset may be any time of day (`7pm`, `noon`).
    ///   - token: The whole argument, named in errors.
    /// - Returns: `.instant` when `timeText` has an offset, else `.date` (local time).
    /// - Throws: `UsageError` naming `token`.
    private static func dated(
        _ dateText: String, _ timeText: String, twelveHourAllowed: Bool = false, token: String
    ) throws(UsageError) -> LocalAlarmTime {
        let date = try self.date(dateText, token: token)
        let (clock, offsetText) = splitOffset(timeText)
        if offsetText == nil, twelveHourAllowed { return .date(date, try timeOfDay(clock, token: token)) }
        let time = try twentyFourHour(clock, token: token)
        guard let offsetText else { return .date(date, time) }
        let offsetSeconds = try offset(offsetText, token: token)
        // Years 1...9999 keep this far inside Int64; its nanoseconds need not be (before 1678, after 2262).
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(time.secondsSinceMidnight) - Int64(offsetSeconds)
        guard let instant = WallInstant(exactlyUnixSeconds: seconds) else {
            // Before 1970 is in the past on any clock this runs on.
            throw failure(token, seconds < 0 ? "it is in the past" : tooFarReason)
        }
        return .instant(instant)
    }

    /// `YYYY-MM-DD`, an existing day.
    private static func date(_ text: String, token: String) throws(UsageError) -> CivilDate {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = number(parts[0]), let month = number(parts[1]), let day = number(parts[2])
        else { throw failure(token, "the date '\(text)' is not YYYY-MM-DD") }
        guard let date = CivilDate(year: year, month: month, day: day) else {
            throw failure(token, "there is no day \(text)")
        }
        return date
    }

    /// Splits `18:00+01:00` into `18:00` and `+01:00`, `18:00z` into `18:00` and `z`.
    private static func splitOffset(_ text: String) -> (clock: String, offset: String?) {
        if text.hasSuffix("z") { return (String(text.dropLast()), "z") }
        guard let sign = text.firstIndex(where: { $0 == "+" || $0 == "-" }) else { return (text, nil) }
        return (String(text[..<sign]), String(text[sign...]))
    }

    /// A UTC offset: `z`, `±HH:MM`, `±HHMM` or `±HH`.
    /// - Returns: Seconds east of UTC.
    private static func offset(_ text: String, token: String) throws(UsageError) -> Int {
        if text == "z" { return 0 }
        let sign = text.first == "-" ? -1 : 1
        let digits = text.dropFirst().filter { $0 != ":" }
        let colons = text.count - 1 - digits.count
        guard digits.count == 2 || digits.count == 4, colons == 0 || (colons == 1 && text.count == 6),
            let hours = number(digits.prefix(2)), let minutes = digits.count == 4 ? number(digits.suffix(2)) : 0,
            hours <= 23, minutes <= 59
        else { throw failure(token, "the UTC offset '\(text)' is not Z, ±HH:MM or ±HHMM") }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// A time of day: 24-hour `H:MM[:SS]`, 12-hour `7pm`/`7:30am`, `noon` or `midnight`.
    private static func timeOfDay(_ text: String, token: String) throws(UsageError) -> TimeOfDay {
        switch text {
        case "noon": return TimeOfDay(hour: 12, minute: 0)!
        case "midnight": return TimeOfDay(hour: 0, minute: 0)!
        default: break
        }
        for suffix in ["am", "pm"] where text.hasSuffix(suffix) {
            return try twelveHour(String(text.dropLast(2)), pm: suffix == "pm", token: token)
        }
        return try twentyFourHour(text, token: token)
    }

    /// `7`, `7:30` or `07:30:15` before `am`/`pm`; hour 1...12, `12am` being midnight.
    private static func twelveHour(_ text: String, pm: Bool, token: String) throws(UsageError) -> TimeOfDay {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), (1...2).contains(parts[0].count), let hour = number(parts[0]) else {
            throw failure(token, "'\(text)' is not an hour such as 7pm or 7:30am")
        }
        guard (1...12).contains(hour) else { throw failure(token, "hour \(hour) must be 1–12 with am/pm") }
        let (minute, second) = try minutesAndSeconds(parts.dropFirst(), token: token)
        return TimeOfDay(hour: hour % 12 + (pm ? 12 : 0), minute: minute, second: second)!
    }

    /// `H:MM` or `HH:MM:SS`, hour 0...23.
    private static func twentyFourHour(_ text: String, token: String) throws(UsageError) -> TimeOfDay {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), (1...2).contains(parts[0].count), let hour = number(parts[0]) else {
            throw notATime(text, in: token)
        }
        guard hour <= 23 else { throw failure(token, "hour \(hour) must be 0–23") }
        let (minute, second) = try minutesAndSeconds(parts.dropFirst(), token: token)
        return TimeOfDay(hour: hour, minute: minute, second: second)!
    }

    /// Two-digit minutes and optional two-digit seconds, each 0...59.
    /// - Returns: (minute, second); (0, 0) when `parts` is empty.
    private static func minutesAndSeconds(_ parts: ArraySlice<Substring>, token: String) throws(UsageError) -> (
        Int, Int
    ) {
        var values: [Int] = []
        for (part, name) in zip(parts, ["minute", "second"]) {
            guard part.count == 2, let value = number(part) else {
                throw failure(token, "the \(name) '\(part)' is not two digits")
            }
            guard value <= 59 else { throw failure(token, "\(name) \(value) must be 00–59") }
            values.append(value)
        }
        return (values.first ?? 0, values.count > 1 ? values[1] : 0)
    }

    /// The decimal value of an all-ASCII-digit, non-empty string, else nil.
    private static func number(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    /// The one-line error for `token`.
    private static func failure(_ token: String, _ reason: String) -> UsageError {
        UsageError(description: "invalid alarm time '\(token)': \(reason)")
    }
}

extension String {
    /// The text without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
