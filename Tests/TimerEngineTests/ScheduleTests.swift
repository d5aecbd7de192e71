import Glibc
import TestSupport
import Testing
import TextCoding
import TimerEngineTestSupport
import TimerText

@testable import TimerEngine

/// A date, from fields known to be valid.
private func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDate { CivilDate(year: year, month: month, day: day)! }

/// Runs `body` with the process's `TZ` set to `zone`, then restores the previous `TZ` (or its
/// absence) and re-reads it.
///
/// `TZ` is process-global: only the serialized ``ScheduleTests`` call this, and it holds the
/// lock that every test target's `TZ` changes share (``withTimeZone(_:_:)``).
private func inZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T { try withTimeZone(zone, body) }

/// Berlin as a named zone (needs tzdata) and as the equivalent POSIX rule (needs no files).
private let berlinZones = ["Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3"]

/// The schedule building blocks of issue 13 (alarms at a time of day, repeating alarms).
///
/// Serialized as a whole: some tests set the process-global `TZ`.
@Suite(.serialized) enum ScheduleTests {}

extension ScheduleTests {
    /// `eggtimer at TIME`: every accepted form and a clear, token-naming rejection for the rest.
    @Suite struct AlarmTimeParsing {
        @Test(arguments: [
            ("14:30", LocalAlarmTime.timeOfDay(clock(14, 30))),
            ("7:05", .timeOfDay(clock(7, 5))),
            ("07:05:30", .timeOfDay(clock(7, 5, 30))),
            ("0:00", .timeOfDay(clock(0, 0))),
            ("23:59", .timeOfDay(clock(23, 59))),
            ("7pm", .timeOfDay(clock(19, 0))),
            ("7PM", .timeOfDay(clock(19, 0))),
            ("7:30am", .timeOfDay(clock(7, 30))),
            ("12am", .timeOfDay(clock(0, 0))),
            ("12pm", .timeOfDay(clock(12, 0))),
            ("12:15am", .timeOfDay(clock(0, 15))),
            ("noon", .timeOfDay(clock(12, 0))),
            ("midnight", .timeOfDay(clock(0, 0))),
            ("  14:30 ", .timeOfDay(clock(14, 30))),
            ("tomorrow 07:00", .tomorrow(clock(7, 0))),
            ("Tomorrow 7am", .tomorrow(clock(7, 0))),
            ("tomorrow noon", .tomorrow(clock(12, 0))),
            ("2026-12-24 18:00", .date(day(2026, 12, 24), clock(18, 0))),
            ("2028-02-29 06:00:15", .date(day(2028, 2, 29), clock(6, 0, 15))),
            ("2026-12-24T18:00", .date(day(2026, 12, 24), clock(18, 0))),
            ("2026-12-24t18:00:30", .date(day(2026, 12, 24), clock(18, 0, 30))),
            ("2026-12-24T18:00Z", .instant(utc(2026, 12, 24, 18))),
            ("2026-12-24T18:00:00z", .instant(utc(2026, 12, 24, 18))),
            ("2026-12-24T18:00+01:00", .instant(utc(2026, 12, 24, 17))),
            ("2026-12-24T18:00+0100", .instant(utc(2026, 12, 24, 17))),
            ("2026-12-24T18:00-05:30", .instant(utc(2026, 12, 24, 23, 30))),
            ("2026-12-24 18:00+01", .instant(utc(2026, 12, 24, 17))),
            ("2026-12-24 7pm", .date(day(2026, 12, 24), clock(19, 0))),
        ])
        func acceptedFormsParse(text: String, expected: LocalAlarmTime) throws {
            #expect(try AlarmTimeParser.parse(text) == expected)
        }

        @Test(arguments: [
            ("25:00", "invalid alarm time '25:00': hour 25 must be 0–23"),
            ("24:00", "invalid alarm time '24:00': hour 24 must be 0–23"),
            ("7:60", "invalid alarm time '7:60': minute 60 must be 00–59"),
            ("7:5", "invalid alarm time '7:5': the minute '5' is not two digits"),
            ("7:05:61", "invalid alarm time '7:05:61': second 61 must be 00–59"),
            ("13pm", "invalid alarm time '13pm': hour 13 must be 1–12 with am/pm"),
            ("0am", "invalid alarm time '0am': hour 0 must be 1–12 with am/pm"),
            ("pm", "invalid alarm time 'pm': '' is not an hour such as 7pm or 7:30am"),
            // Boundary numbers: 0, ±1, the 32- and 64-bit limits, huge exponents, NaN, -0.
            ("-1:00", "invalid alarm time '-1:00': TIME is one of \(AlarmTimeParser.forms)"),
            ("+1:00", "invalid alarm time '+1:00': TIME is one of \(AlarmTimeParser.forms)"),
            (
                "2147483647:00",
                "invalid alarm time '2147483647:00': TIME is one of \(AlarmTimeParser.forms)"
            ),
            ("7:-0", "invalid alarm time '7:-0': the minute '-0' is not two digits"),
            ("7:1e999", "invalid alarm time '7:1e999': the minute '1e999' is not two digits"),
            ("nan", "invalid alarm time 'nan': TIME is one of \(AlarmTimeParser.forms)"),
            ("99:99", "invalid alarm time '99:99': hour 99 must be 0–23"),
            ("0000-01-01 10:00", "invalid alarm time '0000-01-01 10:00': there is no day 0000-01-01"),
            (
                "9223372036854775807-01-01 10:00",
                "invalid alarm time '9223372036854775807-01-01 10:00': the date '9223372036854775807-01-01' is not YYYY-MM-DD"
            ),
            ("0001-01-01T00:00+23:59", "invalid alarm time '0001-01-01T00:00+23:59': it is in the past"),
            ("1677-09-21T00:12:43Z", "invalid alarm time '1677-09-21T00:12:43Z': it is in the past"),
            (
                "9999-12-31T23:59-23:59",
                "invalid alarm time '9999-12-31T23:59-23:59': \(LocalTimeResolver.tooFarReason)"
            ),
            ("2262-04-11T23:47:17Z", "invalid alarm time '2262-04-11T23:47:17Z': \(LocalTimeResolver.tooFarReason)"),
            ("2026-02-30 10:00", "invalid alarm time '2026-02-30 10:00': there is no day 2026-02-30"),
            ("2027-02-29 10:00", "invalid alarm time '2027-02-29 10:00': there is no day 2027-02-29"),
            ("2026-13-01T10:00", "invalid alarm time '2026-13-01T10:00': there is no day 2026-13-01"),
            ("26-12-24 10:00", "invalid alarm time '26-12-24 10:00': the date '26-12-24' is not YYYY-MM-DD"),
            (
                "2026-12-24T18:00+25:00",
                "invalid alarm time '2026-12-24T18:00+25:00': the UTC offset '+25:00' is not Z, ±HH:MM or ±HHMM"
            ),
            (
                "2026-12-24T18:00+1",
                "invalid alarm time '2026-12-24T18:00+1': the UTC offset '+1' is not Z, ±HH:MM or ±HHMM"
            ),
            ("", "invalid alarm time '': TIME is one of \(AlarmTimeParser.forms)"),
            ("   ", "invalid alarm time '': TIME is one of \(AlarmTimeParser.forms)"),
            ("soon", "invalid alarm time 'soon': TIME is one of \(AlarmTimeParser.forms)"),
            (
                "14:30:00:00",
                "invalid alarm time '14:30:00:00': TIME is one of \(AlarmTimeParser.forms)"
            ),
            ("+7:00", "invalid alarm time '+7:00': TIME is one of \(AlarmTimeParser.forms)"),
            (
                "tomorrow",
                "invalid alarm time 'tomorrow': TIME is one of \(AlarmTimeParser.forms)"
            ),
            (
                "today 07:00",
                "invalid alarm time 'today 07:00': 'today' is not part of a time; TIME is one of \(AlarmTimeParser.forms)"
            ),
            (
                "tomorrow 07:00 please",
                "invalid alarm time 'tomorrow 07:00 please': 'please' is not part of a time; TIME is one of \(AlarmTimeParser.forms)"
            ),
            ("１４:30", "invalid alarm time '１４:30': TIME is one of \(AlarmTimeParser.forms)"),
        ])
        func otherTextIsRefusedNamingTheToken(text: String, message: String) {
            #expect(throws: UsageError(description: message)) { try AlarmTimeParser.parse(text) }
        }

        @Test func civilDatesCountDaysLikeTheCLibrary() {
            // Unix seconds from `date -u -d … +%s`.
            #expect(utc(1970, 1, 1, 0) == WallInstant(unixSeconds: 0))
            #expect(utc(2000, 2, 29, 0) == WallInstant(unixSeconds: 951_782_400))
            #expect(utc(2026, 3, 29, 1) == WallInstant(unixSeconds: 1_774_746_000))
            #expect(CivilDate(daysSinceEpoch: day(2028, 2, 29).daysSinceEpoch) == day(2028, 2, 29))
            #expect(day(2026, 11, 27).weekday == .friday)
            #expect(day(1970, 1, 1).weekday == .thursday)
            #expect(day(1969, 12, 28).weekday == .sunday)
        }
    }
}

extension ScheduleTests {
    /// Local times to wall-clock instants in a named zone, under the one DST rule; `TZ` is set per test.
    @Suite struct LocalTimeResolving {
        @Test func theBerlinZoneIsInstalled() {
            #expect(SystemTool.berlin.problem == nil, "the DST tests need \(SystemTool.berlin)")
        }

        @Test(arguments: berlinZones) func anOrdinaryDayRingsAtThatLocalTime(zone: String) throws {
            let resolution = try inZone(zone) {
                try LocalTimeResolver().resolve(.timeOfDay(clock(14, 30)), now: utc(2026, 11, 30, 10))
            }
            #expect(resolution.instant == utc(2026, 11, 30, 13, 30))  // CET is UTC+1
            #expect(resolution.date == day(2026, 11, 30) && resolution.time == clock(14, 30))
            #expect(!resolution.isTomorrow && resolution.note == nil)
            #expect(resolution.isoText == "2026-11-30T14:30:00+01:00")
        }

        @Test(arguments: berlinZones) func aTimeAlreadyPastTodayRingsTomorrow(zone: String) throws {
            let (past, exact) = try inZone(zone) {
                let resolver = LocalTimeResolver()
                let now = utc(2026, 11, 30, 10)  // 11:00 in Berlin
                return (
                    try resolver.resolve(.timeOfDay(clock(7, 0)), now: now),
                    try resolver.resolve(.timeOfDay(clock(11, 0)), now: now)
                )
            }
            #expect(past.instant == utc(2026, 12, 1, 6) && past.isTomorrow && past.date == day(2026, 12, 1))
            #expect(exact.instant == utc(2026, 12, 1, 10) && exact.isTomorrow, "now itself is already past")
        }

        @Test(arguments: berlinZones) func tomorrowAndDatesAreLocalDays(zone: String) throws {
            let (tomorrow, dated) = try inZone(zone) {
                let resolver = LocalTimeResolver()
                let now = utc(2026, 11, 30, 23, 30)  // already 00:30 on 1 December in Berlin
                return (
                    try resolver.resolve(.tomorrow(clock(7, 0)), now: now),
                    try resolver.resolve(.date(day(2026, 12, 24), clock(18, 0)), now: now)
                )
            }
            #expect(tomorrow.instant == utc(2026, 12, 2, 6) && tomorrow.isTomorrow)
            #expect(dated.instant == utc(2026, 12, 24, 17) && !dated.isTomorrow)
        }

        @Test(arguments: berlinZones) func aTimeInTheSpringGapRingsWhenTheGapEnds(zone: String) throws {
            let resolution = try inZone(zone) {
                try LocalTimeResolver().resolve(.date(day(2026, 3, 29), clock(2, 30)), now: utc(2026, 3, 28, 12))
            }
            #expect(resolution.instant == utc(2026, 3, 29, 1))  // 03:00 CEST
            #expect(resolution.time == clock(3, 0) && resolution.utcOffsetSeconds == 7200 && resolution.isTomorrow)
            #expect(resolution.note == "02:30 does not exist on 2026-03-29 (clocks go forward); rings at 03:00")
        }

        @Test(arguments: berlinZones) func aTimeInTheAutumnOverlapRingsAtItsFirstOccurrence(zone: String) throws {
            let resolution = try inZone(zone) {
                try LocalTimeResolver().resolve(.timeOfDay(clock(2, 30)), now: utc(2026, 10, 24, 20))
            }
            #expect(resolution.instant == utc(2026, 10, 25, 0, 30))  // 02:30 CEST, not 02:30 CET an hour later
            #expect(resolution.utcOffsetSeconds == 7200 && resolution.isoText == "2026-10-25T02:30:00+02:00")
            #expect(
                resolution.note
                    == "02:30 occurs twice on 2026-10-25 (clocks go back); rings at the first, 02:30 CEST (+02:00)")
        }

        @Test func timesJustOutsideTheDSTChangesAreOrdinary() throws {
            let (beforeGap, afterGap, afterOverlap) = try inZone("Europe/Berlin") {
                let resolver = LocalTimeResolver()
                let now = utc(2026, 3, 1, 0)
                return (
                    try resolver.resolve(.date(day(2026, 3, 29), clock(1, 59)), now: now),
                    try resolver.resolve(.date(day(2026, 3, 29), clock(3, 0)), now: now),
                    // An alarm is at most 999:59:59 ahead: October is asked about from October.
                    try resolver.resolve(.date(day(2026, 10, 25), clock(3, 0)), now: utc(2026, 10, 1, 0))
                )
            }
            #expect(beforeGap.instant == utc(2026, 3, 29, 0, 59) && beforeGap.note == nil)
            #expect(afterGap.instant == utc(2026, 3, 29, 1) && afterGap.note == nil)
            #expect(afterOverlap.instant == utc(2026, 10, 25, 2) && afterOverlap.note == nil)
        }

        @Test func pastDatesAndInstantsAreRefused() {
            inZone("Europe/Berlin") {
                let resolver = LocalTimeResolver()
                let now = utc(2026, 11, 30, 10)
                #expect(throws: UsageError(description: "invalid alarm time '2026-11-30 11:00': it is in the past")) {
                    try resolver.resolve(.date(day(2026, 11, 30), clock(11, 0)), now: now)
                }
                #expect(throws: UsageError(description: "invalid alarm time: 2026-11-30 09:00 UTC is in the past")) {
                    try resolver.resolve(.instant(utc(2026, 11, 30, 9)), now: now)
                }
                #expect(throws: UsageError(description: "invalid alarm time '2026-11-30T11:00': it is in the past")) {
                    try resolver.resolve(.date(day(2026, 11, 30), clock(11, 0)), now: now, typed: "2026-11-30T11:00")
                }
                #expect((try? resolver.resolve(.instant(utc(2026, 11, 30, 11)), now: now))?.time == clock(12, 0))
            }
        }

        /// An alarm may be at most 999:59:59 ahead, as the longest countdown; the calendar's ends
        /// and the wall clock's (Int64 nanoseconds) are refused as past or too far, never a trap.
        @Test func alarmsMoreThanTheLongestCountdownAheadAreRefused() throws {
            try inZone("Europe/Berlin") { () throws -> Void in
                let resolver = LocalTimeResolver()
                let now = utc(2026, 11, 30, 10)  // the limit is 2027-01-11 01:59:59 UTC, 02:59:59 in Berlin
                let tooFar = UsageError(
                    description: "invalid alarm time '2027-01-11 03:00': \(LocalTimeResolver.tooFarReason)")
                #expect(throws: tooFar) { try resolver.resolve(.date(day(2027, 1, 11), clock(3, 0)), now: now) }
                #expect(
                    try resolver.resolve(.date(day(2027, 1, 11), clock(2, 59, 59)), now: now).date == day(2027, 1, 11))
                let latest = WallInstant(unixSeconds: utc(2027, 1, 11, 1, 59).unixSeconds + 59)
                #expect(try resolver.resolve(.instant(latest), now: now).instant == latest)
                let later = WallInstant(unixNanoseconds: latest.unixNanoseconds + 1)
                #expect(throws: UsageError(description: "invalid alarm time: \(LocalTimeResolver.tooFarReason)")) {
                    try resolver.resolve(.instant(later), now: now)
                }
                for far in [day(9999, 12, 31), day(2027, 2, 1), day(2262, 4, 12)] {
                    #expect(throws: UsageError.self) { try resolver.resolve(.date(far, clock(0, 0)), now: now) }
                }
                for past in [day(1, 1, 1), day(1677, 9, 20), day(2026, 11, 28)] {
                    #expect(throws: UsageError(description: "invalid alarm time '\(past) 23:59': it is in the past")) {
                        try resolver.resolve(.date(past, clock(23, 59)), now: now)
                    }
                }
                for extreme in [Int64.max, Int64.min, Int64.min + 1, 0, -1] {
                    #expect(throws: UsageError.self) {
                        try resolver.resolve(.instant(WallInstant(unixNanoseconds: extreme)), now: now)
                    }
                }
            }
        }

        @Test func utcAndFractionalOffsetsAreWritten() throws {
            let india = try inZone("XST-5:30") {
                try LocalTimeResolver().resolve(.timeOfDay(clock(7, 0)), now: utc(2026, 11, 30, 0))
            }
            #expect(india.instant == utc(2026, 11, 30, 1, 30) && india.isoText == "2026-11-30T07:00:00+05:30")
            let west = try inZone("XST+3:30") {
                try LocalTimeResolver().resolve(.timeOfDay(clock(7, 0)), now: utc(2026, 11, 30, 0))
            }
            #expect(west.utcOffsetText == "-03:30" && west.instant == utc(2026, 11, 30, 10, 30))
        }
    }
}

extension ScheduleTests {
    /// `--every`: parsing, and the next occurrence in local time (in Berlin, DST included).
    @Suite struct Recurring {
        @Test(arguments: [
            ("day", Recurrence.daily),
            ("daily", .daily),
            ("weekday", .weekdays),
            ("Weekend", .weekends),
            ("mon,wed,fri", .days([.monday, .wednesday, .friday])),
            ("sun", .days([.sunday])),
            ("Tuesday,thu", .days([.tuesday, .thursday])),
            ("2h", .interval(.seconds(7200))),
            ("90m", .interval(.seconds(5400))),
            ("1m", .interval(.seconds(60))),
        ])
        func acceptedValuesParse(text: String, expected: Recurrence) throws {
            #expect(try Recurrence.parse(text) == expected)
        }

        @Test(arguments: [
            ("fortnight", "invalid --every 'fortnight': 'fortnight' is not a day (mon, tue, wed, thu, fri, sat, sun)"),
            ("mon,,fri", "invalid --every 'mon,,fri': '' is not a day (mon, tue, wed, thu, fri, sat, sun)"),
            ("mon,mon", "invalid --every 'mon,mon': 'mon' is given twice"),
            ("mon fri", "invalid --every 'mon fri': 'mon fri' is not a day (mon, tue, wed, thu, fri, sat, sun)"),
            ("30s", "invalid --every '30s': an interval must be 1 minute or more"),
            (
                "0",
                "invalid --every '0': give day, weekday, weekend, days such as mon,wed,fri, or an interval such as 2h"
            ),
            ("", "invalid --every '': give day, weekday, weekend, days such as mon,wed,fri, or an interval such as 2h"),
            (
                "-2h",
                "invalid --every '-2h': give day, weekday, weekend, days such as mon,wed,fri, or an interval such as 2h"
            ),
        ])
        func otherValuesAreRefusedNamingThem(text: String, message: String) {
            #expect(throws: UsageError(description: message)) { try Recurrence.parse(text) }
        }

        /// The next occurrences of `recurrence` at `time` after `start`, in Berlin.
        private func occurrences(
            _ recurrence: Recurrence, at time: TimeOfDay, after start: WallInstant, count: Int
        ) -> [LocalTimeResolver.Resolution] {
            inZone("Europe/Berlin") {
                let resolver = LocalTimeResolver()
                var (instant, found) = (start, [LocalTimeResolver.Resolution]())
                for _ in 0..<count {
                    found.append(recurrence.next(after: instant, at: time, resolver: resolver))
                    instant = found[found.count - 1].instant
                }
                return found
            }
        }

        @Test func weekdaysFromAFridayArmMonday() {
            // Friday 2026-11-27 07:15 CET rang; the next is Monday 2026-11-30 07:15.
            let next = occurrences(.weekdays, at: clock(7, 15), after: utc(2026, 11, 27, 6, 15), count: 2)
            #expect(next.map(\.date) == [day(2026, 11, 30), day(2026, 12, 1)])
            #expect(next[0].instant == utc(2026, 11, 30, 6, 15))
        }

        @Test func aWeekendFromMondayArmsSaturday() {
            let next = occurrences(.weekends, at: clock(9, 0), after: utc(2026, 11, 30, 8), count: 3)
            #expect(next.map(\.date) == [day(2026, 12, 5), day(2026, 12, 6), day(2026, 12, 12)])
        }

        @Test func chosenDaysFollowEachOther() {
            let days = Recurrence.days([.monday, .wednesday, .friday])
            // Monday 10:00 local, before the 18:30 alarm: today counts.
            let next = occurrences(days, at: clock(18, 30), after: utc(2026, 11, 30, 9), count: 4)
            #expect(next.map(\.date) == [day(2026, 11, 30), day(2026, 12, 2), day(2026, 12, 4), day(2026, 12, 7)])
            #expect(next.allSatisfy { $0.time == clock(18, 30) })
        }

        @Test func anIntervalAddsRealTime() {
            // Across the autumn change: 01:30 CEST + 2 h of real time is 02:30 CET.
            let next = occurrences(
                .interval(.seconds(7200)), at: clock(0, 0), after: utc(2026, 10, 24, 23, 30), count: 2)
            #expect(next.map(\.instant) == [utc(2026, 10, 25, 1, 30), utc(2026, 10, 25, 3, 30)])
            #expect(next.map(\.time) == [clock(2, 30), clock(4, 30)])
        }

        @Test func aDailyAlarmStaysAtItsLocalTimeAcrossDSTChanges() {
            let spring = occurrences(.daily, at: clock(7, 0), after: utc(2026, 3, 27, 6), count: 3)
            #expect(spring.map(\.instant) == [utc(2026, 3, 28, 6), utc(2026, 3, 29, 5), utc(2026, 3, 30, 5)])
            #expect(spring.allSatisfy { $0.time == clock(7, 0) && $0.note == nil })
            let autumn = occurrences(.daily, at: clock(7, 0), after: utc(2026, 10, 24, 5), count: 2)
            #expect(autumn.map(\.instant) == [utc(2026, 10, 25, 6), utc(2026, 10, 26, 6)])
        }

        @Test func aDailyAlarmInTheGapFollowsTheRule() {
            let next = occurrences(.daily, at: clock(2, 30), after: utc(2026, 3, 28, 1, 30), count: 2)
            #expect(next.map(\.instant) == [utc(2026, 3, 29, 1), utc(2026, 3, 30, 0, 30)])
            #expect(next[0].note == "02:30 does not exist on 2026-03-29 (clocks go forward); rings at 03:00")
            #expect(next[1].note == nil && next[1].time == clock(2, 30))
        }
    }
}

extension ScheduleTests {
    /// Occurrences that passed while nothing ran: reported, and only the latest rings, if recent.
    @Suite struct Missing {
        private let hourly = { (instant: WallInstant) in instant.advanced(by: .seconds(3600)) }
        private let start = utc(2026, 11, 30, 6)

        @Test func aFutureOccurrenceIsJustArmed() {
            let result = MissedOccurrences(scheduled: start, now: start.advanced(by: .seconds(-1)), next: hourly)
            #expect(result.missed.isEmpty && result.missedCount == 0 && result.ringNow == nil && result.next == start)
        }

        @Test func theLatestRingsOnceWithinTheWindowAndTheRestAreReported() {
            // Off from before 06:00 to 09:20: 06:00, 07:00, 08:00 and 09:00 passed.
            let result = MissedOccurrences(scheduled: start, now: utc(2026, 11, 30, 9, 20), next: hourly)
            #expect(result.ringNow == utc(2026, 11, 30, 9))
            #expect(result.missed == [start, utc(2026, 11, 30, 7), utc(2026, 11, 30, 8)] && result.missedCount == 3)
            #expect(result.next == utc(2026, 11, 30, 10))
        }

        @Test func anOccurrenceOlderThanTheWindowIsOnlyReported() {
            let daily = { (instant: WallInstant) in instant.advanced(by: .seconds(86_400)) }
            let now = utc(2026, 12, 2, 7, 30)
            let defaultWindow = MissedOccurrences(scheduled: start, now: now, next: daily)
            #expect(defaultWindow.ringNow == nil && defaultWindow.missedCount == 3)
            #expect(defaultWindow.missed.last == utc(2026, 12, 2, 6) && defaultWindow.next == utc(2026, 12, 3, 6))
            let ringFor = MissedOccurrences(scheduled: start, now: now, window: .seconds(5400), next: daily)
            #expect(ringFor.ringNow == utc(2026, 12, 2, 6) && ringFor.missedCount == 2)
            let edge = MissedOccurrences(scheduled: start, now: utc(2026, 11, 30, 7), next: daily)
            #expect(edge.ringNow == start && edge.missedCount == 0, "exactly an hour late still rings")
        }

        @Test func aLongPowerOffCountsAllButListsTheOldest() {
            let minutely = { (instant: WallInstant) in instant.advanced(by: .seconds(60)) }
            let result = MissedOccurrences(
                scheduled: start, now: start.advanced(by: .seconds(60 * 1000)), next: minutely)
            #expect(result.ringNow == start.advanced(by: .seconds(60 * 1000)))
            #expect(result.missedCount == 1000 && result.missed.count == MissedOccurrences.listLimit)
            #expect(result.missed.first == start && result.next == start.advanced(by: .seconds(60 * 1001)))
        }

        @Test func aWeekdaySeriesAfterAWeekendOffSkipsToTheNextWeekday() {
            // Off from Friday 06:00 to Monday 07:20 (Berlin): Friday and Monday 07:15 passed; Monday rings.
            let result = inZone("Europe/Berlin") {
                let resolver = LocalTimeResolver()
                return MissedOccurrences(scheduled: utc(2026, 11, 27, 6, 15), now: utc(2026, 11, 30, 6, 20)) {
                    Recurrence.weekdays.next(after: $0, at: clock(7, 15), resolver: resolver).instant
                }
            }
            #expect(result.missed == [utc(2026, 11, 27, 6, 15)] && result.ringNow == utc(2026, 11, 30, 6, 15))
            #expect(result.next == utc(2026, 12, 1, 6, 15))
        }
    }
}
