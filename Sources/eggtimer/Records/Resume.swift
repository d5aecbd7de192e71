import AlarmAudio
import Glibc
import SystemKit
import TimerEngine
import TimerText

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
