import AlarmAudio
import Glibc
import SystemKit
import TimerCore
import TimerEngine
import TimerText

/// Where a recorded timer stands on this boot's clock: in the same boot its boot-clock deadline
/// (exact), after a reboot its UTC deadline placed on the wall clock as set now.
///
/// `eggtimer recover` uses it to decide (overdue by more than ``Recover/overdueLimit`` is not
/// rung), and the resumed process to count. A value; pure but for reading the clocks.
struct ResumePlan: Equatable {
    let record: TimerRecord
    /// Whether the record was written in an earlier boot (or its boot is unknown).
    let afterReboot: Bool
    /// The recorded deadline on this process's boot clock; nil when paused.
    let deadline: ContinuousClock.Instant?
    /// After a reboot, the deadline as the wall clock reads it, with the record's last write time
    /// as a floor for now; nil in the same boot or when paused.
    let wallDeadline: RecoveredDeadline?

    /// - Parameters:
    ///   - record: The record.
    ///   - bootID: This boot's id (``BootClock/bootID()``); nil when unknown (taken as a reboot).
    ///   - writtenAt: When the record was last written (``RecordStore/writeTime(path:)``); nil
    ///     when unknown.
    init(record: TimerRecord, bootID: String?, writtenAt: WallInstant? = nil) {
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
    func overdue(at now: ContinuousClock.Instant, wall: WallInstant) -> Duration? {
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
    func resumption(
        at now: ContinuousClock.Instant, wall: WallInstant, synchronised: Bool, presets: [Preset]
    ) throws(RecordError) -> Controller.Resumption {
        let kind: Run.Kind
        switch record.kind {
        case .plain: kind = .plain
        case .egg(let name): kind = presets.firstIndex { $0.name == name }.map { .egg($0) } ?? .plain
        case .pomodoro: throw .notRecoverable(Recover.pomodoroNote)
        }
        let phase: Controller.Resumption.Phase =
            deadline.map { .running(deadline: max($0, now)) } ?? .paused(left: record.remaining ?? record.total)
        return Controller.Resumption(
            kind: kind, label: record.label, total: record.total, phase: phase, snoozed: record.state == .snoozed,
            overdue: overdue(at: now, wall: wall), afterReboot: afterReboot, wallDeadline: wallDeadline,
            clockSynchronised: synchronised)
    }

    /// `3 min`, `42 s`, `2 h 5 min`: a lateness for messages, rounded down.
    static func text(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        if seconds < 60 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}

/// The resumed process's side: `eggtimer --resume-record PATH` reads the record and runs it.
enum Resume {
    /// The options and start for the timer recorded in `path`.
    /// - Parameters:
    ///   - path: The record file.
    ///   - base: The command line (only `--json` is kept from it).
    ///   - clockSynchronised: Whether the wall clock is synchronised; a seam for tests.
    /// - Returns: The options to run with (the record's device, sound, alarm options, broker and label),
    ///   the controller's start, and a note for the screen (how late it was).
    /// - Throws: `ExitStatus.noInput` (no such record), `.dataError` (corrupt, foreign, a
    ///   pomodoro); one line on standard error says which.
    static func load(
        path: String, base: Options, clockSynchronised: () -> Bool = ClockSync.isSynchronised
    ) throws(ExitStatus) -> (Options, Controller.Start, [String]) {
        do throws(RecordError) {
            let record = try RecordStore.read(path: path)
            var options = Options()
            options.json = base.json
            options.resumeRecord = path
            options.label = record.label
            options.device = record.alarm.device
            options.fallbackDevice = record.alarm.fallbackDevice
            options.soundPath = record.alarm.sound
            options.loops = record.alarm.loops
            options.ringFor = record.alarm.ringFor
            // A record written before the audible floor (issue 37) may hold a volume below 10 or a
            // ramp longer than 60 s, which the options now refuse: raised to the floor and cut to
            // 60 s rather than refused, since a refused record is an alarm that does not ring.
            options.volume = max(record.alarm.volume, Loudness.floorPercent)
            options.ramp = record.alarm.ramp.map { min($0, Loudness.longestRamp) }
            options.onDone = record.alarm.onDone
            options.say = record.alarm.say
            options.announce = record.alarm.announce
            options.voice = record.alarm.voice
            // The broker as the killed timer had it; a password is read again as it was then:
            // from the recorded file, else from this process's EGGTIMER_MQTT_PASSWORD.
            options.bus = record.bus ?? BusOptions()
            if let scheduled = record.schedule {
                guard
                    var recovery = AlarmRecovery(
                        scheduled, window: record.alarm.ringFor, now: AlarmRecovery.wallNow(),
                        resolver: LocalTimeResolver())
                else { throw RecordError.corrupt(line: 0, reason: "the alarm's schedule cannot be read back") }
                recovery.schedule.recoveredNote = recovery.missedNote
                return (options, .alarm(recovery.schedule, label: record.label), recovery.missedNote.map { [$0] } ?? [])
            }
            let now = ContinuousClock.now
            let synchronised = clockSynchronised()
            let plan = ResumePlan(
                record: record, bootID: BootClock.bootID(), writtenAt: RecordStore.writeTime(path: path))
            let resumption = try plan.resumption(
                at: now, wall: AlarmRecovery.wallNow(), synchronised: synchronised, presets: options.presets)
            var notes: [String] = []
            if let overdue = resumption.overdue, resumption.wallDeadline != nil, !synchronised,
                overdue > Recover.overdueLimit
            {
                notes.append("Recovered: \(Recover.heldNote(overdue)).")
            } else if let overdue = resumption.overdue {
                notes.append("Recovered: overdue by \(ResumePlan.text(overdue)).")
            }
            return (options, .resumed(resumption), notes)
        } catch {
            printError("eggtimer: \(path): \(error)")
            if case .system(_, _, let code) = error, code == ENOENT { throw .noInput }
            throw .dataError
        }
    }
}
