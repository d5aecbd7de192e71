package import TimerCore
package import TimerText

/// Where a recorded timer stands on this boot's clock: in the same boot its boot-clock deadline
/// (exact), after a reboot its UTC deadline placed on the wall clock as set now.
///
/// `eggtimer recover` uses it to decide (overdue by more than ``RecoveredDeadline/overdueLimit`` is
/// not rung), and the resumed process to count. A value; pure but for reading the clocks.
package struct ResumePlan: Equatable {
    package let record: TimerRecord
    /// Whether the record was written in an earlier boot (or its boot is unknown).
    package let afterReboot: Bool
    /// The recorded deadline on this process's boot clock; nil when paused.
    package let deadline: ContinuousClock.Instant?
    /// After a reboot, the deadline as the wall clock reads it, with the record's last write time
    /// as a floor for now; nil in the same boot or when paused.
    package let wallDeadline: RecoveredDeadline?

    /// Why a pomodoro is not recovered.
    package static let pomodoroNote =
        "a pomodoro is not resumed after a restart; start it again with 'eggtimer pomodoro'"

    /// Places `record` on this boot's clock (reading the boot id's clocks now).
    /// - Parameters:
    ///   - record: The record.
    ///   - bootID: This boot's id (``BootClock/bootID()``); nil when unknown (taken as a reboot).
    ///   - writtenAt: When the record was last written (``RecordStore/writeTime(path:)``); nil
    ///     when unknown.
    package init(record: TimerRecord, bootID: String?, writtenAt: WallInstant? = nil) {
        self.record = record
        afterReboot = bootID == nil || bootID != record.bootID
        if record.state == .paused {
            deadline = nil
            wallDeadline = nil
        } else if !afterReboot, let boot = record.deadlineBootNanoseconds {
            deadline = BootClock.instant(bootNanoseconds: boot)
            wallDeadline = nil
        } else {
            let recovered = record.deadlineUnixNanoseconds.map {
                RecoveredDeadline(deadline: WallInstant(unixNanoseconds: $0), floor: writtenAt)
            }
            // A wall clock before the record's last write is known wrong: the deadline is that much nearer.
            let wall = AlarmRecovery.wallNow()
            let behind = recovered.map { wall.duration(to: $0.now(wall: wall)) } ?? .zero
            deadline = record.deadlineUnixNanoseconds.map {
                BootClock.instant(unixNanoseconds: $0).advanced(by: .zero - behind)
            }
            wallDeadline = recovered
        }
    }

    /// How long ago the deadline passed at `now`; nil when it has not (or the timer is paused).
    ///
    /// After a reboot it is judged on the wall clock reading `wall`, no earlier than the record's
    /// last write (``RecoveredDeadline/now(wall:)``).
    /// - Parameters:
    ///   - now: The boot clock now.
    ///   - wall: The wall clock now.
    /// - Returns: The lateness; nil when not late.
    package func overdue(at now: ContinuousClock.Instant, wall: WallInstant) -> Duration? {
        if let wallDeadline { return wallDeadline.overdue(wall: wall) }
        guard let deadline, deadline < now else { return nil }
        return deadline.duration(to: now)
    }

    /// The controller's start for this record at `now`: an overdue deadline moves to `now` (the
    /// alarm rings at once); the kind's preset is looked up by name in `presets`.
    /// - Parameters:
    ///   - now: The boot clock now.
    ///   - wall: The wall clock now.
    ///   - synchronised: Whether the wall clock is synchronised (``ClockSync/isSynchronised()``).
    ///   - presets: The presets, for an egg's title.
    /// - Returns: The resumption.
    /// - Throws: ``RecordError/notRecoverable(_:)`` for a pomodoro.
    package func resumption(
        at now: ContinuousClock.Instant, wall: WallInstant, synchronised: Bool, presets: [Preset]
    ) throws(RecordError) -> Controller.Resumption {
        let kind: Run.Kind
        switch record.kind {
        case .plain: kind = .plain
        case .egg(let name): kind = presets.firstIndex { $0.name == name }.map { .egg($0) } ?? .plain
        case .pomodoro: throw .notRecoverable(Self.pomodoroNote)
        }
        let phase: Controller.Resumption.Phase =
            deadline.map { .running(deadline: max($0, now)) } ?? .paused(left: record.remaining ?? record.total)
        return Controller.Resumption(
            kind: kind, label: record.label, total: record.total, phase: phase, snoozed: record.state == .snoozed,
            overdue: overdue(at: now, wall: wall), afterReboot: afterReboot, wallDeadline: wallDeadline,
            clockSynchronised: synchronised)
    }

    /// `3 min`, `42 s`, `2 h 5 min`: a lateness for messages, rounded down.
    package static func text(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        if seconds < 60 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
