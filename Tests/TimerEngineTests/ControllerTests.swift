import AlarmAudio
import Glibc
import Testing
import TimerCore
import TimerEngineTestSupport

@testable import TimerEngine

/// Any instant will do: the controller never reads a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now
private let noDevice = AlarmError.deviceUnavailable(device: "default", reason: "no such device")
private let lost = AlarmError.deviceLost(device: "default", reason: "lost audio device")

private func phase(_ event: TimerEvent) -> String {
    if case .text(let text)? = event.extra.first(where: { $0.key == "phase" })?.value { return text }
    return "?"
}

private func events(_ effects: [Effect]) -> [TimerEvent] {
    effects.compactMap { if case .emit(let event) = $0 { event } else { nil } }
}

@Suite struct ControllerTests {
    @Test func eggMenuPickCountsDownRingsAndReturnsToTheMenu() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        #expect(controller.mode == .menu(.init()))
        #expect(controller.state == nil)
        let picked = controller.handle(key: .character("1"), at: t0)
        #expect(names(picked) == ["started"])
        #expect(controller.currentRun?.label == "Soft")
        #expect(controller.state == .counting)
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(300))

        // The device opens 1.5 s before the deadline, and the alarm is scheduled for the deadline.
        #expect(controller.nextWake(at: t0) == t0 + .milliseconds(298_500))
        let armed = controller.tick(at: t0 + .milliseconds(298_500))
        #expect(armed == [.startAlarm(at: t0 + .seconds(300), loops: nil)])

        // At the deadline, not a tick later: finished, then ringing.
        #expect(controller.nextWake(at: t0 + .milliseconds(298_500)) == t0 + .seconds(300))
        #expect(controller.tick(at: t0 + .seconds(300) - .nanoseconds(1)).isEmpty)
        let finished = controller.tick(at: t0 + .seconds(300))
        #expect(names(finished) == ["finished"])
        #expect(controller.state == .ringing)

        _ = controller.handle(audio: .firstFrame(at: t0 + .seconds(300)), at: t0 + .seconds(300))
        // A key changes the state at once; the event waits for the player's report.
        let acknowledged = controller.handle(key: .character("x"), at: t0 + .seconds(310))
        #expect(names(acknowledged) == ["stopAlarm"])
        #expect(controller.mode == .menu(.init()))
        let reported = controller.handle(audio: stopped(at: t0 + .seconds(310)), at: t0 + .seconds(310))
        #expect(names(reported) == ["acknowledged"])
        #expect(events(reported).first?.extra.contains { $0.key == "audio_stopped_t_mono_ns" } == true)
        #expect(!controller.audio.alarmFailed)
        #expect(names(controller.handle(key: .character("q"), at: t0 + .seconds(311))) == ["exit 0"])
    }

    @Test(arguments: [("1", "Soft"), ("s", "Soft"), ("2", "Medium"), ("m", "Medium"), ("3", "Hard"), ("h", "Hard")])
    func menuKeysPickTheirEgg(key: Character, label: String) {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character(key), at: t0)
        #expect(controller.currentRun?.label == label)
    }

    @Test func arrowsAndEnterPickTheSelectedEgg() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .down, at: t0)
        _ = controller.handle(key: .down, at: t0)
        _ = controller.handle(key: .up, at: t0)
        _ = controller.handle(key: .enter, at: t0)
        #expect(controller.currentRun?.label == "Medium")
    }

    @Test func aSecondPickWhileRunningNeverStartsASecondTimer() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("1"), at: t0)
        let again = controller.handle(key: .character("1"), at: t0 + .seconds(5))
        let other = controller.handle(key: .character("3"), at: t0 + .seconds(6))
        #expect(again.isEmpty && other.isEmpty)
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(300))
    }

    @Test func pauseTwiceInATenSecondTimerFinishesAfterTenSecondsOfRunning() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(10)), at: t0)
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(2))  // ran 2 s
        #expect(controller.nextWake(at: t0 + .seconds(2)) == nil)
        #expect(controller.state == .paused)
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(7))
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(10))  // ran 3 s more: 5 s left
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(20))
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(25))
        #expect(!names(controller.tick(at: t0 + .seconds(25) - .nanoseconds(1))).contains("finished"))
        let finished = controller.tick(at: t0 + .seconds(25))
        #expect(names(finished).contains("finished"))
    }

    @Test func pausingNearTheDeadlineClosesThePreopenedDevice() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(10)), at: t0)
        #expect(controller.tick(at: t0 + .seconds(9)) == [.startAlarm(at: t0 + .seconds(10), loops: nil)])
        #expect(
            names(controller.handle(key: .character(" "), at: t0 + .milliseconds(9500))) == ["stopAlarm", "paused"])
        #expect(names(controller.handle(key: .character(" "), at: t0 + .seconds(60))) == ["resumed", "startAlarm"])
    }

    @Test func restartAndAdjustMoveTheDeadline() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(120)), at: t0)
        _ = controller.handle(key: .character("r"), at: t0 + .seconds(30))
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(150))
        _ = controller.handle(key: .character("+"), at: t0 + .seconds(40))
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(210))
        _ = controller.handle(key: .character("-"), at: t0 + .seconds(40))
        _ = controller.handle(key: .character("-"), at: t0 + .seconds(40))
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(90))
        // 50 s left: a minute cannot be taken away.
        #expect(controller.handle(key: .character("-"), at: t0 + .seconds(40)).isEmpty)
    }

    @Test func ctrlUErasesTheTypedTime() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("t"), at: t0)
        for c in "7m30" { _ = controller.handle(key: .character(c), at: t0) }
        _ = controller.handle(key: .eraseLine, at: t0)
        #expect(controller.mode == .menu(.init(selection: 3, entry: "")))
    }

    @Test func cancelFromTheCommandLineExitsAndFromTheMenuReturns() {
        var fromArgs = Controller(configuration: .init(), start: .plain(.seconds(60)), at: t0)
        #expect(names(fromArgs.handle(key: .escape, at: t0 + .seconds(1))) == ["cancelled", "exit 1"])
        #expect(fromArgs.state == .cancelled)
        var fromMenu = Controller(configuration: .init(), start: .menu, at: t0)
        _ = fromMenu.handle(key: .character("2"), at: t0)
        #expect(names(fromMenu.handle(key: .character("c"), at: t0 + .seconds(1))) == ["cancelled"])
        #expect(fromMenu.mode == .menu(.init()))
    }

    @Test func typedDurationStartsAPlainTimerAndBadInputShowsTheError() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("t"), at: t0)
        for c in "1:75" { _ = controller.handle(key: .character(c), at: t0) }
        _ = controller.handle(key: .enter, at: t0)
        #expect(
            controller.mode
                == .menu(.init(selection: 3, entry: "1:75", error: "invalid duration '1:75': seconds must be below 60"))
        )
        for _ in 0..<2 { _ = controller.handle(key: .backspace, at: t0) }
        for c in "30" { _ = controller.handle(key: .character(c), at: t0) }
        _ = controller.handle(key: .enter, at: t0)
        #expect(controller.currentRun?.countdown.total == .seconds(90))
        #expect(controller.currentRun?.kind == .plain)
    }

    @Test func loopsEndTheAlarmByItselfAndExitZero() {
        var controller = Controller(configuration: .init(loops: 3), start: .plain(.seconds(1)), at: t0)
        #expect(controller.tick(at: t0) == [.startAlarm(at: t0 + .seconds(1), loops: 3)])
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.handle(audio: .firstFrame(at: t0 + .seconds(1)), at: t0 + .seconds(1))
        let finished = controller.handle(audio: .finished(.init(passes: 3)), at: t0 + .seconds(5))
        #expect(names(finished) == ["acknowledged", "exit 0"])
    }

    @Test func anAlarmThatReachedNoDeviceRingsTheBellAndExits69() {
        var configuration = Controller.Configuration(loops: 2)
        configuration.soundLength = .milliseconds(1500)
        var controller = Controller(configuration: configuration, start: .plain(.seconds(5)), at: t0)
        _ = controller.tick(at: t0 + .seconds(4))
        _ = controller.handle(audio: .deviceUnavailable(noDevice), at: t0 + .seconds(4))
        #expect(controller.audio.notice == noDevice)
        #expect(controller.state == .ringing || controller.state == .counting)
        #expect(names(controller.tick(at: t0 + .seconds(5))) == ["finished", "bell"])
        #expect(controller.tick(at: t0 + .milliseconds(5500)).isEmpty)
        #expect(names(controller.tick(at: t0 + .seconds(6))) == ["bell"])
        // Two passes of a 1.5 s sound: the fallback ends 3 s after the deadline, status 69.
        #expect(controller.state == .silent)
        #expect(controller.nextWake(at: t0 + .seconds(6)) == t0 + .seconds(7))
        #expect(names(controller.tick(at: t0 + .seconds(8))) == ["bell", "stopAlarm"])
        #expect(
            names(controller.handle(audio: stopped(at: t0 + .seconds(8)), at: t0 + .seconds(8))) == [
                "acknowledged", "exit 69",
            ])
    }

    @Test func aDeviceThatTakesOneBufferThenFailsEveryTimeWasNotHeard() {
        // file:'/nonexistent/x.raw': each reopen accepts one buffer, then the next write fails.
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        for attempt in 0..<4 {
            let at = t0 + .seconds(2) + .milliseconds(100 * attempt)
            _ = controller.handle(audio: .firstFrame(at: at), at: at)
            _ = controller.handle(audio: .deviceUnavailable(lost), at: at + .milliseconds(1))
        }
        _ = controller.handle(key: .enter, at: t0 + .seconds(5))
        let acknowledged = names(controller.handle(audio: stopped(at: t0 + .seconds(5)), at: t0 + .seconds(5)))
        #expect(acknowledged.suffix(2) == ["acknowledged", "exit 69"])
    }

    @Test func anAlarmHeardForAWhileCountsEvenIfTheSpeakerIsUnpluggedLater() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(2))
        _ = controller.handle(audio: .firstFrame(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        _ = controller.handle(audio: .deviceUnavailable(lost), at: t0 + .seconds(10))
        _ = controller.handle(key: .enter, at: t0 + .seconds(12))
        #expect(names(controller.handle(audio: stopped(at: t0 + .seconds(12)), at: t0 + .seconds(12))).last == "exit 0")
    }

    @Test func aQuickKeyOnAWorkingDeviceCountsAsHeard() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(2))
        _ = controller.handle(audio: .firstFrame(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        _ = controller.handle(key: .enter, at: t0 + .milliseconds(2050))
        let reported = controller.handle(audio: stopped(at: t0 + .milliseconds(2050)), at: t0 + .milliseconds(2050))
        #expect(names(reported).last == "exit 0")
    }

    @Test func theSameDeviceProblemIsReportedOnceNotOnEveryRetry() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(5)), at: t0)
        var reported = names(controller.handle(audio: .deviceUnavailable(noDevice), at: t0))
        reported += names(controller.tick(at: t0 + .milliseconds(3500)))  // arms: the device is tried again
        reported += names(
            controller.handle(audio: .deviceUnavailable(noDevice), at: t0 + .milliseconds(3501)))
        #expect(reported.filter { $0 == "device_unavailable" }.count == 1)
    }

    @Test func aDeviceThatComesBackStopsTheBell() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(5)), at: t0)
        _ = controller.tick(at: t0 + .seconds(4))
        _ = controller.handle(audio: .deviceUnavailable(lost), at: t0 + .seconds(4))
        _ = controller.tick(at: t0 + .seconds(5))
        _ = controller.handle(audio: .deviceRecovered(device: "default"), at: t0 + .milliseconds(5200))
        _ = controller.handle(audio: .firstFrame(at: t0 + .milliseconds(5200)), at: t0 + .milliseconds(5200))
        #expect(controller.tick(at: t0 + .seconds(7)).isEmpty)
        #expect(names(controller.handle(key: .enter, at: t0 + .seconds(8))) == ["stopAlarm"])
        #expect(
            names(controller.handle(audio: stopped(at: t0 + .seconds(8)), at: t0 + .seconds(8))) == [
                "acknowledged", "exit 0",
            ])
    }

    @Test func pomodoroWithWaitRingsUntilAKeyThenStartsTheNextInterval() {
        let plan = Pomodoro.Plan(work: .seconds(10), shortBreak: .seconds(5))
        var configuration = Controller.Configuration()
        configuration.waitForKey = true
        var controller = Controller(configuration: configuration, start: .pomodoro(plan), at: t0)
        #expect(
            controller.tick(at: t0 + .seconds(9)) == [
                .startAlarm(at: t0 + .seconds(10), loops: nil, line: .breakTime(long: false))
            ])
        _ = controller.tick(at: t0 + .seconds(10))
        guard case .ringing = controller.mode else {
            Issue.record("not ringing")
            return
        }
        #expect(names(controller.handle(key: .enter, at: t0 + .seconds(30))) == ["stopAlarm"])
        #expect(controller.pomodoro?.phase == .shortBreak)
        let next = controller.handle(audio: stopped(at: t0 + .seconds(30)), at: t0 + .seconds(30))
        #expect(names(next) == ["acknowledged", "interval"])
        #expect(controller.currentRun?.label == "pomodoro")
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(35))
    }

    @Test func skippedPomodoroIsFollowedByAShortBreakAndDoesNotCount() {
        let plan = Pomodoro.Plan(longBreakAfter: 1)
        var controller = Controller(configuration: .init(), start: .pomodoro(plan), at: t0)
        _ = controller.handle(key: .character("n"), at: t0 + .seconds(60))
        #expect(controller.pomodoro?.phase == .shortBreak)
        #expect(controller.pomodoro?.completedInSet == 0)
    }

    @Test func externalAcknowledgementStopsTheAlarm() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(1)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        #expect(names(controller.handle(.signal(SIGUSR1), at: t0 + .seconds(2))) == ["stopAlarm"])
        let reported = controller.handle(audio: stopped(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        #expect(events(reported).first?.extra.contains(.init(key: "by", value: .text("signal"))) == true)
    }
    @Test func aHangUpWhileCountingDetachesAndTheTimerStillRingsThenEndsInsteadOfTheMenu() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("1"), at: t0)
        #expect(names(controller.handle(.signal(SIGHUP), at: t0 + .seconds(1))) == ["detach"])
        #expect(controller.detached && controller.state == .counting)
        #expect(controller.handle(.signal(SIGHUP), at: t0 + .seconds(2)).isEmpty, "detached once")
        _ = controller.tick(at: t0 + .milliseconds(298_500))
        #expect(names(controller.tick(at: t0 + .seconds(300))) == ["finished"])
        #expect(controller.state == .ringing)
        #expect(controller.handle(.signal(SIGHUP), at: t0 + .seconds(301)).isEmpty, "still ringing")
        _ = controller.handle(.command(.acknowledge, from: .control, connection: 1), at: t0 + .seconds(302))
        // Nobody is left at the menu: the app ends as a timer from the command line does.
        #expect(
            names(controller.handle(audio: stopped(at: t0 + .seconds(302)), at: t0 + .seconds(302)))
                == ["acknowledged", "exit 0"])
    }

    @Test func aHangUpInTheMenuExits129() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        #expect(names(controller.handle(.signal(SIGHUP), at: t0)) == ["exit 129"])
    }
}
