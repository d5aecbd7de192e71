import EventLoop
import Glibc
import SystemKit
import TimerEngine

/// The `--on-done CMD` child: `/bin/sh -c CMD`, started at the deadline without waiting for it.
///
/// It runs in its own process group (a Ctrl-C typed at eggtimer's terminal does not reach it,
/// and it cannot take the terminal from eggtimer) with a clean signal state and only descriptors
/// 0–2 (``ChildProcess``), and without `EGGTIMER_MQTT_PASSWORD` in its environment. Its exit is
/// watched by a ``ChildWatch`` in the event loop, so it is reaped without SIGCHLD and without
/// blocking.
enum DoneCommand {
    /// Starts `/bin/sh -c command`.
    /// - Parameter command: The shell command line, as given to `--on-done`.
    /// - Returns: The child's watch, for the event loop: its end is `.doneCommandEnded`.
    /// - Throws: `SpawnError` with the `errno` of a failed `posix_spawn` (the command itself failing shows in its
    ///   exit status instead).
    /// C: `posix_spawn`, `pidfd_open`.
    static func start(command: String) throws(SpawnError) -> ChildWatch<Input> {
        // The broker password is the timer's, not the command's.
        let pid = try ChildProcess.start(
            "/bin/sh", ["sh", "-c", command], detachment: .processGroup, unsetting: [BusOptions.passwordVariable])
        return ChildWatch(pid: pid) { exit in
            switch exit {
            case .exited(let status): .doneCommandEnded(status: status, signal: nil)
            case .signaled(let signal): .doneCommandEnded(status: nil, signal: signal)
            }
        }
    }
}
