package import TextCoding
package import TimerText

/// An alarm at a time (`eggtimer at TIME [--every WHEN]`): which local time it means, the
/// occurrence armed now, and how the series repeats.
///
/// The occurrence is a wall-clock instant (UTC); it is kept as a local date and time as well, so
/// it can be resolved again when the wall clock is set (the local→UTC mapping may have changed).
/// Pure: the wall clock and the zone (``LocalTimeResolver``) are passed in. A plain value.
package struct AlarmSchedule: Equatable, Sendable {
    /// What the occurrence armed now means, for resolving it again.
    package enum Target: Equatable, Sendable {
        /// A local date and time of day (before the DST rule).
        case local(CivilDate, TimeOfDay)
        /// A fixed instant: written with a UTC offset, or an interval series' real-time step.
        case instant(WallInstant)
    }

    /// The alarm's local time of day, as asked (02:30 even where a gap moved it to 03:00).
    package let time: TimeOfDay
    /// How it repeats; nil: rings once.
    package let recurrence: Recurrence?
    /// `--every` as typed (`weekday`), for the log and `status`; nil without one.
    package let recurrenceText: String?
    /// What the armed occurrence means.
    package private(set) var target: Target
    /// The armed occurrence: when it rings, its local date, time and UTC offset, the DST note.
    package private(set) var occurrence: LocalTimeResolver.Resolution
    /// How the occurrence was said when armed: `at 14:30`, `tomorrow at 07:00`,
    /// `on 2026-12-24 at 18:00`.
    package private(set) var whenText: String

    /// The first occurrence of `alarm` after `now`.
    /// - Parameters:
    ///   - alarm: The parsed `TIME`.
    ///   - recurrence: `--every`, with its text as typed; nil for none.
    ///   - now: The wall clock now.
    ///   - resolver: The local time zone.
    ///   - typed: `TIME` as typed, named in an error; nil: as read.
    /// - Throws: `UsageError` when a date, `tomorrow` time or instant is not after `now`.
    package init(
        _ alarm: LocalAlarmTime, every recurrence: (Recurrence, text: String)?, now: WallInstant,
        resolver: LocalTimeResolver, typed: String? = nil
    ) throws(UsageError) {
        let resolution = try resolver.resolve(alarm, now: now, typed: typed)
        switch alarm {
        case .timeOfDay(let asked), .tomorrow(let asked):
            (time, target) = (asked, .local(resolution.date, asked))
        case .date(let date, let asked):
            (time, target) = (asked, .local(date, asked))
        case .instant(let instant):
            (time, target) = (resolution.time, .instant(instant))
        }
        (self.recurrence, recurrenceText) = (recurrence?.0, recurrence?.text)
        occurrence = resolution
        whenText = Self.when(resolution, today: resolver.localDate(of: now))
        if case .days(let weekdays) = recurrence?.0, !weekdays.contains(resolution.date.weekday) {
            // `at 7:15 --every weekday` on a Saturday: the first ring is Monday's.
            arm(
                recurrence!.0.next(after: resolution.instant, at: time, resolver: resolver), now: now,
                resolver: resolver)
        }
    }

    /// What `eggtimer recover` found when it brought the alarm back (occurrences missed while
    /// nothing ran), said once with the first `started` event; nil otherwise.
    package var recoveredNote: String?

    /// An alarm read back from its record (``TimerRecord/schedule``), its occurrence resolved
    /// again under the zone's rules in force now.
    /// - Parameters:
    ///   - record: What the record says.
    ///   - now: The wall clock now.
    ///   - resolver: The local time zone.
    ///
    /// Nil when the record's `--every` no longer parses.
    package init?(restoring record: ScheduleRecord, now: WallInstant, resolver: LocalTimeResolver) {
        let recurrence = record.every.flatMap { try? Recurrence.parse($0) }
        guard record.every == nil || recurrence != nil else { return nil }
        (time, self.recurrence, recurrenceText) = (record.time, recurrence, record.every)
        target = record.date.map { .local($0, record.time) } ?? .instant(record.occurrence)
        occurrence = resolver.resolution(at: record.occurrence, today: resolver.localDate(of: now))
        whenText = ""
        resolveAgain(now: now, resolver: resolver)
    }

    /// What a record keeps of this alarm.
    package var record: ScheduleRecord {
        var date: CivilDate?
        if case .local(let local, _) = target { date = local }
        return ScheduleRecord(occurrence: occurrence.instant, date: date, time: time, every: recurrenceText)
    }

    /// Resolves the armed occurrence again (the wall clock was set; the zone's rules may have
    /// changed): the same local date and time under the mapping in force now.
    /// - Parameters:
    ///   - now: The wall clock now.
    ///   - resolver: The local time zone.
    package mutating func resolveAgain(now: WallInstant, resolver: LocalTimeResolver) {
        let today = resolver.localDate(of: now)
        switch target {
        case .local(let date, let time): occurrence = resolver.resolve(date, time, today: today)
        case .instant(let instant): occurrence = resolver.resolution(at: instant, today: today)
        }
        whenText = Self.when(occurrence, today: today)
    }

    /// Arms the series' next occurrence: the first after the armed one that is after `now`.
    /// - Parameters:
    ///   - now: The wall clock now.
    ///   - resolver: The local time zone.
    /// - Returns: false, changing nothing, for an alarm that does not repeat.
    package mutating func advance(now: WallInstant, resolver: LocalTimeResolver) -> Bool {
        guard let recurrence else { return false }
        var next = occurrence
        repeat { next = recurrence.next(after: next.instant, at: time, resolver: resolver) } while next.instant <= now
        arm(next, now: now, resolver: resolver)
        return true
    }

    /// Arms `resolution` as the occurrence (``MissedOccurrences`` picked it).
    /// - Parameters:
    ///   - resolution: The occurrence.
    ///   - now: The wall clock now, for ``whenText``.
    ///   - resolver: The local time zone.
    package mutating func arm(_ resolution: LocalTimeResolver.Resolution, now: WallInstant, resolver: LocalTimeResolver)
    {
        occurrence = resolution
        if case .interval = recurrence {
            target = .instant(resolution.instant)
        } else {
            target = .local(resolution.date, time)
        }
        whenText = Self.when(resolution, today: resolver.localDate(of: now))
    }

    /// `at 14:30`, `tomorrow at 07:00`, `on 2026-12-24 at 18:00`.
    private static func when(_ resolution: LocalTimeResolver.Resolution, today: CivilDate) -> String {
        if resolution.date == today { return "at \(resolution.time)" }
        if resolution.date == today.adding(days: 1) { return "tomorrow at \(resolution.time)" }
        return "on \(resolution.date) at \(resolution.time)"
    }
}

/// An alarm at a time as a timer record keeps it (``TimerRecord``): enough to resolve it again after
/// a restart and to go on with its series.
package struct ScheduleRecord: Equatable, Sendable {
    /// The armed occurrence (UTC): `alarm_unix_ns`.
    package var occurrence: WallInstant
    /// Its local date, `alarm_date`; nil when it is a fixed instant (a written UTC offset, an
    /// interval series).
    package var date: CivilDate?
    /// The alarm's local time of day as asked, `alarm_time`.
    package var time: TimeOfDay
    /// `--every` as typed, `every`; nil for a single alarm.
    package var every: String?

    /// A record's alarm at a time, as its fields read (the memberwise initializer, for the
    /// executable's record parser).
    package init(occurrence: WallInstant, date: CivilDate?, time: TimeOfDay, every: String?) {
        (self.occurrence, self.date, self.time, self.every) = (occurrence, date, time, every)
    }
}
