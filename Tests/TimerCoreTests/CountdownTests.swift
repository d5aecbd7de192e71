import Testing
import TimerCore

/// Any instant will do as the origin: nothing here reads a clock again or sleeps.
private let t0 = ContinuousClock.now
private typealias Timer = Countdown<ContinuousClock.Instant>

@Suite struct CountdownTests {
    @Test func remainingAndProgressFollowTheDeadline() {
        var countdown = Timer(total: .seconds(300))
        #expect(countdown.remaining(at: t0) == .seconds(300))
        countdown.start(at: t0)
        #expect(countdown.deadline == t0 + .seconds(300))
        #expect(countdown.remaining(at: t0 + .seconds(75)) == .seconds(225))
        #expect(countdown.progress(at: t0 + .seconds(75)) == 0.25)
        #expect(countdown.elapsed(at: t0 + .milliseconds(1500)) == .milliseconds(1500))
        #expect(countdown.remaining(at: t0 + .seconds(400)) == .zero)
        #expect(countdown.progress(at: t0 + .seconds(400)) == 1)
    }

    @Test func finishesExactlyAtTheDeadlineNotBefore() {
        var countdown = Timer(total: .seconds(10))
        countdown.start(at: t0)
        #expect(!countdown.isFinished(at: t0 + .seconds(10) - .nanoseconds(1)))
        #expect(countdown.isFinished(at: t0 + .seconds(10)))
    }

    @Test func aSecondStartNeitherRestartsNorMovesTheDeadline() {
        var countdown = Timer(total: .seconds(60))
        let r1 = countdown.start(at: t0)
        #expect(r1)
        let r2 = countdown.start(at: t0 + .seconds(5))
        #expect(!r2)
        #expect(countdown.deadline == t0 + .seconds(60))
    }

    @Test func pausedTimeIsNotCountedToTheNanosecond() {
        var countdown = Timer(total: .seconds(60))
        countdown.start(at: t0)
        countdown.pause(at: t0 + .milliseconds(10_001))
        #expect(countdown.remaining(at: t0 + .seconds(500)) == .milliseconds(49_999))
        countdown.resume(at: t0 + .seconds(100) + .nanoseconds(7))
        #expect(countdown.deadline == t0 + .seconds(100) + .nanoseconds(7) + .milliseconds(49_999))
        #expect(countdown.remaining(at: t0 + .seconds(110)) == .milliseconds(39_999) + .nanoseconds(7))
    }

    @Test func manyPauseCyclesLoseNoTime() {
        var countdown = Timer(total: .seconds(10))
        var now = t0
        countdown.start(at: now)
        var running = Duration.zero
        for cycle in 1...10 {
            now += .milliseconds(300 + cycle)
            running += .milliseconds(300 + cycle)
            countdown.pause(at: now)
            now += .milliseconds(977 * cycle)  // paused, never counted
            countdown.resume(at: now)
        }
        #expect(countdown.remaining(at: now) == .seconds(10) - running)
        #expect(countdown.deadline == now + (.seconds(10) - running))
    }

    @Test func pauseAndResumeOnlyActInTheMatchingPhase() {
        var countdown = Timer(total: .seconds(5))
        let r3 = countdown.pause(at: t0)
        #expect(!r3)
        let r4 = countdown.resume(at: t0)
        #expect(!r4)
        countdown.start(at: t0)
        let r5 = countdown.resume(at: t0)
        #expect(!r5)
        let r6 = countdown.pause(at: t0 + .seconds(1))
        #expect(r6)
        let r7 = countdown.pause(at: t0 + .seconds(2))
        #expect(!r7)
        #expect(countdown.remaining(at: t0 + .seconds(3)) == .seconds(4))
    }

    @Test func restartRunsTheFullTotalFromNowWhateverThePhase() {
        var countdown = Timer(total: .seconds(30))
        countdown.start(at: t0)
        countdown.pause(at: t0 + .seconds(20))
        countdown.restart(at: t0 + .seconds(40))
        #expect(countdown.deadline == t0 + .seconds(70))
    }

    @Test func adjustMovesDeadlineAndTotalTogether() {
        var countdown = Timer(total: .seconds(120))
        countdown.start(at: t0)
        let r8 = countdown.adjust(by: .seconds(60), at: t0 + .seconds(30))
        #expect(r8)
        #expect(countdown.total == .seconds(180))
        #expect(countdown.remaining(at: t0 + .seconds(30)) == .seconds(150))
        let r9 = countdown.adjust(by: .seconds(-60), at: t0 + .seconds(30))
        #expect(r9)
        #expect(countdown.remaining(at: t0 + .seconds(30)) == .seconds(90))
        // Taking a minute away from 50 s left would end it: refused, nothing changes.
        let r10 = countdown.adjust(by: .seconds(-60), at: t0 + .seconds(70))
        #expect(!r10)
        #expect(countdown.remaining(at: t0 + .seconds(70)) == .seconds(50))
    }

    @Test func adjustWhilePausedChangesTheTimeLeft() {
        var countdown = Timer(total: .seconds(100))
        countdown.start(at: t0)
        countdown.pause(at: t0 + .seconds(10))
        countdown.adjust(by: .seconds(60), at: t0 + .seconds(50))
        #expect(countdown.remaining(at: t0 + .seconds(999)) == .seconds(150))
    }

    /// The display shows remaining seconds rounded up, so it changes when a whole number of
    /// seconds is left, and the last change is the deadline itself.
    @Test(arguments: [
        (elapsedMs: 0, nextMs: 1000),
        (elapsedMs: 1, nextMs: 1000),
        (elapsedMs: 999, nextMs: 1000),
        (elapsedMs: 1000, nextMs: 2000),
        (elapsedMs: 9_500, nextMs: 10_000),
    ])
    func nextDisplayChangeIsOnWholeSecondsOfRemaining(elapsedMs: Int, nextMs: Int) {
        var countdown = Timer(total: .seconds(10))
        countdown.start(at: t0)
        #expect(countdown.nextDisplayChange(at: t0 + .milliseconds(elapsedMs)) == t0 + .milliseconds(nextMs))
    }

    @Test func nextDisplayChangeWithFractionalTotalLandsOnTheDeadline() {
        var countdown = Timer(total: .milliseconds(2500))
        countdown.start(at: t0)
        #expect(countdown.nextDisplayChange(at: t0) == t0 + .milliseconds(500))
        #expect(countdown.nextDisplayChange(at: t0 + .milliseconds(1500)) == t0 + .milliseconds(2500))
        #expect(countdown.nextDisplayChange(at: t0 + .milliseconds(2500)) == nil)
    }
}

@Suite struct ClockTextTests {
    @Test(arguments: [
        (Duration.seconds(300), "5:00"),
        (.milliseconds(299_001), "5:00"),
        (.seconds(299), "4:59"),
        (.milliseconds(1), "0:01"),
        (.zero, "0:00"),
        (.seconds(3599), "59:59"),
        (.seconds(3600), "1:00:00"),
        (.seconds(3723), "1:02:03"),
        (.seconds(25 * 3600), "25:00:00"),
    ])
    func clockTextRoundsUpAndSwitchesToHoursAtOneHour(duration: Duration, text: String) {
        #expect(duration.clockText == text)
    }
}
