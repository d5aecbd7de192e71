import AlarmAudio
import Glibc
import Testing
import TimerCore
import TimerEngineTestSupport

@testable import TimerEngine

private let t0 = ContinuousClock.now
private let lost = AlarmError.deviceLost(device: "default", reason: "lost audio device")

/// Input read late (the process stopped or starved across a deadline) is not an acknowledgement,
/// and an acknowledgement before the first frame on a working device is not a device failure.
@Suite struct LateInputTests {
    /// `eggtimer 2`: armed, the device working, the deadline at t0 + 2 s.
    private func armedTwoSecondTimer() -> Controller {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        #expect(names(controller.handle(round: [.tick], at: t0 + .milliseconds(500))) == ["startAlarm"])
        return controller
    }

    @Test(arguments: [TimerEngine.Input.key(.character("+")), .key(.enter), .signal(SIGUSR1)])
    func inputReadInTheRoundThatFirstSeesTheDeadlineIsDropped(late: TimerEngine.Input) {
        var controller = armedTwoSecondTimer()
        // Stopped from 1.7 s to 2.3 s; the input was sent at 1.9 s and is read with the deadline.
        let resumed = controller.handle(round: [.signal(SIGCONT), late, .tick], at: t0 + .milliseconds(2300))
        #expect(names(resumed) == ["finished", "retakeTerminal"])
        #expect(controller.state == .ringing)
        // The next round's key is an acknowledgement.
        let at = t0 + .milliseconds(2400)
        #expect(names(controller.handle(round: [.key(.enter), .tick], at: at)) == ["stopAlarm"])
        #expect(
            names(controller.handle(round: [.audio(stopped(at: at)), .tick], at: at)) == ["acknowledged", "exit 0"])
    }

    @Test func aKeyInALaterRoundAcknowledgesAsBefore() {
        var controller = armedTwoSecondTimer()
        #expect(names(controller.handle(round: [.tick], at: t0 + .seconds(2))) == ["finished"])
        #expect(names(controller.handle(round: [.key(.enter), .tick], at: t0 + .seconds(2))) == ["stopAlarm"])
        #expect(controller.mode == .exited(.done))
    }

    @Test func anAudioReportInThatRoundIsStillHandled() {
        var controller = armedTwoSecondTimer()
        let at = t0 + .milliseconds(2300)
        let effects = controller.handle(round: [.key(.enter), .audio(.firstFrame(at: at)), .tick], at: at)
        #expect(names(effects) == ["finished", "sounding"])
        #expect(controller.state == .ringing)
    }

    @Test func aKeyBeforeTheFirstFrameOnAWorkingDeviceIsNotAFailure() {
        var controller = armedTwoSecondTimer()
        _ = controller.handle(round: [.tick], at: t0 + .seconds(2))
        _ = controller.handle(round: [.key(.enter)], at: t0 + .milliseconds(2010))
        let at = t0 + .milliseconds(2020)
        #expect(names(controller.handle(round: [.audio(stopped(at: at))], at: at)) == ["acknowledged", "exit 0"])
        #expect(!controller.audio.alarmFailed)
    }

    @Test func aDeviceThatFailedBeforeTheKeyMakes69() {
        var controller = armedTwoSecondTimer()
        let deadline = t0 + .seconds(2)
        _ = controller.handle(round: [.tick], at: deadline)
        _ = controller.handle(round: [.audio(.firstFrame(at: deadline))], at: deadline)
        _ = controller.handle(round: [.audio(.deviceUnavailable(lost))], at: deadline + .milliseconds(100))
        let at = deadline + .milliseconds(200)
        _ = controller.handle(round: [.key(.enter)], at: at)
        #expect(names(controller.handle(round: [.audio(stopped(at: at))], at: at)).last == "exit 69")
    }

    @Test func aDeviceThatStalledBeforeTheKeyMakes69() {
        var controller = armedTwoSecondTimer()
        let deadline = t0 + .seconds(2)
        _ = controller.handle(round: [.tick], at: deadline)
        _ = controller.handle(round: [.audio(.stalled(lost))], at: deadline + .milliseconds(500))
        _ = controller.handle(round: [.key(.enter)], at: deadline + .seconds(1))
        let at = deadline + .seconds(1)
        #expect(names(controller.handle(round: [.audio(stopped(at: at))], at: at)).last == "exit 69")
    }

    @Test func aFailedDeviceThatRecoveredAndPlaysCountsAsHeard() {
        var controller = armedTwoSecondTimer()
        let deadline = t0 + .seconds(2)
        _ = controller.handle(round: [.tick], at: deadline)
        _ = controller.handle(round: [.audio(.deviceUnavailable(lost))], at: deadline + .milliseconds(100))
        _ = controller.handle(round: [.audio(.deviceRecovered(device: "default"))], at: deadline + .seconds(1))
        _ = controller.handle(round: [.key(.enter)], at: deadline + .milliseconds(1100))
        let at = deadline + .milliseconds(1200)
        #expect(names(controller.handle(round: [.audio(stopped(at: at))], at: at)).last == "exit 0")
    }

    @Test func aPomodoroKeyReadWithTheIntervalsDeadlineDoesNotSkipTheNext() {
        let plan = Pomodoro.Plan(work: .seconds(10), shortBreak: .seconds(5))
        var controller = Controller(configuration: .init(), start: .pomodoro(plan), at: t0)
        _ = controller.handle(round: [.tick], at: t0 + .seconds(9))
        let effects = controller.handle(round: [.key(.character("n")), .tick], at: t0 + .seconds(11))
        #expect(names(effects) == ["finished", "interval"])
        #expect(controller.pomodoro?.phase == .shortBreak)
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(16))
    }
}
