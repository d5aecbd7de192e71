import Glibc
import Testing
import TextCoding
import TimerEngineTestSupport
import TimerText

@testable import TimerEngine

extension ScheduleTests {
    /// `eggtimer at` in the controller, on a boot clock and a wall clock that each test moves on its
    /// own: the alarm follows the wall clock, a countdown the boot clock.
    @Suite struct AlarmController {
        let boot = ContinuousClock.now
        /// Monday 2026-11-30 10:00 UTC, 11:00 in Berlin.
        let wall = utc(2026, 11, 30, 10)

        /// A controller for `eggtimer at TIME [--every]`, started at (`boot`, `start`).
        private func alarm(
            _ time: LocalAlarmTime, every: Recurrence? = nil, start: WallInstant? = nil
        ) throws -> (Controller, [Effect]) {
            try inBerlin {
                let schedule = try AlarmSchedule(
                    time, every: every.map { ($0, text: "every") }, now: start ?? wall, resolver: LocalTimeResolver())
                var controller = Controller(configuration: .init(), start: .alarm(schedule, label: "alarm"))
                let effects = controller.start(at: boot, wall: start ?? wall)
                return (controller, effects)
            }
        }

        /// The boot deadline of the running countdown.
        private func deadline(_ controller: Controller) -> ContinuousClock.Instant? {
            controller.currentRun?.countdown.deadline
        }

        @Test func wallStepsMoveTheAlarmWhileACountdownBesideItStays() throws {
            var (alarm, started) = try alarm(.timeOfDay(clock(14, 0)))  // 13:00 UTC: 3 h ahead
            #expect(field(events(started).first, "at") == "2026-11-30T14:00:00+01:00")
            #expect(deadline(alarm) == boot + .seconds(3 * 3600))
            var countdown = Controller(configuration: .init(), start: .plain(.seconds(3 * 3600)))
            _ = countdown.start(at: boot, wall: wall)

            // The wall clock is set an hour forward 10 s later: the alarm is an hour nearer.
            let forward = (boot + .seconds(10), wall.advanced(by: .seconds(10 + 3600)))
            let moved = inBerlin { alarm.handle(round: [.tick], at: forward.0, wall: forward.1) }
            _ = countdown.handle(round: [.tick], at: forward.0, wall: forward.1)
            #expect(deadline(alarm) == boot + .seconds(2 * 3600))
            #expect(deadline(countdown) == boot + .seconds(3 * 3600))
            let rescheduled = events(moved).first { $0.name == .rescheduled }
            #expect(field(rescheduled, "step_ms") == "3600000")

            // Then an hour back: both where they were.
            let back = (boot + .seconds(20), wall.advanced(by: .seconds(20)))
            _ = inBerlin { alarm.handle(round: [.tick], at: back.0, wall: back.1) }
            _ = countdown.handle(round: [.tick], at: back.0, wall: back.1)
            #expect(deadline(alarm) == boot + .seconds(3 * 3600))
            #expect(deadline(countdown) == boot + .seconds(3 * 3600))
            #expect(alarm.wallDeadline == utc(2026, 11, 30, 13))
        }

        @Test func theWallClockWithoutAStepLeavesTheDeadline() throws {
            var (alarm, _) = try alarm(.timeOfDay(clock(14, 0)))
            let effects = inBerlin {
                alarm.handle(round: [.tick], at: boot + .seconds(60), wall: wall.advanced(by: .seconds(60)))
            }
            #expect(!events(effects).contains { $0.name == .rescheduled })
            #expect(deadline(alarm) == boot + .seconds(3 * 3600))
        }

        @Test func aStepPastTheDeadlineRingsAtOnce() throws {
            var (alarm, _) = try alarm(.timeOfDay(clock(14, 0)))
            let now = boot + .seconds(5)
            let effects = inBerlin { alarm.handle(round: [.tick], at: now, wall: utc(2026, 11, 30, 15)) }
            #expect(events(effects).map(\.name) == [.rescheduled, .finished])
            #expect(effects.contains(.startAlarm(at: now, loops: nil)))
            guard case .ringing(let ringing) = alarm.mode else {
                Issue.record("not ringing: \(alarm.mode)")
                return
            }
            #expect(ringing.since == now)
        }

        /// `status` shows when the alarm is scheduled to ring, not the boot deadline read back on
        /// the wall clock (a step past it rings at once, later than scheduled).
        @Test func aRingingAlarmShowsItsScheduledTime() throws {
            var (alarm, _) = try alarm(.timeOfDay(clock(14, 0)))
            #expect(alarm.scheduledRing == utc(2026, 11, 30, 13))
            _ = inBerlin { alarm.handle(round: [.tick], at: boot + .seconds(5), wall: utc(2026, 11, 30, 15)) }
            guard case .ringing = alarm.mode else {
                Issue.record("not ringing: \(alarm.mode)")
                return
            }
            #expect(alarm.wallDeadline == nil)
            #expect(alarm.scheduledRing == utc(2026, 11, 30, 13), "14:00 Berlin, not 16:00 when it began")
            _ = alarm.handle(round: [.key(.character("z"))], at: boot + .seconds(6), wall: utc(2026, 11, 30, 15))
            #expect(alarm.scheduledRing == nil, "snoozed: the snooze's own deadline")
        }

        @Test func aSpringGapTimeRingsWhenTheGapEndsAndSaysSo() throws {
            let (_, effects) = try alarm(
                .date(CivilDate(year: 2026, month: 3, day: 29)!, clock(2, 30)), start: utc(2026, 3, 28, 12))
            let started = events(effects).first
            #expect(field(started, "at") == "2026-03-29T03:00:00+02:00")
            #expect(field(started, "rule") == "02:30 does not exist on 2026-03-29 (clocks go forward); rings at 03:00")
            #expect(field(started, "rings") == "tomorrow at 03:00")
        }

        @Test func anAutumnOverlapTimeRingsAtItsFirstOccurrence() throws {
            let (alarm, effects) = try alarm(.timeOfDay(clock(2, 30)), start: utc(2026, 10, 24, 20))
            let started = events(effects).first
            #expect(field(started, "at") == "2026-10-25T02:30:00+02:00")
            #expect(field(started, "rule")?.hasPrefix("02:30 occurs twice on 2026-10-25") == true)
            #expect(alarm.wallDeadline == utc(2026, 10, 25, 0, 30))
            #expect(deadline(alarm) == boot + .seconds(4 * 3600 + 1800))
        }

        @Test func aWeekdayAlarmAcknowledgedOnAFridayArmsMonday() throws {
            // Friday 2026-11-27 06:00 UTC (07:00 Berlin); the alarm is 07:15 on weekdays.
            let friday = utc(2026, 11, 27, 6)
            var (alarm, _) = try alarm(.timeOfDay(clock(7, 15)), every: .weekdays, start: friday)
            let due = boot + .seconds(15 * 60)
            _ = inBerlin { alarm.handle(round: [.tick], at: due, wall: friday.advanced(by: .seconds(15 * 60))) }
            guard case .ringing = alarm.mode else {
                Issue.record("not ringing at the deadline: \(alarm.mode)")
                return
            }
            let later = (due + .seconds(30), friday.advanced(by: .seconds(15 * 60 + 30)))
            let effects = inBerlin { alarm.handle(round: [.key(.character("x"))], at: later.0, wall: later.1) }
            #expect(alarm.wallDeadline == utc(2026, 11, 30, 6, 15), "Monday 07:15 CET")
            #expect(alarm.schedule?.occurrence.isoText == "2026-11-30T07:15:00+01:00")
            #expect(deadline(alarm) == boot + .seconds(15 * 60 + 3 * 86_400))
            #expect(!effects.contains { if case .exit = $0 { true } else { false } })
            #expect(alarm.state == .counting)
        }

        @Test func aWeekdaySeriesStartedOnASaturdayFirstRingsOnMonday() throws {
            let saturday = utc(2026, 11, 28, 6)  // 07:00 in Berlin, before 07:15
            let (alarm, effects) = try alarm(.timeOfDay(clock(7, 15)), every: .weekdays, start: saturday)
            #expect(alarm.wallDeadline == utc(2026, 11, 30, 6, 15))
            #expect(field(events(effects).first, "rings") == "on 2026-11-30 at 07:15")
        }

        @Test func snoozeDelaysOnlyThisRingAndCancelEndsTheSeries() throws {
            let friday = utc(2026, 11, 27, 6)
            var (alarm, _) = try alarm(.timeOfDay(clock(7, 15)), every: .weekdays, start: friday)
            let due = boot + .seconds(15 * 60)
            _ = inBerlin { alarm.handle(round: [.tick], at: due, wall: friday.advanced(by: .seconds(15 * 60))) }
            _ = inBerlin {
                alarm.handle(
                    round: [.key(.character("z"))], at: due + .seconds(1), wall: friday.advanced(by: .seconds(901)))
            }
            #expect(alarm.state == .snoozed && alarm.wallDeadline == nil, "a snooze waits real time")
            // The snooze rings 10 min later and is acknowledged: the series goes on with Monday.
            let again = due + .seconds(601)
            _ = inBerlin { alarm.handle(round: [.tick], at: again, wall: friday.advanced(by: .seconds(1501))) }
            _ = inBerlin {
                alarm.handle(
                    round: [.signal(SIGUSR1)], at: again + .seconds(1), wall: friday.advanced(by: .seconds(1502)))
            }
            #expect(alarm.wallDeadline == utc(2026, 11, 30, 6, 15))
            _ = inBerlin {
                alarm.handle(
                    round: [.key(.character("c"))], at: again + .seconds(2), wall: friday.advanced(by: .seconds(1503)))
            }
            #expect(alarm.mode == .exited(.cancelled), "the exit waits for the player's stop report")
        }
    }
}
