import Glibc
package import TimerText

/// Brings an alarm at a time back from its record (`eggtimer recover` after a reboot or a `kill
/// -9`): its occurrence resolved again, and for a series the occurrences that passed while nothing
/// ran reported in one line, not rung in a burst: only the latest rings at once, if it is within
/// `--ring-for` (else an hour); otherwise the next one ahead is armed (``MissedOccurrences``).
///
/// Pure but for the zone (``LocalTimeResolver``); the wall clock is passed in.
package struct AlarmRecovery: Equatable {
    /// The alarm to start (an occurrence already due rings at once).
    package var schedule: AlarmSchedule
    /// Whether the armed occurrence has passed and rings at once.
    package var ringsNow: Bool
    /// One line on the occurrences missed; nil when none were.
    package var missedNote: String?

    /// Plans the recovery of `record` at `now`.
    /// - Parameters:
    ///   - record: The alarm as recorded.
    ///   - window: How late the latest missed occurrence may still ring: `--ring-for`, else an hour.
    ///   - now: The wall clock now.
    ///   - resolver: The local time zone.
    ///
    /// Nil when the record's schedule cannot be read back.
    package init?(_ record: ScheduleRecord, window: Duration?, now: WallInstant, resolver: LocalTimeResolver) {
        guard var schedule = AlarmSchedule(restoring: record, now: now, resolver: resolver) else { return nil }
        guard let recurrence = schedule.recurrence, schedule.occurrence.instant <= now else {
            (self.schedule, ringsNow, missedNote) = (schedule, schedule.occurrence.instant <= now, nil)
            return
        }
        let time = schedule.time
        let missed = MissedOccurrences(
            scheduled: schedule.occurrence.instant, now: now, window: window ?? MissedOccurrences.defaultWindow
        ) { recurrence.next(after: $0, at: time, resolver: resolver).instant }
        let today = resolver.localDate(of: now)
        schedule.arm(resolver.resolution(at: missed.ringNow ?? missed.next, today: today), now: now, resolver: resolver)
        self.schedule = schedule
        ringsNow = missed.ringNow != nil
        let local = { (instant: WallInstant) in
            let resolution = resolver.resolution(at: instant, today: today)
            return "\(resolution.date) \(resolution.time)"
        }
        var parts: [String] = []
        if missed.missedCount > 0, let first = missed.missed.first, let last = missed.missed.last {
            let range = missed.missedCount == 1 ? local(first) : "\(local(first)) to \(local(last))"
            parts.append("missed \(missed.missedCount) while off (\(range)), not rung")
        }
        if let ringNow = missed.ringNow { parts.append("the one at \(local(ringNow)) rings now") }
        missedNote = parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The wall clock now, for a process that starts the recovery.
    ///
    /// C: `clock_gettime(CLOCK_REALTIME)`.
    package static func wallNow() -> WallInstant {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return WallInstant(unixNanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
    }
}
