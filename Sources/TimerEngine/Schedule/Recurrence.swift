package import TextCoding
import TimerCore
package import TimerText

/// How an alarm repeats, from `--every day|weekday|weekend|mon,wed,fri|2h`.
///
/// Day-based series ring at the alarm's local time of day on the chosen weekdays, through
/// ``LocalTimeResolver`` (so 07:00 stays 07:00 local across a DST change, under its gap and
/// overlap rule); an interval series adds real (elapsed) time to the previous occurrence, whatever
/// the local clock does. A plain value.
package enum Recurrence: Hashable, Sendable {
    /// On these local weekdays, at the alarm's time of day.
    case days(Set<Weekday>)
    /// Every this long in real time (`2h`): 1 minute or more.
    case interval(Duration)

    /// Every day.
    package static let daily = Recurrence.days(Set(Weekday.allCases))
    /// Monday to Friday.
    package static let weekdays = Recurrence.days([.monday, .tuesday, .wednesday, .thursday, .friday])
    /// Saturday and Sunday.
    package static let weekends = Recurrence.days([.saturday, .sunday])

    /// The shortest interval accepted (shorter would ring before the last one is acknowledged).
    package static let minimumInterval: Duration = .seconds(60)

    /// Parses the value of `--every`.
    /// - Parameter text: `day`, `weekday`, `weekend`, a comma list of `mon`…`sun` (full names too), or
    ///   a duration as for a countdown (`2h`, `90m`, `1:30:00`), at least ``minimumInterval``.
    /// - Returns: The recurrence.
    /// - Throws: `UsageError` naming the value ("invalid --every 'fortnight': …").
    package static func parse(_ text: String) throws(UsageError) -> Recurrence {
        let word = text.lowercased()
        switch word {
        case "day", "daily": return .daily
        case "weekday", "weekdays": return .weekdays
        case "weekend", "weekends": return .weekends
        default: break
        }
        if let first = word.first, first.isLetter { return try days(word, token: text) }
        let duration: Duration
        do { duration = try DurationParser.parse(text) } catch {
            throw failure(text, "give day, weekday, weekend, days such as mon,wed,fri, or an interval such as 2h")
        }
        guard duration >= minimumInterval else { throw failure(text, "an interval must be 1 minute or more") }
        return .interval(duration)
    }

    /// The first occurrence strictly after `instant`.
    /// - Parameters:
    ///   - instant: The previous occurrence (or, to arm the first one, the wall clock now).
    ///   - time: The alarm's local time of day; ignored by an interval series.
    ///   - resolver: The local time zone's mapping (the DST rule).
    /// - Returns: When to ring next, with the local date and time it rings at.
    /// - Complexity: At most 8 local-time resolutions.
    package func next(
        after instant: WallInstant, at time: TimeOfDay, resolver: LocalTimeResolver
    ) -> LocalTimeResolver.Resolution {
        let today = resolver.localDate(of: instant)
        switch self {
        case .interval(let interval):
            return resolver.resolution(at: instant.advanced(by: interval), today: today)
        case .days(let weekdays):
            for offset in 0...7 {
                let date = today.adding(days: offset)
                guard weekdays.contains(date.weekday) else { continue }
                let resolution = resolver.resolve(date, time, today: today)
                if resolution.instant > instant { return resolution }
            }
            preconditionFailure("a non-empty weekday set recurs within 8 days")
        }
    }

    /// A comma list of day names.
    private static func days(_ word: String, token: String) throws(UsageError) -> Recurrence {
        var set = Set<Weekday>()
        for name in word.split(separator: ",", omittingEmptySubsequences: false) {
            guard let day = Weekday.allCases.first(where: { $0.names.contains(String(name)) }) else {
                throw failure(token, "'\(name)' is not a day (mon, tue, wed, thu, fri, sat, sun)")
            }
            guard set.insert(day).inserted else { throw failure(token, "'\(name)' is given twice") }
        }
        return .days(set)
    }

    /// The one-line error for `token`.
    private static func failure(_ token: String, _ reason: String) -> UsageError {
        UsageError(description: "invalid --every '\(token)': \(reason)")
    }
}

extension Weekday {
    /// The names `--every` accepts for the day, lowercase: `mon`, `monday`.
    fileprivate var names: [String] {
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][rawValue]
        return [String(full.prefix(3)), full]
    }
}
