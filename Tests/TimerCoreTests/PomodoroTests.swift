import Testing
import TimerCore

@Suite struct PomodoroTests {
    @Test func oneDefaultSetRunsFourPomodoriThenALongBreak() {
        var pomodoro = Pomodoro(plan: .init())
        var phases = [pomodoro.phase]
        while let next = pomodoro.advance() { phases.append(next) }
        #expect(phases == [.work, .shortBreak, .work, .shortBreak, .work, .shortBreak, .work, .longBreak])
        #expect(pomodoro.isDone)
    }

    @Test func tomatoMeterCountsCompletedPomodoriInTheSet() {
        var pomodoro = Pomodoro(plan: .init(longBreakAfter: 2, sets: 2))
        var meter: [Int] = [pomodoro.completedInSet]
        while pomodoro.advance() != nil { meter.append(pomodoro.completedInSet) }
        // work short work long | work short work long
        #expect(meter == [0, 1, 1, 2, 0, 1, 1, 2])
    }

    @Test func aSkippedPomodoroDoesNotBringTheLongBreakCloser() {
        var pomodoro = Pomodoro(plan: .init(longBreakAfter: 2))
        let r1 = pomodoro.advance(skipped: true)
        #expect(r1 == .shortBreak)
        #expect(pomodoro.completedInSet == 0)
        let r2 = pomodoro.advance()
        #expect(r2 == .work)
        let r3 = pomodoro.advance()
        #expect(r3 == .shortBreak)
        let r4 = pomodoro.advance()
        #expect(r4 == .work)
        let r5 = pomodoro.advance()
        #expect(r5 == .longBreak)
        let r6 = pomodoro.advance()
        #expect(r6 == nil)
    }

    @Test func intervalLengthsComeFromThePlan() {
        var pomodoro = Pomodoro(
            plan: .init(work: .seconds(3), shortBreak: .seconds(1), longBreak: .seconds(2), longBreakAfter: 1))
        #expect(pomodoro.duration == .seconds(3))
        pomodoro.advance()
        #expect(pomodoro.phase == .longBreak)
        #expect(pomodoro.duration == .seconds(2))
    }

    @Test func defaultsAreTheTechniques() {
        let plan = Pomodoro.Plan()
        #expect(plan.work == .seconds(1500) && plan.shortBreak == .seconds(300) && plan.longBreak == .seconds(900))
        #expect(plan.longBreakAfter == 4 && plan.sets == 1)
    }
}
