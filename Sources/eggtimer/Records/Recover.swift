import ControlChannel
import Glibc
import SystemKit
import TimerCore
import TimerEngine

/// `eggtimer recover`: starts again, as one detached process each, the timers recorded in the
/// state folder (``RecordStore``) that no process runs any more.
///
/// For each record, one line: on standard output what was done (resumed, already running, not
/// rung), on standard error a record skipped (corrupt, foreign, unknown format) or a timer that
/// would not start. In the same boot the deadline comes from the boot clock (exact); after a
/// reboot from UTC, and a deadline that passed rings at once, unless it passed more than
/// ``overdueLimit`` ago: then it is not rung (with a terminal on standard input the user is
/// asked) and its record is removed. A pomodoro is recorded but not resumed.
///
/// Runs start one at a time under an exclusive `flock` on `.recover.lock` in the state folder,
/// and a timer whose label answers on its control socket is skipped, so two runs never start a
/// timer twice. Each resumed timer is `eggtimer --resume-record PATH --json` in a session of
/// its own (setsid), standard input on /dev/null, standard output and error appended to
/// `<name>.log` beside its record (what the timer said before it died stays), no other
/// descriptor, an empty signal mask and default signal dispositions. Blocks for at most ``startLimit`` per timer.
enum Recover {
    /// A deadline that passed longer ago than this is not rung (``RecoveredDeadline/overdueLimit``).
    static let overdueLimit = RecoveredDeadline.overdueLimit
    /// How long a started timer has to write its record (proof it runs) before it is reported
    /// as not answering.
    static let startLimit = Duration.seconds(5)

    /// Recovers every record, or with `bootOnly` those an earlier boot left, or with `label` that
    /// timer's alone.
    /// - Parameters:
    ///   - bootOnly: `recover --boot` (the boot service): a record written in this boot (its
    ///     timer killed by hand: `kill`, `kill -9`, `systemctl stop`) is left alone, with a line,
    ///     for a plain `eggtimer recover` to bring back when asked.
    ///   - quiet: `recover --quiet` (the kitchen as it starts, issue 41): nothing is said of a
    ///     timer that runs (the kitchen follows it, and says so once).
    ///   - label: `recover LABEL` (the kitchen, for a followed timer that died by a signal): only
    ///     the record of that label (its file name, ``RecordStore/fileName(label:)``); none is
    ///     ``ExitStatus/noTimer``.
    /// - Returns: ``ExitStatus/done`` when there were records (whatever became of them),
    ///   ``ExitStatus/noTimer`` when there were none, ``ExitStatus/osError`` when the state folder
    ///   is unsafe or cannot be locked.
    static func run(bootOnly: Bool = false, quiet: Bool = false, label: String? = nil) -> ExitStatus {
        guard let store = RecordStore.current() else {
            printError("eggtimer: recover: no state folder (set XDG_STATE_HOME or HOME)")
            return .osError
        }
        do {
            try store.check()
        } catch .system(_, _, let code) where code == ENOENT {
            print("eggtimer: no timers to recover")
            return .noTimer
        } catch {
            printError("eggtimer: recover: \(error)")
            return .osError
        }
        var lock = open(store.folder + "/.recover.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        let readOnly = lock < 0 && (errno == EROFS || errno == EACCES || errno == EPERM)
        if readOnly {
            // A read-only folder (a mount, a full SD card remounted ro): an existing lock still
            // locks when opened for reading; without one, runs cannot be kept apart, which is said.
            lock = open(store.folder + "/.recover.lock", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            printError(
                "eggtimer: recover: \(store.folder) is read-only: timers are started, but their records cannot be "
                    + "updated or removed" + (lock < 0 ? ", and this run is not locked against another" : ""))
        } else if lock < 0 {
            printError("eggtimer: recover: cannot open the lock in \(store.folder): \(errorText(errno))")
            return .osError
        }
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0, let code = lockExclusively(lock) {
            printError("eggtimer: recover: cannot lock \(store.folder): \(errorText(code))")
            return .osError
        }
        if !readOnly { store.removeAbandonedTemporaries() }
        let only = label.map(RecordStore.fileName(label:))
        let names = store.names().filter { only == nil || $0 == only }
        do throws(ControlError) {
            try RuntimeFolder.checkForUse(RuntimeFolder.current())
        } catch .unsafeFolder(let path, let reason) {
            // Said once; no socket there is believed (ControlClient refuses the folder too).
            printError("eggtimer: recover: unsafe runtime folder '\(path)': \(reason); its sockets are not trusted")
        } catch {}
        guard !names.isEmpty else {
            print(label.map { "eggtimer: no record of \($0) to recover" } ?? "eggtimer: no timers to recover")
            return .noTimer
        }
        for name in names {
            switch recover(name, in: store, bootOnly: bootOnly, bootID: BootClock.bootID(), readOnly: readOnly) {
            case .running(let line) where quiet: _ = line
            case .said(let line), .running(let line): print(line.escapingControlCharacters)
            case .failed(let line): printError("eggtimer: " + line)
            }
        }
        return .done
    }

    /// What became of one record: a line for standard output, or one for standard error.
    enum Outcome: Equatable {
        case said(String)
        case failed(String)
        /// Its timer runs: nothing was done (`tea: already running (pid 42)`).
        case running(String)
    }

    /// How a countdown late by `overdue`, more than ``overdueLimit``, by a clock that is not
    /// synchronised is said: kept, and decided once the clock is set.
    static func heldNote(_ overdue: Duration) -> String {
        "overdue by \(ResumePlan.text(overdue)) by a clock that is not synchronised; "
            + "not dropped: it rings, or is only reported if still more than an hour late, once the clock is set"
    }

    /// Recovers the record `name`.
    /// - Parameters:
    ///   - name: The record's file name in the store.
    ///   - store: The state folder.
    ///   - bootOnly: Leave alone a record written in this boot (``run(bootOnly:)``).
    ///   - bootID: This boot's id (``BootClock/bootID()``); nil when unknown (taken as a reboot).
    ///   - readOnly: Whether the state folder cannot be written: the timer's log then goes nowhere,
    ///     and a record that would be removed is kept (and said so).
    ///   - clockSynchronised: Whether the wall clock is synchronised; a seam for tests.
    /// - Returns: The line that says what became of it.
    static func recover(
        _ name: String, in store: RecordStore, bootOnly: Bool = false, bootID: String?, readOnly: Bool = false,
        clockSynchronised: () -> Bool = ClockSync.isSynchronised
    ) -> Outcome {
        let removed = readOnly ? "record kept: the state folder is read-only" : "record removed"
        let path = store.folder + "/" + name
        let record: TimerRecord
        do { record = try RecordStore.read(path: path) } catch { return .failed("\(name): skipped: \(error)") }
        let label = record.label
        let stem = String(name.dropLast(RecordStore.suffix.count))
        let plan = ResumePlan(record: record, bootID: bootID, writtenAt: RecordStore.writeTime(path: path))
        // A countdown and an alarm at a time are at most 999:59:59 ahead when made: a record whose
        // deadline lies further ahead was not written by a timer (the clock cannot have gone back
        // that far after its last write: that is the floor).
        if let deadline = plan.deadline,
            ContinuousClock.now.duration(to: deadline) > DurationParser.maximum + .seconds(60)
        {
            return .failed(
                "\(name): skipped: corrupt record: its deadline is more than \(DurationParser.maximumText) ahead")
        }
        if let running = running(labels: [stem, label], record: record, sameBoot: !plan.afterReboot) {
            return .running("\(label): already running (\(running))")
        }
        if bootOnly, !plan.afterReboot {
            return .said(
                "\(label): left alone: it was ended in this boot, not by a reboot; `eggtimer recover` starts it")
        }
        if record.kind == .pomodoro {
            store.remove(name: name)
            return .said("\(label): not recovered: \(ResumePlan.pomodoroNote) (\(removed))")
        }
        var overdue = plan.overdue(at: .now, wall: AlarmRecovery.wallNow())
        let series = record.schedule.flatMap { scheduled -> AlarmRecovery? in
            guard scheduled.every != nil else { return nil }
            return AlarmRecovery(
                scheduled, window: record.alarm.ringFor, now: AlarmRecovery.wallNow(), resolver: LocalTimeResolver())
        }
        if let series, !series.ringsNow { overdue = nil }  // a series goes on with its next occurrence
        var said: String?
        if series == nil, let overdue, overdue > overdueLimit, plan.wallDeadline != nil, !clockSynchronised() {
            said = heldNote(overdue)  // judged on a clock known to be unset: decided by the timer once it is
        } else if series == nil, let overdue, overdue > overdueLimit {
            let late = "overdue by \(ResumePlan.text(overdue))"
            if !ask("\(label): \(late), more than an hour late. Ring now? [y/N] ") {
                store.remove(name: name)
                return .said("\(label): \(late), not rung (more than an hour late); \(removed)")
            }
        }
        let log = readOnly ? "/dev/null" : store.folder + "/" + stem + ".log"
        let child: pid_t
        do { child = try start(record: path, log: log) } catch {
            return .failed("\(label): not resumed: cannot start eggtimer: \(errorText(error.code))")
        }
        if let series {
            said =
                "resumed, rings \(series.schedule.whenText) (every \(series.schedule.recurrenceText ?? ""))"
                + (series.missedNote.map { "; " + $0 } ?? "")
        }
        return awaitStart(
            child, label: label, plan: plan, overdue: overdue, store: store, log: log, said: said, readOnly: readOnly)
    }

    /// Whether the timer of `record` still runs: its label (or the record's own name) answers
    /// on a control socket, or (same boot) its recorded process is an eggtimer still alive: the
    /// recorded pid and, when the record has it, the same start time (a pid that another
    /// eggtimer took since is not the recorded timer).
    /// - Returns: How it was found (`pid 42`), or nil when it does not run.
    private static func running(labels: [String], record: TimerRecord, sameBoot: Bool) -> String? {
        let folder = RuntimeFolder.current()
        for label in Set(labels) {
            do {
                let reply = try ControlClient.exchange(
                    ControlRequest.status.line, label: label, folder: folder, timeout: .seconds(1))
                return TimerStatus(line: reply).map { "pid \($0.pid)" } ?? "answering on its socket"
            } catch  where error.isGone {
                continue
            } catch .unsafeFolder, .foreignListener {
                continue  // not this user's timer: said once by run(), or not believed
            } catch .pathTooLong {
                continue  // no timer can listen there; the resumed one warns that it has no socket
            } catch {
                return "its control socket is busy"
            }
        }
        if sameBoot, writerRuns(record) { return "pid \(record.pid), no control socket" }
        return nil
    }

    /// Takes an exclusive `flock` on `lock`, saying once on standard error when another
    /// `eggtimer recover` holds it (then it waits for that run to end: it starts timers one by one).
    /// - Parameter lock: An open descriptor of the state folder's `.recover.lock`.
    /// - Returns: nil when locked; the errno otherwise. C: `flock`.
    static func lockExclusively(_ lock: Int32) -> Int32? {
        var said = false
        while true {
            if flock(lock, LOCK_EX | (said ? 0 : LOCK_NB)) == 0 { return nil }
            let code = errno
            if code == EWOULDBLOCK, !said {
                printError("eggtimer: waiting for another `eggtimer recover` to finish")
                said = true
            } else if code != EINTR {
                return code
            }
        }
    }

    /// Waits for a running `eggtimer recover` in `store` to finish and keeps others out until the
    /// returned descriptor is closed: `cancel LABEL` forgets a kept record under it, so a recover
    /// cannot start the timer between cancel's look and its removal.
    /// - Parameter store: The state folder.
    /// - Returns: The locked descriptor, which the caller closes; nil when there is no lock file
    ///   (no recover has run) or it cannot be taken.
    static func holdOffRuns(in store: RecordStore) -> Int32? {
        let lock = open(store.folder + "/.recover.lock", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard lock >= 0 else { return nil }
        guard lockExclusively(lock) == nil else {
            close(lock)
            return nil
        }
        return lock
    }

    /// Whether the process that wrote `record` (in this boot) still runs: its pid is alive, not a
    /// zombie waiting to be reaped (a process killed with SIGKILL stays one until its parent, or a
    /// container's init, reaps it), and is that process, not a later one that got the pid.
    ///
    /// A record with `pid_start` names its process by pid and start time (unique within a boot),
    /// whatever the process is called: a timer that `recover` started runs as `/proc/self/exe`
    /// (its comm is `exe`), and the binary may run under another name. An older record without it
    /// is believed when the process is an eggtimer: comm `eggtimer`, or the same executable file as
    /// this process.
    /// - Parameter record: A record of this boot.
    /// - Returns: Whether its writer runs; false for this very process.
    /// C: `kill(pid, 0)`, `/proc/PID/stat`, `/proc/PID/comm`, `stat(/proc/PID/exe)`.
    static func writerRuns(_ record: TimerRecord) -> Bool {
        let pid = record.pid
        guard pid > 0, pid != getpid(), kill(pid, 0) == 0, !ProcessState.hasEnded(pid) else { return false }
        if let start = record.pidStart { return ProcessState.startTime(of: pid) == start }
        if processName(pid) == "eggtimer" { return true }
        var theirs = stat()
        var ours = stat()
        return stat("/proc/\(pid)/exe", &theirs) == 0 && stat("/proc/self/exe", &ours) == 0
            && theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino
    }

    /// `/proc/PID/comm`, without its newline.
    private static func processName(_ pid: pid_t) -> String? {
        guard let bytes = RegularFile.contents("/proc/\(pid)/comm", limit: 32), !bytes.isEmpty else { return nil }
        return String(decoding: bytes.prefix { $0 != 10 }, as: UTF8.self)
    }

    /// Asks `question` on standard output and reads the answer from standard input.
    ///
    /// Only when standard input is a terminal; blocks until the line comes.
    /// - Returns: Whether the answer was yes (`y`, `yes`, any case); false without a terminal.
    private static func ask(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { return false }
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(question.escapingControlCharacters)
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") || answer.count > 16 { break }
            answer.append(byte)
        }
        let text = String(decoding: answer, as: UTF8.self).lowercased()
        return text == "y" || text == "yes"
    }

    private static func print(_ line: String) {
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(line + "\n")
    }
}
