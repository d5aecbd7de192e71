import TimerCore
package import TimerModel
package import TimerText

// The controller's side of issue 22's one snapshot: what every front (screen, log, control
// socket, record, MQTT) reads of the timer, made from the controller's state alone.

extension Controller {
    /// The timer as every front sees it at the round's instants.
    ///
    /// A pure function of the controller's state and the two instants: the wall time of the
    /// deadline is the boot deadline moved by the round's wall reading (an alarm at a time says its
    /// scheduled time instead, exact). In the menu the state is ``TimerState/menu`` with no kind;
    /// once exited, the final state with the last run's label and length (`+`/`-` included).
    /// - Parameters:
    ///   - now: The round's instant on the boot clock.
    ///   - wall: What the wall clock (CLOCK_REALTIME) read at `now`.
    /// - Returns: The snapshot; its `label` and `pid` are the configuration's.
    package func snapshot(at now: Instant, wall: WallInstant) -> TimerSnapshot {
        if case .exited = mode { return snapshot(of: recentRun, at: now, wall: wall, over: true) }
        return snapshot(of: currentRun, at: now, wall: wall)
    }

    /// The timer as every front sees it at `now`, with `run` as its countdown: the current run, or
    /// one that has just ended (an event about it).
    /// - Parameters:
    ///   - run: The run the snapshot describes (nil: none).
    ///   - now: The instant on the boot clock.
    ///   - wall: What the wall clock read at `now`; nil: no wall time of the deadline (an alarm
    ///     at a time still says its scheduled time).
    ///   - over: Whether the timer is over: no deadline, nothing left.
    /// - Returns: The snapshot; its `label` and `pid` are the configuration's.
    package func snapshot(of run: Run?, at now: Instant, wall: WallInstant?, over: Bool = false) -> TimerSnapshot {
        let deadline = over ? nil : run?.countdown.deadline
        var deadlineWall: Int64?
        if let wall, let deadline {
            deadlineWall = WallReading(boot: now, wall: wall).wall(at: deadline).unixNanoseconds
        }
        // An alarm at a time: its scheduled time, exact, also while (or after being recovered) ringing.
        if let scheduled = scheduledRing { deadlineWall = scheduled.unixNanoseconds }
        let remaining = over ? .zero : run?.countdown.remaining(at: now) ?? .zero
        // Once over: whether the alarm was heard (its exit status 69), not the device's last state.
        let silent = over ? audio.alarmFailed : audio.silent
        let device = silent ? TimerSnapshot.DeviceHealth.silent(silenceReason) : .ok
        return TimerSnapshot(
            state: state ?? .menu, label: configuration.label, kind: run.map(kind(of:)),
            total: run?.countdown.total ?? .zero, remaining: remaining, deadline: deadline,
            deadlineUnixMilliseconds: deadlineWall.map { $0 / 1_000_000 },
            schedule: schedule.map { .init(at: $0.occurrence.isoText, every: $0.recurrenceText) }, device: device,
            clockUnsynchronised: followsWallClock && !clockSynchronised, detached: detached, pid: configuration.pid,
            runLabel: run?.label, pomodoro: pomodoroProgress, endedBy: over ? endingSignal : nil,
            requestID: configuration.requestID)
    }

    /// The signal that ended the process (``ExitStatus/signalName``); nil until it exits, or when
    /// it exits otherwise.
    private var endingSignal: String? {
        guard case .exited(let status) = mode else { return nil }
        return status.signalName
    }

    /// Why the alarm reaches no device: the device's last problem (`cannot open audio device
    /// 'NAME': REASON`), or a general line when none was reported.
    package var silenceReason: String { audio.notice.map { "\($0)" } ?? "no device plays the alarm" }

    /// The pomodoro's set progress as the tomato meter shows it; nil without a pomodoro.
    private var pomodoroProgress: TimerSnapshot.PomodoroProgress? {
        guard let pomodoro else { return nil }
        var done = pomodoro.completedInSet
        // Ringing at the end of a work interval (--wait): that pomodoro is done already.
        if case .ringing = mode, pomodoro.phase == .work { done += 1 }
        return .init(done: done, perSet: pomodoro.plan.longBreakAfter, isLast: pomodoro.isLastInterval)
    }

    /// Whether the timer follows the wall clock: an alarm at a time, or a countdown recovered
    /// after a reboot that has not rung yet.
    package var followsWallClock: Bool { schedule != nil || recovered != nil }

    /// What `run` is for, in the snapshot's terms.
    private func kind(of run: Run) -> TimerSnapshot.Kind {
        if schedule != nil { return .alarm }
        switch run.kind {
        case .plain: return .plain
        case .pomodoro: return .pomodoro(phase: pomodoro?.phase.rawValue ?? Pomodoro.Phase.work.rawValue)
        case .egg(let index):
            return configuration.presets.indices.contains(index) ? .egg(configuration.presets[index].name) : .plain
        }
    }
}
