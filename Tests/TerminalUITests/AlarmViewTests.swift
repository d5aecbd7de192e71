import Testing
import TextCoding
import TimerEngineTestSupport
import TimerText

@testable import TerminalUI
@testable import TimerEngine

/// What the screen says for `eggtimer at` (its title, its legend), on a boot clock and a wall
/// clock that each test moves on its own; the controller's side is in TimerEngineTests'
/// ScheduleTests.AlarmController.
@Suite struct AlarmViewTests {
    let boot = ContinuousClock.now
    /// Monday 2026-11-30 10:00 UTC, 11:00 in Berlin.
    let wall = utc(2026, 11, 30, 10)

    /// A controller for `eggtimer at TIME`, started at (`boot`, `wall`).
    private func alarm(_ time: LocalAlarmTime) throws -> (Controller, [Effect]) {
        try inBerlin {
            let schedule = try AlarmSchedule(time, every: nil, now: wall, resolver: LocalTimeResolver())
            var controller = Controller(configuration: .init(), start: .alarm(schedule, label: "alarm"))
            let effects = controller.start(at: boot, wall: wall)
            return (controller, effects)
        }
    }

    /// The boot deadline of the running countdown.
    private func deadline(_ controller: Controller) -> ContinuousClock.Instant? {
        controller.currentRun?.countdown.deadline
    }

    @Test func theScreenAndThePlainLogSayWhenItRingsAndTheTimeLeft() throws {
        let (alarm, started) = try alarm(.timeOfDay(clock(7, 0)))  // 11:00 in Berlin: tomorrow
        let run = try #require(alarm.currentRun)
        #expect(View().title(alarm, run, at: boot + .seconds(1)) == "Rings tomorrow at 07:00, in 19:59:59.")
        let event = try #require(events(started).first)
        let line = try #require(EventLog(clock: MonotonicClock()).plain(event))
        #expect(line.hasSuffix(" alarm: started, rings tomorrow at 07:00, in 20:00:00"), "\(line)")
    }

    @Test func anAlarmCannotBePausedOrMovedByKeys() throws {
        var (alarm, _) = try alarm(.timeOfDay(clock(14, 0)))
        for key in [" ", "r", "+", "-"] {
            let effects = inBerlin {
                alarm.handle(
                    round: [.key(.character(Character(key)))], at: boot + .seconds(1),
                    wall: wall.advanced(by: .seconds(1)))
            }
            #expect(events(effects).isEmpty, "key '\(key)'")
        }
        #expect(deadline(alarm) == boot + .seconds(3 * 3600))
        #expect(View().legend(alarm, at: boot + .seconds(1)) == "c cancel · q quit", "only the keys that work")
    }
}
