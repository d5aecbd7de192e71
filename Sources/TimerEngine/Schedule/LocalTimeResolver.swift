import Glibc
package import TextCoding
package import TimerText

/// Turns local dates and times into wall-clock instants (UTC) in the process's time zone (`TZ`,
/// else `/etc/localtime`), relative to an injected `now`; it never reads a clock.
///
/// The daylight-saving rule, the one rule for every alarm:
/// - **gap** (a local time that does not exist, clocks go forward: Europe/Berlin 2026-03-29 02:30):
///   the alarm rings at the first instant after the gap (03:00 CEST), and ``Resolution/note`` says so;
/// - **overlap** (a local time that exists twice, clocks go back: Europe/Berlin 2026-10-25 02:30):
///   it rings at the first occurrence (02:30 CEST, +02:00), and ``Resolution/note`` says so.
///
/// The zone is read when the resolver is made (`tzset`), so make a new one after changing `TZ`.
/// Uses `localtime_r` only; call it from one thread at a time as long as `TZ` may change (the
/// zone is process-global).
package struct LocalTimeResolver {
    /// A local time resolved to a wall-clock instant.
    package struct Resolution: Hashable, Sendable {
        /// When to ring, on the wall clock (UTC).
        package let instant: WallInstant
        /// The local date the alarm rings on (after the DST rule).
        package let date: CivilDate
        /// The local time the alarm rings at (after the DST rule: 03:00 for a 02:30 in a gap).
        package let time: TimeOfDay
        /// The zone's offset east of UTC at `instant`, in seconds (3600 for CET).
        package let utcOffsetSeconds: Int
        /// Whether `date` is the day after `now`'s local date.
        package let isTomorrow: Bool
        /// What the DST rule did, one line; nil for an ordinary local time.
        package let note: String?

        /// The offset as ISO 8601 writes it: `+01:00`, `-05:30`, `+00:00`.
        package var utcOffsetText: String {
            let magnitude = abs(utcOffsetSeconds) / 60
            return (utcOffsetSeconds < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
        }

        /// The scheduled local time with its offset, for JSON `at`: `2026-12-24T18:00:00+01:00`.
        package var isoText: String {
            "\(date)T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))\(utcOffsetText)"
        }
    }

    /// The farthest ahead an alarm may be: ``AlarmTimeParser/farthest``.
    package static let farthest = AlarmTimeParser.farthest

    /// The reason named when an alarm is more than ``farthest`` ahead.
    package static let tooFarReason = AlarmTimeParser.tooFarReason

    /// Reads the process's time zone now.
    ///
    /// C: `tzset`.
    package init() { tzset() }

    /// The next instant `alarm` names, after `now`.
    /// - Parameters:
    ///   - alarm: The parsed time.
    ///   - now: The wall clock now (UTC).
    ///   - typed: `TIME` as the user typed it, to name in an error; nil: the date and time as read.
    /// - Returns: When to ring; a time of day already past (or now) today means tomorrow.
    /// - Throws: `UsageError` when a date, `tomorrow` time or absolute instant is not after `now`,
    ///   or is more than ``farthest`` after it.
    package func resolve(_ alarm: LocalAlarmTime, now: WallInstant, typed: String? = nil) throws(UsageError)
        -> Resolution
    {
        let today = localDate(of: now)
        let latest = now.advanced(by: Self.farthest)
        switch alarm {
        case .timeOfDay(let time):
            let first = resolve(today, time, today: today)
            return first.instant > now ? first : resolve(today.adding(days: 1), time, today: today)
        case .tomorrow(let time):
            return resolve(today.adding(days: 1), time, today: today)
        case .date(let date, let time):
            let token = "invalid alarm time '\(typed ?? "\(date) \(time)")'"
            // Checked by the day first: the zone's arithmetic is only asked about dates near today.
            let days = date.daysSinceEpoch - today.daysSinceEpoch
            guard days >= -1 else { throw UsageError(description: "\(token): it is in the past") }
            guard days <= Int(Self.farthest / .seconds(86_400)) + 2 else {
                throw UsageError(description: "\(token): \(Self.tooFarReason)")
            }
            let resolution = resolve(date, time, today: today)
            guard resolution.instant > now else { throw UsageError(description: "\(token): it is in the past") }
            guard resolution.instant <= latest else { throw UsageError(description: "\(token): \(Self.tooFarReason)") }
            return resolution
        case .instant(let instant):
            let what = typed.map { " '\($0)'" } ?? ""
            guard instant > now else {
                throw UsageError(description: "invalid alarm time\(what): \(describe(instant)) is in the past")
            }
            guard instant <= latest else {
                throw UsageError(description: "invalid alarm time\(what): \(Self.tooFarReason)")
            }
            return resolution(at: instant, today: today)
        }
    }

    /// `date` at `time` on the local clock, under the DST rule (see the type's summary).
    /// - Parameters:
    ///   - date: A local date.
    ///   - time: A time of day on the local clock.
    ///   - today: `now`'s local date, to set ``Resolution/isTomorrow``.
    /// - Returns: The resolution; never nil, whatever the zone does.
    package func resolve(_ date: CivilDate, _ time: TimeOfDay, today: CivilDate) -> Resolution {
        let naive = Int64(date.daysSinceEpoch) * 86_400 + Int64(time.secondsSinceMidnight)  // as if UTC
        let before = offset(at: naive - 86_400)
        let after = offset(at: naive + 86_400)
        let candidates = Set([naive - Int64(before), naive - Int64(after)]).filter {
            $0 + Int64(offset(at: $0)) == naive
        }.sorted()
        let tomorrow = today.adding(days: 1)
        if let first = candidates.first {
            let local = localFields(of: first)
            let note =
                candidates.count > 1
                ? "\(time) occurs twice on \(date) (clocks go back); rings at the first, \(time) \(local.offsetText)"
                : nil
            return Resolution(
                instant: WallInstant(unixSeconds: first), date: date, time: time, utcOffsetSeconds: local.offset,
                isTomorrow: date == tomorrow, note: note)
        }
        // A gap: the first instant whose offset is the later one lies in [naive - after, naive - before].
        let transition = firstInstant(from: naive - Int64(after), to: naive - Int64(before), withOffset: after)
        let local = localFields(of: transition)
        return Resolution(
            instant: WallInstant(unixSeconds: transition), date: local.date, time: local.time,
            utcOffsetSeconds: local.offset, isTomorrow: local.date == tomorrow,
            note: "\(time) does not exist on \(date) (clocks go forward); rings at \(local.time)")
    }

    /// The local date and time the wall clock shows at `instant` (an instant has exactly one).
    /// - Parameters:
    ///   - instant: A wall-clock instant.
    ///   - today: `now`'s local date, to set ``Resolution/isTomorrow``.
    /// - Returns: The resolution of `instant`, with no note.
    package func resolution(at instant: WallInstant, today: CivilDate) -> Resolution {
        let local = localFields(of: instant.unixSeconds)
        return Resolution(
            instant: instant, date: local.date, time: local.time, utcOffsetSeconds: local.offset,
            isTomorrow: local.date == today.adding(days: 1), note: nil)
    }

    /// The local calendar date at `instant`.
    /// - Parameter instant: A wall-clock instant.
    /// - Returns: The date in the process's time zone.
    package func localDate(of instant: WallInstant) -> CivilDate { localFields(of: instant.unixSeconds).date }

    /// The smallest second in `low...high` whose UTC offset is `offset`, by bisection.
    /// - Precondition: The offset at `high` is `offset`, and changes once in the range.
    private func firstInstant(from low: Int64, to high: Int64, withOffset offset: Int) -> Int64 {
        var (low, high) = (low, high)
        while low < high {
            let middle = low + (high - low) / 2
            if self.offset(at: middle) == offset { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The zone's offset east of UTC at `unixSeconds`, in seconds.
    private func offset(at unixSeconds: Int64) -> Int { localFields(of: unixSeconds).offset }

    /// The local date, time and offset at `unixSeconds`.
    ///
    /// C: `localtime_r`.
    private func localFields(of unixSeconds: Int64) -> (
        date: CivilDate, time: TimeOfDay, offset: Int, offsetText: String
    ) {
        var seconds = time_t(unixSeconds)
        var fields = tm()
        _ = localtime_r(&seconds, &fields)
        let date = CivilDate(year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday))!
        let time = TimeOfDay(
            hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: min(59, Int(fields.tm_sec)))!
        let zone = fields.tm_zone.map { String(cString: $0) } ?? ""
        let offset = Int(fields.tm_gmtoff)
        let magnitude = abs(offset) / 60
        let numeric = (offset < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
        return (date, time, offset, zone.isEmpty ? "(\(numeric))" : "\(zone) (\(numeric))")
    }

    /// `2026-12-24 17:00 UTC` for an instant named by the user.
    private func describe(_ instant: WallInstant) -> String {
        let seconds = instant.unixSeconds
        let (days, rest) = (
            Int(seconds.floorDivided(by: 86_400)), Int(seconds - seconds.floorDivided(by: 86_400) * 86_400)
        )
        let time = TimeOfDay(hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)!
        return "\(CivilDate(daysSinceEpoch: days)) \(time) UTC"
    }
}

extension Int64 {
    /// `self / divisor` rounded towards negative infinity.
    /// - Parameter divisor: Positive.
    /// - Returns: The floored quotient.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
