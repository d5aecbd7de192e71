import Testing
import TextCoding
import TimerEngineTestSupport
import TimerText

@testable import TimerEngine
@testable import eggtimer

/// A recorded `eggtimer at --every` series recovered (``AlarmRecovery``) and run in the
/// controller; the controller's own alarm tests are in TimerEngineTests' ScheduleTests.
@Suite struct AlarmRecoveryControllerTests {
    let boot = ContinuousClock.now

    @Test func aSeriesBackAfterAPowerOffRingsOnceAtMostThenGoesOn() throws {
        // Recorded: weekdays 07:15, armed for Friday 2026-11-27; off until Monday 07:20 Berlin.
        let record = ScheduleRecord(
            occurrence: utc(2026, 11, 27, 6, 15), date: CivilDate(year: 2026, month: 11, day: 27),
            time: clock(7, 15),
            every: "weekday")
        let monday = utc(2026, 11, 30, 6, 20)
        let recovery = try #require(
            inBerlin { AlarmRecovery(record, window: nil, now: monday, resolver: LocalTimeResolver()) })
        #expect(recovery.ringsNow)
        #expect(
            recovery.missedNote
                == "missed 1 while off (2026-11-27 07:15), not rung; the one at 2026-11-30 07:15 rings now")
        var alarm = Controller(configuration: .init(), start: .alarm(recovery.schedule, label: "wake"))
        let started = inBerlin {
            alarm.start(at: boot, wall: monday) + alarm.handle(round: [.tick], at: boot, wall: monday)
        }
        #expect(events(started).map(\.name) == [.started, .finished], "one ringing, at once")
        #expect(field(events(started).first, "recovered") == nil, "the note is the caller's to set")
        #expect(alarm.scheduledRing == utc(2026, 11, 30, 6, 15), "status: when it was due, not when it began")
        _ = inBerlin {
            alarm.handle(
                round: [.key(.character("x"))], at: boot + .seconds(5), wall: monday.advanced(by: .seconds(5)))
        }
        #expect(alarm.wallDeadline == utc(2026, 12, 1, 6, 15), "then Tuesday 07:15")

        // Off for two days past the window: nothing rings; the next one ahead is armed.
        let late = utc(2026, 12, 2, 8)
        let quiet = try #require(
            inBerlin { AlarmRecovery(record, window: .seconds(600), now: late, resolver: LocalTimeResolver()) })
        #expect(!quiet.ringsNow && quiet.schedule.occurrence.instant == utc(2026, 12, 3, 6, 15))
        #expect(quiet.missedNote == "missed 4 while off (2026-11-27 07:15 to 2026-12-02 07:15), not rung")
    }
}
