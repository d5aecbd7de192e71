package import TimerCore

extension Controller {
    /// A countdown running or paused.
    package struct Counting: Equatable {
        package var run: Run
        /// Whether the alarm player has been started (the device opened) for this deadline.
        package var armed = false
        /// When the countdown started, for the view's flash of the picked menu entry.
        package let startedAt: ContinuousClock.Instant
        /// The menu entry picked to start it, if it was started from the menu.
        package let pickedEntry: Int?
        /// The previous pomodoro interval's alarm, while it still plays its one pass.
        package var previousAlarm: PreviousAlarm?
        /// Whether this countdown is a snoozed alarm waiting to ring again (state `snoozed`).
        package var snoozed = false
    }

    /// A pomodoro interval's alarm that plays its one pass while the next interval counts.
    package struct PreviousAlarm: Equatable {
        /// The interval that ended.
        package let run: Run
        /// Its deadline, when the alarm's first frame is due.
        package let deadline: ContinuousClock.Instant
        /// Its phase (the pomodoro has moved on to the next one).
        package let phase: Pomodoro.Phase
    }

    /// Handles a counting timer's own keys, those that are no ``Command`` (``command(forKey:)``):
    /// `r` restarts, `n` skips to the next pomodoro interval, `q` quits.
    package mutating func handleCounting(key: Key, _ counting: Counting, at now: Instant) {
        var counting = counting
        if isAlarmKeyIgnored(key, counting) { return }
        if key == .character("r") {
            // Held until the clock is set, it has no time left to restart; otherwise the user's
            // change makes it a countdown of real time again, off the wall clock.
            if recovered?.held == true { return }
            recovered = nil
        }
        switch key {
        case .character("r"):
            counting.run.countdown.restart(at: now)
            disarm(&counting)
            mode = .counting(counting)
            emit(event(.reset, counting.run, at: now))
        case .character("n") where pomodoro != nil:
            disarm(&counting)
            emit(event(.cancelled, counting.run, at: now, extra: [("by", .text("skip"))]))
            nextInterval(skipped: true, at: now)
        case .character("q"):
            disarm(&counting)
            emit(event(.cancelled, counting.run, at: now, extra: [("by", .text("quit"))]))
            outcome = .cancelled
            exit(status(for: .cancelled))
        default:
            break
        }
    }

    /// Whether `+`/`-` (`delta` of ±1 min) may change the current countdown at `now`: the time left
    /// must stay above zero, and at most `DurationParser.maximum`.
    package func canAdjust(by delta: Duration, at now: Instant) -> Bool {
        guard case .counting(let counting) = mode, counting.run.countdown.canAdjust(by: delta, at: now) else {
            return false
        }
        return delta <= .zero || counting.run.countdown.remaining(at: now) + delta <= DurationParser.maximum
    }

    /// Opens the device shortly before the deadline; at the deadline, rings (or, for a pomodoro
    /// interval without `--wait`, plays the alarm once while the next interval starts).
    package mutating func advanceCounting(_ counting: Counting, to now: Instant) {
        var counting = counting
        guard let deadline = counting.run.countdown.deadline, recovered?.held != true else { return }
        if !counting.armed, now >= deadline.advanced(by: .zero - configuration.armLead) {
            counting.armed = true
            mode = .counting(counting)
            startAlarm(at: deadline, loops: ringLoops(counting.run), line: ringLine(counting.run))
        }
        guard now >= deadline else { return }
        recovered = nil  // rung: it follows no clock any more
        deadlinesSeen += 1
        emit(event(.finished, counting.run, at: now))
        if configuration.runsDoneCommand, !counting.snoozed { perform(.runDoneCommand) }
        if isOneShot(counting.run), pomodoro?.isLastInterval != true, let phase = pomodoro?.phase {
            // The alarm plays its pass out while the next interval starts.
            if audio.silent { perform(.bell) }
            nextInterval(skipped: false, at: now)
            if case .counting(var next) = mode, audio.playerActive {
                next.previousAlarm = PreviousAlarm(run: counting.run, deadline: deadline, phase: phase)
                mode = .counting(next)
            }
        } else {
            mode = .ringing(
                Ringing(
                    run: counting.run, since: deadline, loops: ringLoops(counting.run),
                    until: configuration.ringFor.map { deadline.advanced(by: $0) }))
        }
    }

    /// How many passes a ringing of `run` plays before ending by itself; nil: until acknowledged.
    package func ringLoops(_ run: Run) -> Int? { isOneShot(run) ? 1 : configuration.loops }

    /// The spoken line the ringing at the end of `run` starts with.
    ///
    /// A pomodoro's work interval says a break starts (the long one when this pomodoro completes
    /// the set), a break that work starts again; any other timer its own line. Read before the
    /// pomodoro advances.
    package func ringLine(_ run: Run) -> RingLine {
        guard run.kind == .pomodoro, let pomodoro else { return .ready }
        switch pomodoro.phase {
        case .work: return .breakTime(long: pomodoro.completedInSet + 1 >= pomodoro.plan.longBreakAfter)
        case .shortBreak, .longBreak: return .backToWork
        }
    }

    /// Whether `run` is a pomodoro interval whose alarm plays once (no `--wait`).
    package func isOneShot(_ run: Run) -> Bool { run.kind == .pomodoro && !configuration.waitForKey }

    /// Closes a device opened early for this deadline, which has just moved.
    package mutating func disarm(_ counting: inout Counting) {
        guard counting.armed else { return }
        counting.armed = false
        stopAlarm()
    }

    /// Starts the pomodoro's next interval, or exits when the plan is done.
    package mutating func nextInterval(skipped: Bool, at now: Instant) {
        guard var pomodoro else { return }
        let next = pomodoro.advance(skipped: skipped)
        self.pomodoro = pomodoro
        guard next != nil else {
            leave(.done, at: now)
            return
        }
        begin(.pomodoro, duration: pomodoro.duration, label: pomodoroLabel, at: now)
    }
}
