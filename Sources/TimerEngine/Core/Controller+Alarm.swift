import SystemKit
package import TimerCore
package import TimerModel
package import TimerText

extension Controller {
    /// The wall clock (CLOCK_REALTIME) read at a boot-clock instant: maps wall-clock deadlines to
    /// the boot clock while the wall clock is not set.
    package struct WallReading: Equatable {
        /// The boot-clock instant of the reading.
        package var boot: ContinuousClock.Instant
        /// What the wall clock read then.
        package var wall: WallInstant

        /// The wall clock at boot instant `instant`, if it is not set meanwhile.
        package func wall(at instant: ContinuousClock.Instant) -> WallInstant {
            wall.advanced(by: boot.duration(to: instant))
        }

        /// The boot instant at which the wall clock reads `instant`, if it is not set meanwhile.
        package func boot(at instant: WallInstant) -> ContinuousClock.Instant {
            boot.advanced(by: wall.duration(to: instant))
        }
    }

    /// How far the wall clock may wander from the boot clock before it counts as set (stepped):
    /// more than reading both clocks can disagree by, far less than anyone would notice.
    package static let stepTolerance: Duration = .milliseconds(2)

    /// Starts what the controller was made for at `now`, with the wall clock reading `wall` then.
    /// - Parameters:
    ///   - now: The boot clock now.
    ///   - wall: The wall clock now.
    /// - Returns: The effects of starting (the `started` event).
    package mutating func start(at now: Instant, wall: WallInstant) -> [Effect] {
        wallReading = WallReading(boot: now, wall: wall)
        return start(at: now)
    }

    /// Handles one round of inputs seen at `now`, the wall clock reading `wall` then.
    ///
    /// A wall clock that moved against the boot clock since the last reading was set (NTP, `date
    /// -s`): an alarm at a time is resolved again and moved (a countdown is not; see
    /// ``observe(wall:at:)``), before the inputs are handled.
    /// - Parameters:
    ///   - inputs: What the loop read, in order.
    ///   - now: The boot clock now.
    ///   - wall: The wall clock now.
    /// - Returns: What the event loop must do, in order.
    package mutating func handle(round inputs: [Input], at now: Instant, wall: WallInstant) -> [Effect] {
        observe(wall: wall, at: now)
        return handle(round: inputs, at: now)
    }

    /// Notes what the wall clock reads at `now`; when it was set since the deadline was mapped,
    /// resolves the alarm's local time again under the zone's rules in force now (the mapping may
    /// have changed) and moves its deadline (`rescheduled`): a step past it rings at once.
    ///
    /// A countdown (and a snoozed alarm, which waits a length of real time) stays on the boot clock.
    /// - Parameters:
    ///   - wall: The wall clock now.
    ///   - now: The boot clock now.
    package mutating func observe(wall: WallInstant, at now: Instant) {
        guard let reading = wallReading else {
            wallReading = WallReading(boot: now, wall: wall)
            return
        }
        let step = reading.wall(at: now).duration(to: wall)
        guard step > Self.stepTolerance || step < .zero - Self.stepTolerance else { return }
        wallReading = WallReading(boot: now, wall: wall)
        if recovered != nil {
            placeRecovered(at: now, wall: wall)
            return
        }
        guard var schedule, case .counting(var counting) = mode, !counting.snoozed,
            let old = counting.run.countdown.deadline
        else { return }
        schedule.resolveAgain(now: wall, resolver: LocalTimeResolver())
        self.schedule = schedule
        let deadline = max(now, WallReading(boot: now, wall: wall).boot(at: schedule.occurrence.instant))
        let total = max(.nanoseconds(1), counting.run.countdown.total + old.duration(to: deadline))
        counting.run.countdown = Self.countdown(endingAt: deadline, total: total)
        if counting.armed {
            counting.armed = false
            stopAlarm()
        }
        mode = .counting(counting)
        let stepMilliseconds = step.wholeMilliseconds()
        emit(event(.rescheduled, counting.run, at: now, extra: [("step_ms", .integer(stepMilliseconds))]))
    }

    /// Notes whether the wall clock is synchronised; a change is logged (`clock`) while an alarm
    /// at a time runs, since it follows that clock.
    /// - Parameters:
    ///   - synchronised: What the kernel says now (``ClockSync/isSynchronised()``).
    ///   - now: The boot clock now.
    /// - Returns: The effects: the `clock` event, when it changed.
    package mutating func observe(clockSynchronised synchronised: Bool, at now: Instant) -> [Effect] {
        guard synchronised != clockSynchronised else { return [] }
        clockSynchronised = synchronised
        if recovered != nil, let reading = wallReading {
            // Decided now that the clock is set (or placed again now that it is not).
            let state = synchronised ? "synchronised" : "unsynchronised"
            emit(event(.clock, currentRun, at: now, extra: [("clock", .text(state))]))
            placeRecovered(at: now, wall: reading.wall(at: now))
            return takeEffects()
        }
        guard schedule != nil, currentRun != nil else { return [] }
        let state = synchronised ? "synchronised" : "unsynchronised"
        return [.emit(event(.clock, currentRun, at: now, extra: [("clock", .text(state))]))]
    }

    /// When the armed alarm rings on the wall clock, for the event loop's wall-clock timer; nil
    /// unless an alarm at a time is counting (not snoozed).
    package var wallDeadline: WallInstant? {
        if recovered != nil { return recoveredWallDeadline }
        guard let schedule, case .counting(let counting) = mode, !counting.snoozed else { return nil }
        return schedule.occurrence.instant
    }

    /// When an alarm at a time is scheduled to ring, for `status`: the armed occurrence's wall-clock
    /// instant while it counts or rings (a recovered alarm ringing late still shows its scheduled
    /// time, not when it began); nil for a countdown, and while snoozed (the snooze's deadline then).
    package var scheduledRing: WallInstant? {
        guard let schedule else { return nil }
        switch mode {
        case .counting(let counting): return counting.snoozed ? nil : schedule.occurrence.instant
        case .ringing: return schedule.occurrence.instant
        case .menu, .exited: return nil
        }
    }

    /// Counts towards the schedule's occurrence at `now`: its wall-clock instant mapped to the boot
    /// clock (an occurrence already due rings at once); logs `started` with when it rings.
    /// - Parameters:
    ///   - label: The timer's label.
    ///   - now: The boot clock now.
    package mutating func beginAlarm(label: String, at now: Instant) {
        guard let schedule else { return }
        let reading = wallReading ?? WallReading(boot: now, wall: schedule.occurrence.instant)
        let deadline = max(now, reading.boot(at: schedule.occurrence.instant))
        let total = max(.nanoseconds(1), now.duration(to: deadline))
        let run = Run(kind: .plain, label: label, countdown: Self.countdown(endingAt: deadline, total: total))
        mode = .counting(Counting(run: run, startedAt: now, pickedEntry: nil))
        var extra: [(String, TimerEvent.Value)] = [("rings", .text(schedule.whenText))]
        if let note = schedule.occurrence.note { extra.append(("rule", .text(note))) }
        if let every = schedule.recurrenceText { extra.append(("every", .text(every))) }
        if let recovered = schedule.recoveredNote {
            extra.append(("recovered", .text(recovered)))
            self.schedule?.recoveredNote = nil
        }
        emit(event(.started, run, at: now, extra: extra))
    }

    /// Ends the timer as `outcome`, or, for a repeating alarm, arms its next occurrence (the first
    /// after the one that rang that is still ahead) and keeps running.
    /// - Parameters:
    ///   - outcome: How this ringing ended: done (acknowledged) or missed.
    ///   - now: The boot clock now.
    package mutating func leaveOrRepeat(_ outcome: TimerState, at now: Instant) {
        guard var schedule, let reading = wallReading, let label = recentRun?.label,
            schedule.advance(now: reading.wall(at: now), resolver: LocalTimeResolver())
        else {
            leave(outcome, at: now)
            return
        }
        self.outcome = outcome
        self.schedule = schedule
        beginAlarm(label: label, at: now)
    }

    /// Whether `key` is one that an alarm at a time ignores while counting: it rings at a time of
    /// day, so it cannot be paused, restarted or moved by a minute (a snoozed one can).
    package func isAlarmKeyIgnored(_ key: Key, _ counting: Counting) -> Bool {
        guard schedule != nil, !counting.snoozed, case .character(let character) = key else { return false }
        return " r+-".contains(character)
    }

    /// A running countdown of `total` that reaches zero at `deadline`.
    /// - Precondition: `total > .zero`.
    package static func countdown(endingAt deadline: Instant, total: Duration) -> Countdown<Instant> {
        var countdown = Countdown<Instant>(total: total)
        countdown.start(at: deadline.advanced(by: .zero - total))
        return countdown
    }
}
