import ControlChannel
import Glibc
import SystemKit
import TimerEngine
import TimerText

/// Starts a timer as a shell would, detached: this same binary (`/proc/self/exe`) with a
/// start request's arguments, in a session of its own, standard input on /dev/null, standard
/// output and error in `<label>.log` beside the records (where `recover` puts its timers' logs).
///
/// Used by the kitchen and by `eggtimer start` without a kitchen. Only typed values reach the
/// command line (``StartRequest/arguments``), so no request adds an option.
package enum TimerLaunch {
    /// The log file for the timer labelled `label`: `<state folder>/<socket name>.log`, the state
    /// folder made if missing; `/dev/null` when there is none, it cannot be made or it cannot be
    /// written (a read-only state folder: the timer then starts as a foreground one does there,
    /// with its own warning that it has no record).
    static func log(label: String) -> String {
        guard let store = RecordStore.current(), (try? store.prepare()) != nil, access(store.folder, W_OK) == 0
        else { return "/dev/null" }
        return store.folder + "/" + ControlServer.socketName(for: label) + ".log"
    }

    /// The last error line a timer wrote in its log `log`, without `eggtimer: `: why it ended
    /// before it ran (`/home/u/.config/eggtimer/config: line 2: …`); nil when it wrote none.
    ///
    /// Only the log's first 16 KiB are read (a timer that ended before it ran wrote a few lines);
    /// warnings are not reasons, and control characters are escaped. Blocks only as a read of a
    /// regular file does.
    /// - Parameter log: The timer's log file (``log(label:)``).
    /// - Returns: The line, or nil.
    static func said(in log: String) -> String? {
        guard log != "/dev/null", let bytes = RegularFile.contents(log, limit: 16 * 1024) else { return nil }
        let prefix = "eggtimer: "
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").last {
            $0.hasPrefix(prefix) && !$0.hasPrefix(prefix + "warning:")
        }
        return line.map { String($0.dropFirst(prefix.count)).escapingControlCharacters }
    }

    /// Starts `eggtimer arguments… [--announce] --json`, detached.
    ///
    /// With `--announce`, the timer says its name at the head of each ring ("Soft eggs are
    /// ready", issue 28), and rings the plain alarm with one warning where no speech library is.
    /// C: `posix_spawn` with `POSIX_SPAWN_SETSID`.
    /// - Parameters:
    ///   - arguments: After the program name (``StartRequest/arguments``).
    ///   - log: Standard output and error go here (created 0600, truncated).
    ///   - announce: Whether to pass `--announce` (the kitchen's timers, unless its config says
    ///     `announce = no`); else the timer reads its config's `announce` itself.
    /// - Returns: The child's pid; this process is its parent until it exits.
    /// - Throws: `SpawnError` with the `errno` (the log cannot be opened, no program).
    static func start(_ arguments: [String], log: String, announce: Bool = false) throws(SpawnError) -> pid_t {
        let words = ["eggtimer"] + arguments + (announce ? ["--announce"] : []) + ["--json"]
        return try ChildProcess.start(
            "/proc/self/exe", words, detachment: .session
        ) {
            actions in
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(
                &actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW, 0o600)
            posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        }
    }

    /// Starts `eggtimer recover LABEL`, or without a label `eggtimer recover --quiet` (the timers
    /// that run are followed, and said so, by the kitchen), detached.
    ///
    /// Standard input on /dev/null (so an alarm more than an hour late is reported, not asked
    /// about), standard output and error the caller's (the kitchen's log). It takes `recover`'s
    /// lock, starts nothing for a timer that still runs or has no record, and waits at most 5 s
    /// per timer, in its own process.
    /// C: `posix_spawn` with `POSIX_SPAWN_SETSID`.
    /// - Parameter label: The one timer to recover; nil for every record.
    /// - Returns: The child's pid; this process is its parent until it exits.
    /// - Throws: `SpawnError` with the `errno` (no program).
    static func recover(label: String?) throws(SpawnError) -> pid_t {
        try ChildProcess.start(
            "/proc/self/exe", ["eggtimer", "recover"] + (label.map { [$0] } ?? ["--quiet"]), detachment: .session
        ) {
            actions in
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
    }
}
