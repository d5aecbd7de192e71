import CSystem
import Glibc

/// The `--on-done CMD` child: `/bin/sh -c CMD`, started at the deadline without waiting for it.
///
/// It runs in its own process group (a Ctrl-C typed at eggtimer's terminal does not reach it,
/// and it cannot take the terminal from eggtimer), with an empty signal mask and every signal at
/// its default disposition (eggtimer blocks and ignores some; a child must not inherit that), and
/// only descriptors 0–2 (close-from). Its exit is watched through a pidfd in the event loop's
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
    /// - Throws: The `errno` of a failed `posix_spawn` (the command itself failing shows in its
    ///   exit status instead).
    /// C: `posix_spawn`, `pidfd_open`.
    init(command: String) throws(DoneCommandError) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        let words: [String] = ["sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
        guard result == 0 else { throw DoneCommandError(code: result) }
        pid = child
        descriptor = pidfd_open(child, 0)
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

/// Why `--on-done`'s shell could not be started: the `errno` `posix_spawn` returned.
struct DoneCommandError: Error, Equatable {
    let code: Int32
}
