import CSystem
import Glibc

/// The `--on-done CMD` child: `/bin/sh -c CMD`, started at the deadline without waiting for it.
///
/// It runs in its own process group (a Ctrl-C typed at eggtimer's terminal does not reach it,
/// and it cannot take the terminal from eggtimer) with a clean signal state and only descriptors
/// 0–2 (``ChildProcess``), and without `EGGTIMER_MQTT_PASSWORD` in its environment. Its exit is watched through a pidfd in the event loop's
/// poll set, so it is reaped without SIGCHLD and without blocking.
///
/// Owned by the event loop's thread.
struct DoneCommand {
    /// The child's process id.
    let pid: pid_t
    /// Readable once the child has exited (close-on-exec); -1 if the kernel gave none.
    let descriptor: Int32

    /// Starts `/bin/sh -c command`.
    /// - Parameter command: The shell command line, as given to `--on-done`.
    /// - Throws: `SpawnError` with the `errno` of a failed `posix_spawn` (the command itself failing shows in its
    ///   exit status instead).
    /// C: `posix_spawn`, `pidfd_open`.
    init(command: String) throws(SpawnError) {
        // The broker password is the timer's, not the command's.
        pid = try ChildProcess.start(
            "/bin/sh", ["sh", "-c", command], detachment: .processGroup, unsetting: [BusOptions.passwordVariable])
        descriptor = pidfd_open(pid, 0)
    }

    /// Collects the child's exit status once it has exited; never blocks.
    /// - Returns: nil while it still runs; else how it ended.
    /// C: `waitpid` with `WNOHANG`.
    func reap() -> ChildExit? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        if descriptor >= 0 { close(descriptor) }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    /// How the child ended.
    enum ChildExit: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }
}
