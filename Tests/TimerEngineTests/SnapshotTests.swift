import AlarmAudio
import Glibc
import Testing
import TimerEngineTestSupport
import TimerModel
import TimerText

@testable import TimerEngine

/// Any instant will do: the controller never reads a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now
/// What the wall clock reads at `t0`: 2026-11-30T10:00:00Z.
private let wall0 = WallInstant(unixSeconds: 1_796_032_800)

/// The controller's one snapshot (issue 22), on injected boot and wall instants.
@Suite struct SnapshotTests {
    /// A configuration with the label and pid the snapshot carries.
    private var configuration: Controller.Configuration {
        var configuration = Controller.Configuration()
        (configuration.label, configuration.pid) = ("tea", 4242)
        return configuration
    }

    /// What the snapshot says after `keys` at the given seconds after `t0`, taken at `at` seconds.
    private func snapshot(
        _ start: Controller.Start, keys: [(Key, Int64)] = [], audio: [(AlarmPlayer.Event, Int64)] = [], at: Int64
    ) -> TimerSnapshot {
        var controller = Controller(configuration: configuration, start: start, at: t0)
        for (key, second) in keys { _ = controller.handle(key: key, at: t0 + .seconds(second)) }
        for (event, second) in audio { _ = controller.handle(audio: event, at: t0 + .seconds(second)) }
        _ = controller.tick(at: t0 + .seconds(at))
        return controller.snapshot(at: t0 + .seconds(at), wall: wall0.advanced(by: .seconds(at)))
    }

    @Test func countingSaysTheDeadlineOnBothClocksAndTheTimeLeft() {
        let counting = snapshot(.timer(.egg(1), .seconds(420), label: "Medium"), at: 20)
        #expect(
            counting
                == TimerSnapshot(
                    state: .counting, label: "tea", kind: .egg("Medium"), total: .seconds(420),
                    remaining: .seconds(400),
                    deadline: t0 + .seconds(420), deadlineUnixMilliseconds: (wall0.unixSeconds + 420) * 1000, pid: 4242,
                    runLabel: "Medium"))
    }

    @Test func theWallDeadlineFollowsTheRoundsWallReadingNotTheStart() {
        var controller = Controller(configuration: configuration, start: .plain(.seconds(60)), at: t0)
        _ = controller.tick(at: t0 + .seconds(10))
        // The wall clock stepped 5 s forward: the deadline is 50 s after the wall time now.
        let stepped = controller.snapshot(at: t0 + .seconds(10), wall: wall0.advanced(by: .seconds(15)))
        #expect(stepped.deadlineUnixMilliseconds == (wall0.unixSeconds + 65) * 1000)
        #expect(stepped.kind == .plain && stepped.remaining == .seconds(50))
    }

    @Test func pausedHasNoDeadlineAndKeepsItsTimeLeft() {
        let paused = snapshot(.plain(.seconds(90)), keys: [(.character(" "), 30)], at: 50)
        #expect(paused.state == .paused && paused.remaining == .seconds(60) && paused.total == .seconds(90))
        #expect(paused.deadline == nil && paused.deadlineUnixMilliseconds == nil)
    }

    @Test func ringingOnADeviceThatFailsIsSilentAndSaysWhy() {
        let failed = AlarmError.deviceUnavailable(device: "default", reason: "no such device")
        let ringing = snapshot(.plain(.seconds(60)), at: 61)
        #expect(ringing.state == .ringing && ringing.remaining == .zero && ringing.device == .ok)
        #expect(ringing.deadline == t0 + .seconds(60))
        let silent = snapshot(.plain(.seconds(60)), audio: [(.deviceUnavailable(failed), 61)], at: 62)
        #expect(silent.state == .silent && silent.device == .silent("\(failed)"))
    }

    @Test func theMenuIsAStateWithNoKindAndNoTime() {
        let menu = snapshot(.menu, at: 5)
        #expect(menu.state == .menu && menu.kind == nil && menu.total == .zero && menu.deadline == nil)
        #expect(menu.label == "tea" && menu.pid == 4242)
    }

    @Test func aPomodoroSaysItsPhase() {
        let work = snapshot(.pomodoro(.init()), at: 1)
        #expect(work.kind == .pomodoro(phase: "work"))
    }

    @Test(arguments: [("+", 360), ("-", 240)])
    func theFinalSnapshotShowsAMinuteAddedOrTakenBeforeTheCancel(key: Character, total: Int64) {
        var controller = Controller(configuration: configuration, start: .plain(.seconds(300)), at: t0)
        _ = controller.handle(key: .character(key), at: t0 + .seconds(10))
        _ = controller.handle(key: .character("c"), at: t0 + .seconds(20))
        let final = controller.snapshot(at: t0 + .seconds(20), wall: wall0.advanced(by: .seconds(20)))
        #expect(final.state == .cancelled && final.total == .seconds(total), "\(final)")
        #expect(final.remaining == .zero && final.deadline == nil && final.deadlineUnixMilliseconds == nil)
    }

    /// Issue 41: a timer a signal ended says which in its last snapshot (the kitchen logged one
    /// ended by SIGTERM as cancelled); one cancelled by a command says none.
    @Test(arguments: [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT")] as [(Int32, String)])
    func aTimerEndedByASignalSaysWhich(number: Int32, name: String) {
        var controller = Controller(configuration: configuration, start: .plain(.seconds(60)), at: t0)
        #expect(controller.snapshot(at: t0, wall: wall0).endedBy == nil)
        _ = controller.handle(.signal(number), at: t0 + .seconds(1))
        let last = controller.snapshot(at: t0 + .seconds(1), wall: wall0.advanced(by: .seconds(1)))
        #expect(last.state == .cancelled && last.endedBy == name)

        var cancelled = Controller(configuration: configuration, start: .plain(.seconds(60)), at: t0)
        _ = cancelled.handle(key: .character("q"), at: t0 + .seconds(1))
        #expect(cancelled.snapshot(at: t0 + .seconds(1), wall: wall0).endedBy == nil)
    }

    @Test func aHangUpShowsAsDetached() {
        var controller = Controller(configuration: configuration, start: .plain(.seconds(300)), at: t0)
        _ = controller.handle(.signal(SIGHUP), at: t0 + .seconds(1))
        #expect(controller.snapshot(at: t0 + .seconds(2), wall: wall0).detached)
    }
}

extension ScheduleTests {
    /// An alarm at a time's snapshot: its schedule, and its scheduled time as the wall deadline.
    @Suite struct AlarmSnapshot {
        @Test func anAlarmSaysItsScheduledTimeExactlyAlsoWhileRinging() throws {
            try withTimeZone("UTC") {
                let schedule = try AlarmSchedule(
                    .timeOfDay(TimeOfDay(hour: 11, minute: 0)!), every: nil, now: wall0, resolver: LocalTimeResolver())
                var controller = Controller(configuration: .init(), start: .alarm(schedule, label: "at-11.00"))
                _ = controller.start(at: t0, wall: wall0)
                let expected = (wall0.unixSeconds + 3600) * 1000
                // The wall clock drifted by 300 ms against the boot clock: the scheduled time still shows, exact.
                let counting = controller.snapshot(
                    at: t0 + .seconds(10), wall: wall0.advanced(by: .milliseconds(10_300)))
                #expect(counting.state == .counting && counting.kind == .alarm)
                #expect(counting.deadlineUnixMilliseconds == expected)
                #expect(counting.schedule == .init(at: "2026-11-30T11:00:00+00:00"))
                _ = controller.tick(at: t0 + .seconds(3601))
                let ringing = controller.snapshot(at: t0 + .seconds(3601), wall: wall0.advanced(by: .seconds(3601)))
                #expect(ringing.state == .ringing && ringing.deadlineUnixMilliseconds == expected)
            }
        }
    }
}
