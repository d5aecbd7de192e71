import TimerCore

extension Controller {
    /// A timer started again from its record (`eggtimer recover`): where its countdown was.
    package struct Resumption: Equatable {
        /// Where the recorded countdown stands, on this process's boot clock.
        package enum Phase: Equatable {
            /// Counting towards `deadline` (never earlier than the resuming instant: an overdue
            /// deadline is moved to it, and ``Resumption/overdue`` says by how much).
            case running(deadline: ContinuousClock.Instant)
            /// Paused with `left` to run.
            case paused(left: Duration)
        }

        package var kind: Run.Kind
        package var label: String
        /// The countdown's full length, `+`/`-` included; more than zero.
        package var total: Duration
        package var phase: Phase
        /// Whether it was a snoozed alarm waiting to ring again.
        package var snoozed = false
        /// How late the recorded deadline already was when resumed (it rings at once); nil if not.
        package var overdue: Duration?
        /// Whether the record came from an earlier boot (its deadline was taken from UTC).
        package var afterReboot = false
        /// After a reboot, a running countdown's deadline as the wall clock reads it: followed
        /// until it rings (see Controller+Recovered.swift); nil in the same boot, or paused.
        package var wallDeadline: RecoveredDeadline?
        /// Whether the wall clock was synchronised when it was resumed (``ClockSync``).
        package var clockSynchronised = true

        /// Where a recorded countdown was (the memberwise initializer, for the executable's resume
        /// plan); the parameters are the properties of the same names.
        package init(
            kind: Run.Kind, label: String, total: Duration, phase: Phase, snoozed: Bool = false,
            overdue: Duration? = nil,
            afterReboot: Bool = false, wallDeadline: RecoveredDeadline? = nil, clockSynchronised: Bool = true
        ) {
            (self.kind, self.label, self.total, self.phase) = (kind, label, total, phase)
            (self.snoozed, self.overdue, self.afterReboot) = (snoozed, overdue, afterReboot)
            (self.wallDeadline, self.clockSynchronised) = (wallDeadline, clockSynchronised)
        }
    }

    /// Starts counting where a recorded timer was: the `started` event carries `recovered`
    /// (`same_boot` or `after_reboot`) and, when its deadline had passed, `overdue_ms`; a paused
    /// one is then `paused`.
    package mutating func resume(_ resumption: Resumption, at now: Instant) {
        var countdown = Countdown<Instant>(total: resumption.total)
        switch resumption.phase {
        case .running(let deadline):
            // Overdue (or made so by the start-up since the resumption was planned): due now.
            countdown.start(at: max(deadline, now).advanced(by: .zero - resumption.total))
        case .paused(let left):
            // Started now and paused when `left` remains: exact, since instants are exact.
            countdown.start(at: now)
            countdown.pause(at: now.advanced(by: resumption.total - left))
        }
        let run = Run(kind: resumption.kind, label: resumption.label, countdown: countdown)
        var counting = Counting(run: run, startedAt: now, pickedEntry: nil)
        counting.snoozed = resumption.snoozed
        mode = .counting(counting)
        var extra: [(String, TimerEvent.Value)] = [
            ("recovered", .text(resumption.afterReboot ? "after_reboot" : "same_boot"))
        ]
        if let overdue = resumption.overdue { extra.append(("overdue_ms", .integer(overdue.nanoseconds / 1_000_000))) }
        emit(event(.started, run, at: now, extra: extra))
        if countdown.isPaused { emit(event(.paused, run, at: now)) }
        if let wallDeadline = resumption.wallDeadline, !countdown.isPaused {
            clockSynchronised = resumption.clockSynchronised
            recovered = Recovered(deadline: wallDeadline, since: now, limit: RecoveredDeadline.overdueLimit)
            if let reading = wallReading { placeRecovered(at: now, wall: reading.wall(at: now)) }
        }
    }
}
