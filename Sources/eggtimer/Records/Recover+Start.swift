import CSystem
import ControlChannel
import Glibc
import TimerCore

extension Recover {
    /// Starts `eggtimer --resume-record record --json`, detached (see ``Recover``).
    /// - Parameters:
    ///   - record: The record file's path.
    ///   - log: Standard output and error go here (created 0600, truncated).
    /// - Returns: The child's pid; this process is its parent until it exits.
    /// - Throws: `SpawnError` with the `errno` (the log cannot be opened, no program).
    /// C: `posix_spawn` with `POSIX_SPAWN_SETSID`.
    static func start(record: String, log: String) throws(SpawnError) -> pid_t {
        try ChildProcess.start(
            "/proc/self/exe", ["eggtimer", "--resume-record", record, "--json"], detachment: .session
        ) { actions in
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(
                &actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW, 0o600)
            posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        }
    }

    /// Waits for the started timer to run, then says how it went.
    ///
    /// It runs once it has written its own record (its socket is up, its alarm prepared); it
    /// may also exit first, or not answer within ``startLimit``.
    /// Waits on the child's pidfd, looking at the record every 10 ms (in a read-only state folder,
    /// where it cannot write one, at its control socket). `said`, when given, is what a timer that
    /// runs is reported as (a repeating alarm's next occurrence and missed ones).
    static func awaitStart(
        _ child: pid_t, label: String, plan: ResumePlan, overdue: Duration?, store: RecordStore, log: String,
        said: String? = nil, readOnly: Bool = false
    ) -> Outcome {
        let own = store.folder + "/" + RecordStore.fileName(label: label)
        let pidfd = pidfd_open(child, 0)
        defer { if pidfd >= 0 { close(pidfd) } }
        let giveUp = ContinuousClock.now + startLimit
        var exited: Int32?
        while ContinuousClock.now < giveUp {
            if (try? RecordStore.read(path: own))?.pid == child { break }
            if readOnly, answers(label: label, pid: child) { break }
            var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            if pidfd < 0 {
                _ = poll(nil, 0, 10)
            } else if poll(&ready, 1, 10) > 0 {
                exited = reap(child)
                break
            }
            if pidfd < 0, let status = reapIfExited(child) {
                exited = status
                break
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

    /// Reaps the exited child.
    ///
    /// - Returns: Its exit status, or 128 + signal.
    private static func reap(_ child: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Reaps the child if it has exited (no pidfd: an old kernel).
    ///
    /// - Returns: As ``reap(_:)``; nil while it runs.
    private static func reapIfExited(_ child: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(child, &status, WNOHANG) == child else { return nil }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
