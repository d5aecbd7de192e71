import ControlChannel
import EventLoop
import Glibc
import SystemKit
import TimerCore
import TimerEngine

extension Recover {
    /// Starts `eggtimer --resume-record record --json`, detached (see ``Recover``).
    /// - Parameters:
    ///   - record: The record file's path.
    ///   - log: Standard output and error go here (created 0600, appended to).
    /// - Returns: The child's pid; this process is its parent until it exits.
    /// - Throws: `SpawnError` with the `errno` (the log cannot be opened, no program).
    /// C: `posix_spawn` with `POSIX_SPAWN_SETSID`.
    static func start(record: String, log: String) throws(SpawnError) -> pid_t {
        try ChildProcess.start(
            "/proc/self/exe", ["eggtimer", "--resume-record", record, "--json"], detachment: .session
        ) { actions in
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(
                &actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0o600)
            posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        }
    }

    /// Waits for the started timer to run, then says how it went.
    ///
    /// It runs once it has written its own record (its socket is up, its alarm prepared); it
    /// may also exit first, or not answer within ``startLimit``.
    /// Waits in an ``EventLoop`` on the child's pidfd (``ChildWatch``) and on the state folder
    /// (``FolderWatch``: the record is renamed into place, so it is seen at once); in a read-only
    /// state folder, where the timer cannot write one, it asks the timer's control socket every
    /// ``probePeriod`` instead (as it does where inotify is refused). `said`, when given, is what
    /// a timer that runs is reported as (a repeating alarm's next occurrence and missed ones).
    static func awaitStart(
        _ child: pid_t, label: String, plan: ResumePlan, overdue: Duration?, store: RecordStore, log: String,
        said: String? = nil, readOnly: Bool = false
    ) -> Outcome {
        let name = RecordStore.fileName(label: label)
        let own = store.folder + "/" + name
        var loop = EventLoop(clock: MonotonicClock())
        defer { loop.close() }
        loop.add(ChildWatch(pid: child) { .childExited(pid: child, $0) })
        // Watched before the first look, so a record written in between is not missed.
        let folder = readOnly ? nil : FolderWatch(folder: store.folder)
        if let folder { loop.add(folder) }
        let giveUp = ContinuousClock.now + startLimit
        var exited: Int32?
        var look = true
        while exited == nil, ContinuousClock.now < giveUp {
            if look, (try? RecordStore.read(path: own))?.pid == child { break }
            if readOnly, answers(label: label, pid: child) { break }
            let wake = folder == nil ? min(giveUp, ContinuousClock.now + probePeriod) : giveUp
            guard let inputs = try? loop.wait(until: wake) else { break }
            look = folder == nil || inputs.contains { $0 == .fileWritten(name: name) || $0 == .fileWritten(name: nil) }
            for case .childExited(_, let exit) in inputs {
                switch exit {
                case .exited(let status): exited = status
                case .signaled(let signal): exited = 128 + signal
                }
            }
        }
        let late = overdue.map { "overdue by \(ResumePlan.text($0)), rang at once" }
        if let exited {
            let ended = [ExitStatus.done, .cancelled, .missed].map(\.code).contains(exited)
            let what = late ?? "resumed"
            return ended
                ? .said("\(label): \(what) and ended (pid \(child), status \(exited); see \(log))")
                : .failed("\(label): not resumed: eggtimer exited with status \(exited); see \(log)")
        }
        let restart = plan.afterReboot ? " after a restart" : ""
        if let said { return .said("\(label): \(said) (pid \(child))") }
        if let late { return .said("\(label): \(late)\(restart) (pid \(child))") }
        if plan.deadline == nil {
            let left = (plan.record.remaining ?? plan.record.total).clockText
            return .said("\(label): resumed\(restart), paused with \(left) left (pid \(child))")
        }
        let left = plan.deadline.map { ContinuousClock.now.duration(to: $0).clockText } ?? ""
        return .said("\(label): resumed\(restart), rings in \(left) (pid \(child))")
    }

    /// Whether the timer labelled `label` answers on its control socket as process `pid`.
    private static func answers(label: String, pid: pid_t) -> Bool {
        let reply = try? ControlClient.exchange(
            ControlRequest.status.line, label: label, folder: RuntimeFolder.current(), timeout: .milliseconds(100))
        return reply.flatMap(TimerStatus.init(line:))?.pid == pid
    }

    /// How often the started timer is looked at where no event says it runs: its control socket
    /// in a read-only state folder, its record where inotify is refused.
    static let probePeriod: Duration = .milliseconds(10)
}
