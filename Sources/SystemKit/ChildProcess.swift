public import Glibc

/// Why a child process could not be started: the `errno` `posix_spawn` returned.
public struct SpawnError: Error, Equatable {
    /// The `errno` value.
    public let code: Int32

    /// The failure `code` (an `errno` value).
    public init(code: Int32) { self.code = code }
}

/// Starts the programs eggtimer runs (`--on-done`'s shell, the timers `recover` resumes) with a
/// clean slate: an empty signal mask and every signal at its default disposition (eggtimer
/// blocks and ignores some; a child must not inherit that), only the descriptors 0–2 that
/// `files` sets up (close-from 3), and a process group or session of its own.
public enum ChildProcess {
    /// Where the child stands among the terminal's jobs.
    public enum Detachment {
        /// Its own process group: Ctrl-C at eggtimer's terminal does not reach it.
        case processGroup
        /// Its own session: no controlling terminal at all (a daemon).
        case session
    }

    /// Starts `program` with `arguments` (`arguments[0]` is its name).
    /// - Parameters:
    ///   - program: The executable's path.
    ///   - arguments: The argument vector, name first.
    ///   - detachment: A process group or a session of its own.
    ///   - unsetting: Environment variables the child does not get (a secret); it gets the rest of
    ///     this process's environment.
    ///   - files: Sets up descriptors 0–2 (nothing: they are inherited).
    /// - Returns: The child's pid.
    /// - Throws: `SpawnError` with `posix_spawn`'s errno (no program, a file action failed).
    /// C: `posix_spawn`.
    public static func start(
        _ program: String, _ arguments: [String], detachment: Detachment, unsetting: [String] = [],
        files: (inout posix_spawn_file_actions_t) -> Void = { _ in }
    ) throws(SpawnError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        switch detachment {
        case .processGroup:
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
        case .session:
            flags |= spawnNewSessionFlag
        }
        posix_spawnattr_setflags(&attributes, flags)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        do { try addCloseFrom(&actions, from: 3) } catch { throw SpawnError(code: error.code) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            let text = String(cString: entry)
            if !unsetting.contains(where: { text.hasPrefix($0 + "=") }) { environment.append(strdup(entry)) }
        }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, program, &actions, &attributes, argv, environment)
        guard result == 0 else { throw SpawnError(code: result) }
        return child
    }
}
