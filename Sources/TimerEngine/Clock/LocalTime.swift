package import Glibc
import TextCoding
import TimerCore

/// Local wall-clock texts of Unix times given in milliseconds (a timer's deadline).
///
/// Immutable; safe from any thread.
package struct LocalTime: Sendable {
    /// Local broken-down time of a Unix time in seconds, with `tm_gmtoff` set.
    package var local: @Sendable (time_t) -> tm

    /// - Parameter local: Local broken-down time of a Unix time in seconds, with `tm_gmtoff` set.
    package init(local: @escaping @Sendable (time_t) -> tm) { self.local = local }

    /// The system's time zone (`localtime_r`, TZ honoured).
    package static let system = LocalTime(local: WallClock.system.local)

    /// `09:12:03`: the local time of day, 24-hour, truncated to the second as clocks show
    /// (``WholeSeconds/wallSecond(unixMilliseconds:)``, the rule the log's lines follow too): a
    /// deadline at 09:12:03.600 shows 09:12:03, the second the log says the time is up.
    package func clockText(unixMilliseconds: Int64) -> String {
        let parts = local(Self.seconds(unixMilliseconds))
        return "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
    }

    /// ``clockText(unixMilliseconds:)`` with the day when it is not today's (by the local calendar
    /// at `now`): `09:12:03`, `tomorrow 07:15:00`, `Tue 07:15:00` within the week ahead, else
    /// `2026-12-24 18:00:00`.
    /// - Parameters:
    ///   - unixMilliseconds: The deadline, milliseconds since the Unix epoch.
    ///   - now: The wall clock now, milliseconds since the Unix epoch.
    /// - Returns: The text, without a trailing space.
    package func dayAndClockText(unixMilliseconds: Int64, now: Int64) -> String {
        let clock = clockText(unixMilliseconds: unixMilliseconds)
        let day = date(Self.seconds(unixMilliseconds))
        switch day.daysSinceEpoch - date(Self.seconds(now)).daysSinceEpoch {
        case 0: return clock
        case 1: return "tomorrow " + clock
        case 2...6: return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][day.weekday.rawValue] + " " + clock
        default: return "\(day) \(clock)"
        }
    }

    /// The local calendar date at Unix time `seconds`.
    private func date(_ seconds: time_t) -> CivilDate {
        let parts = local(seconds)
        return CivilDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? CivilDate(daysSinceEpoch: Int(seconds / 86_400))
    }

    /// `2026-11-30T09:12:03+01:00`: local ISO 8601 with the UTC offset, truncated to the second
    /// (as ``clockText(unixMilliseconds:)``).
    package func isoText(unixMilliseconds: Int64) -> String {
        let parts = local(Self.seconds(unixMilliseconds))
        let offsetMinutes = Int(parts.tm_gmtoff) / 60
        let sign = offsetMinutes < 0 ? "-" : "+"
        let offset = "\(sign)\(pad(abs(offsetMinutes) / 60, 2)):\(pad(abs(offsetMinutes) % 60, 2))"
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))\(offset)"
    }

    /// The whole second a wall-clock instant falls in (``WholeSeconds``; also before 1970).
    private static func seconds(_ milliseconds: Int64) -> time_t {
        time_t(WholeSeconds.wallSecond(unixMilliseconds: milliseconds))
    }

}
