import AlarmAudio
import Glibc
import Testing
import TimerCore
import TimerEngineTestSupport
import TimerModel
import TimerText

@testable import TerminalUI
@testable import TimerEngine
@testable import eggtimer

private let t0 = ContinuousClock.now
/// eggtimer's status type (Swift Testing has one of the same name).
typealias ExitStatus = TimerEngine.ExitStatus

@Suite struct ExitStatusTests {
    @Test(arguments: [
        (ExitStatus.done, Int32(0)), (.cancelled, 1), (.missed, 2), (.noTimer, 3), (.usage, 64), (.dataError, 65),
        (.noInput, 66),
        (.unavailable, 69), (.software, 70), (.osError, 71), (.configuration, 78),
        (.signal(SIGHUP), 129), (.signal(SIGINT), 130), (.signal(SIGQUIT), 131),
        (.signal(SIGTERM), 143),
    ])
    func codesAreTheSysexitsAndShellValues(status: ExitStatus, code: Int32) {
        #expect(status.code == code)
    }

    @Test func theTableListsEachStatusOnceAndHelpPrintsIt() {
        let codes = ExitStatus.table.map(\.status.code)
        #expect(Set(codes).count == codes.count)
        for entry in ExitStatus.table {
            #expect(Options.help.contains("\(entry.status.code)  \(entry.meaning)"), "help lacks \(entry.status.code)")
        }
        #expect(Options.help.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    /// A lost log never decides the status: no EX_IOERR (74), no SIGPIPE (141).
    @Test func standardOutputFailingHasNoStatus() {
        let codes = ExitStatus.table.map(\.status.code)
        #expect(!codes.contains(74))
        #expect(!codes.contains(128 + SIGPIPE))
        #expect(!Options.help.contains("  74  ") && !Options.help.contains("SIGPIPE"))
    }
}

@Suite struct ControllerModeTests {
    @Test func theLabelIsFixedAtStartAndNotChangedByPlusOrMinus() {
        var controller = Controller(configuration: .init(), start: .timer(.plain, .seconds(90), label: "90"), at: t0)
        let adjusted = controller.handle(key: .character("+"), at: t0 + .seconds(1))
        guard case .emit(let event)? = adjusted.first else {
            Issue.record("no adjusted event: \(adjusted)")
            return
        }
        #expect(event.name == .adjusted)
        #expect(event.label == "90")
        #expect(event.total == .seconds(150))
        #expect(controller.currentRun?.label == "90")
        let snapshot = controller.snapshot(at: t0, wall: WallInstant(unixSeconds: 0))
        #expect(View().title(snapshot, controller.screen(at: t0), at: t0) == "Counting down 2:30.")
    }

    @Test func statesFollowTheSharedVocabulary() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(10)), at: t0)
        #expect(controller.state == .counting)
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(1))
        #expect(controller.state == .paused)
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(2))
        _ = controller.tick(at: t0 + .seconds(11))
        #expect(controller.state == .ringing)
        _ = controller.handle(
            audio: .deviceUnavailable(.deviceLost(device: "d", reason: "gone")), at: t0 + .seconds(12))
        #expect(controller.state == .silent)
        _ = controller.handle(key: .enter, at: t0 + .seconds(13))
        #expect(controller.state == .done)
    }

    @Test(arguments: ["q", "c"])  // quit or cancel before completion
    func quittingOrCancellingATimerIsNotSuccess(key: String) {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(60)), at: t0)
        #expect(
            names(controller.handle(key: .character(Character(key)), at: t0 + .seconds(1))) == ["cancelled", "exit 1"])
    }

    @Test func quittingTheMenuIsSuccessUnlessAnAlarmReachedNoDevice() {
        var fine = Controller(configuration: .init(), start: .menu, at: t0)
        _ = fine.handle(key: .character("1"), at: t0)
        _ = fine.handle(key: .character("c"), at: t0 + .seconds(1))
        #expect(names(fine.handle(key: .character("q"), at: t0 + .seconds(2))) == ["exit 0"])

        var failed = Controller(configuration: .init(), start: .menu, at: t0)
        _ = failed.handle(key: .character("1"), at: t0)
        _ = failed.handle(
            audio: .deviceUnavailable(.deviceUnavailable(device: "d", reason: "none")), at: t0 + .seconds(1))
        _ = failed.tick(at: t0 + .seconds(300))
        _ = failed.handle(key: .enter, at: t0 + .seconds(301))
        #expect(failed.mode == .menu(.init()))
        _ = failed.handle(audio: stopped(at: t0 + .seconds(301)), at: t0 + .seconds(301))
        #expect(names(failed.handle(key: .character("q"), at: t0 + .seconds(302))) == ["exit 69"])
    }

    @Test func aHungPlayerReleasesTheAcknowledgementWithoutAStopInstant() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        _ = controller.handle(audio: .firstFrame(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        #expect(names(controller.handle(key: .enter, at: t0 + .seconds(3))) == ["stopAlarm"])
        #expect(controller.state == .done)  // on screen at once
        let hung = AlarmError.deviceHung(device: "d", call: "snd_pcm_writei")
        let released = controller.handle(audio: .hung(hung), at: t0 + .milliseconds(3500))
        #expect(names(released) == ["device_unavailable", "acknowledged", "exit 0"])
        if case .emit(let event)? = released.dropFirst().first {
            #expect(!event.extra.contains { $0.key == "audio_stopped_t_mono_ns" })
        }
    }

    @Test func aDeviceThatHungSoonAfterItsFirstFrameWasNotHeard() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        _ = controller.handle(audio: .firstFrame(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        // Its write blocked 0.4 s after the first frame; the stall is declared 0.5 s later.
        let hung = AlarmError.deviceHung(device: "d", call: "snd_pcm_writei")
        _ = controller.handle(audio: .stalled(hung), at: t0 + .milliseconds(2900))
        #expect(names(controller.handle(key: .enter, at: t0 + .seconds(3))) == ["bell", "stopAlarm"])
        let at = t0 + .milliseconds(3001)
        #expect(names(controller.handle(audio: stopped(at: at), at: at)).suffix(2) == ["acknowledged", "exit 69"])
    }

    /// A stall while ringing (no stop asked) is not the ringing's end: the bell takes over, the
    /// player goes on trying, and a key must still stop it.
    @Test func anAlarmStalledWhileRingingRingsTheBellWhileThePlayerTriesAgain() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        let hung = AlarmError.deviceHung(device: "d", call: "snd_pcm_writei")
        let effects = controller.handle(audio: .stalled(hung), at: t0 + .milliseconds(2600))
        #expect(names(effects) == ["device_unavailable", "bell"])
        #expect(controller.state == .silent)
        #expect(names(controller.handle(key: .enter, at: t0 + .seconds(4))) == ["bell", "stopAlarm"])
        let at = t0 + .milliseconds(4001)
        #expect(names(controller.handle(audio: stopped(at: at), at: at)) == ["acknowledged", "exit 69"])
    }

    /// A ringing that ends by `--ring-for` having reached no device says so, and why, and exits
    /// 69 as an unheard acknowledged one does (issue 37: it ended `missed`, exit 2, saying nothing).
    @Test func aSilentAlarmMissedByRingForSaysItWasSilent() {
        var configuration = Controller.Configuration()
        configuration.ringFor = .seconds(2)
        var controller = Controller(configuration: configuration, start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        let lost = AlarmError.deviceUnavailable(device: "d", reason: "No such file or directory")
        _ = controller.handle(audio: .deviceUnavailable(lost), at: t0 + .milliseconds(2100))
        // The event waits for the player's stop, then comes with the exit.
        let effects =
            controller.tick(at: t0 + .seconds(4))
            + controller.handle(audio: stopped(at: t0 + .seconds(4)), at: t0 + .seconds(4))
        let missed = effects.compactMap { if case .emit(let event) = $0, event.name == .missed { event } else { nil } }
        #expect(missed.first?.extra.contains { $0.key == "silent" } == true, "\(effects)")
        #expect(names(effects).last == "exit 69")
        #expect(controller.snapshot(of: nil, at: t0 + .seconds(4), wall: nil, over: true).device != .ok)
    }

    /// A stalled device that answers again plays the alarm again: the state is `ringing`, the log
    /// says the device is back, and the alarm counts as heard.
    @Test func aStalledDeviceThatAnswersAgainRingsAgainAndCountsAsHeard() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        let hung = AlarmError.deviceHung(device: "d", call: "snd_pcm_writei")
        _ = controller.handle(audio: .stalled(hung), at: t0 + .milliseconds(2600))
        #expect(controller.state == .silent)
        let back = controller.handle(audio: .deviceRecovered(device: "d"), at: t0 + .seconds(5))
        #expect(names(back) == ["bell", "device_recovered"])  // the bell's slot came first
        #expect(controller.state == .ringing)
        _ = controller.tick(at: t0 + .seconds(6))
        #expect(names(controller.handle(key: .enter, at: t0 + .seconds(6))) == ["stopAlarm"])
        let at = t0 + .milliseconds(6001)
        #expect(names(controller.handle(audio: stopped(at: at), at: at)) == ["acknowledged", "exit 0"])
    }

    @Test func aKeyStopsAPomodoroIntervalAlarmPlayingOnIntoTheBreak() {
        let plan = Pomodoro.Plan(work: .seconds(2), shortBreak: .seconds(60))
        var controller = Controller(configuration: .init(), start: .pomodoro(plan), at: t0)
        let alarm = Effect.startAlarm(at: t0 + .seconds(2), loops: 1, line: .breakTime(long: false))
        #expect(controller.tick(at: t0 + .seconds(1)) == [alarm], "work ends: the break's line")
        _ = controller.tick(at: t0 + .seconds(2))
        #expect(controller.pomodoro?.phase == .shortBreak)
        #expect(names(controller.handle(key: .character(" "), at: t0 + .seconds(3))) == ["stopAlarm"])
        #expect(controller.state == .counting)  // the key stopped the alarm, it did not pause
    }
}

@Suite struct PomodoroSoundingTests {
    @Test func theOnePassAlarmBetweenIntervalsLogsItsSoundingWithItsOwnPhase() {
        let plan = Pomodoro.Plan(work: .seconds(2), shortBreak: .seconds(60))
        var controller = Controller(configuration: .init(), start: .pomodoro(plan), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        let effects = controller.handle(audio: .firstFrame(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        guard case .emit(let sounding)? = effects.first else {
            Issue.record("no sounding: \(effects)")
            return
        }
        #expect(sounding.name == .sounding)
        #expect(sounding.extra.contains(.init(key: "phase", value: .text("work"))))
        #expect(sounding.extra.contains(.init(key: "deadline_t_mono_ns", value: .instant(t0 + .seconds(2)))))
        #expect(controller.pomodoro?.phase == .shortBreak)
    }

    @Test func aDeviceThatHangsAfterTheTimerEndedStillNamesIt() {
        var controller = Controller(configuration: .init(), start: .timer(.plain, .seconds(2), label: "2s"), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.tick(at: t0 + .seconds(2))
        _ = controller.handle(key: .enter, at: t0 + .milliseconds(2100))
        let hung = controller.handle(
            audio: .hung(.deviceHung(device: "d", call: "snd_pcm_writei")), at: t0 + .milliseconds(2600))
        guard case .emit(let event)? = hung.first else {
            Issue.record("no event: \(hung)")
            return
        }
        #expect(event.name == .deviceUnavailable && event.label == "2s" && event.total == .seconds(2))
    }
}

@Suite struct SnoozedAcknowledgementTests {
    @Test func aSnoozedAlarmCanBeAcknowledgedFromAnotherShell() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(1)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        _ = controller.handle(key: .character("z"), at: t0 + .seconds(2))
        let effects = controller.handle(.command(.acknowledge, from: .control, connection: 7), at: t0 + .seconds(3))
        #expect(names(effects).first == "reply")
        #expect(names(effects).contains("acknowledged") || names(effects).contains("stopAlarm"))
        #expect(controller.state == .done)
        let refused = Controller(configuration: .init(), start: .plain(.seconds(60)), at: t0)
        var counting = refused
        #expect(
            names(counting.handle(.command(.acknowledge, from: .control, connection: 1), at: t0)) == [
                "refused: 1:00 is counting, not ringing"
            ])
    }
}

@Suite struct BootClockMappingTests {
    @Test func instantsMapToTheBootClockAndBack() {
        let clock = MonotonicClock()
        let now = ContinuousClock.now
        let nanoseconds = clock.nanoseconds(now)
        #expect(MonotonicClock.instant(bootNanoseconds: nanoseconds) == now)
        // Bracketed by two real readings of CLOCK_BOOTTIME.
        let before = MonotonicClock.bootNanoseconds()
        let mapped = clock.nanoseconds(.now)
        let after = MonotonicClock.bootNanoseconds()
        #expect(mapped >= before - 10_000 && mapped <= after + 10_000, "\(before) \(mapped) \(after)")
    }
}
