public import Glibc
import Synchronization

/// One run of the built eggtimer binary: its arguments, environment and launcher; the one place
/// the tests start it (``TestHygieneTests`` fails on a test file that spawns it otherwise).
///
/// The child kinds are made from it: ``run(stdin:timeout:stdoutClosed:stdoutFile:trigger:)`` runs
/// it to its end with its output captured, ``piped(stderrPath:)`` keeps it running on pipes
/// (``PipedChild``), ``terminal(columns:rows:)`` runs it on a pseudo-terminal (``PseudoTerminal``),
/// ``child(stdout:stderrPath:)`` gives a bare ``Child``, and ``spawn(_:newSession:)`` takes the
/// caller's own file actions.
public struct Eggtimer: Sendable {
    /// What the child's standard input is.
    public enum StandardInput: Sendable {
        /// `/dev/null`: at EOF at once.
        case null
        /// Closed (`<&-`).
        case closed
        /// A pipe fed with these bytes, then closed.
        case bytes([UInt8])
        /// `/dev/null` opened write-only, as `nohup` leaves it in place of a terminal: reads fail
        /// with EBADF.
        case writeOnly
    }

    /// What a finished child printed and how it ended.
    public struct Finished: Sendable {
        public var termination: Termination
        public var stdout: String
        public var stderr: String
        /// User + system CPU time the child used.
        public var cpu: Duration
    }

    /// Something to do to the child once its standard output contains a text.
    public struct Trigger {
        /// The text to wait for on standard output.
        public var stdoutContains: String
        /// Called once with the child's pid when the text has appeared (to send it a signal).
        public var action: (pid_t) -> Void

        /// - Parameters:
        ///   - stdoutContains: The text to wait for on standard output.
        ///   - action: Called once with the child's pid when it has appeared.
        public init(stdoutContains: String, action: @escaping (pid_t) -> Void) {
            (self.stdoutContains, self.action) = (stdoutContains, action)
        }
    }

    /// The arguments after the program's name.
    public var arguments: [String]
    /// Variables added to the private environment (or, with ``isolated`` false, the whole environment).
    public var environment: [String: String]
    /// Whether the child gets a private runtime and state folder of its own and the fixed `PATH`,
    /// `LANG` and `TERM` under ``environment``; false: exactly ``environment``.
    public var isolated: Bool
    /// A program, and its first arguments, that runs eggtimer; empty: eggtimer itself.
    ///
    /// It is given eggtimer's path and ``arguments`` after these: `[nohup]`,
    /// `[sh, "-c", "trap '' INT; exec \"$0\" \"$@\""]`, `[setpriv, …]`. The launcher's pid is
    /// eggtimer's when it `exec`s it.
    public var launcher: [String]
    /// The binary: the built one, or a copy of it (``copyBinary(to:)``).
    public var executable = eggtimerPath

    /// - Parameters:
    ///   - arguments: The arguments after the program's name.
    ///   - environment: Variables added to the private environment (``isolated``).
    ///   - launcher: A program that runs eggtimer (``launcher``); empty for none.
    public init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) {
        (self.arguments, self.environment, self.launcher, isolated) = (arguments, environment, launcher, true)
    }

    /// A run with exactly `environment` (no private folders, no fixed variables).
    /// - Parameters:
    ///   - arguments: The arguments after the program's name.
    ///   - environment: The child's whole environment.
    ///   - launcher: A program that runs eggtimer (``launcher``); empty for none.
    public init(_ arguments: [String], wholeEnvironment environment: [String: String], launcher: [String] = []) {
        (self.arguments, self.environment, self.launcher, isolated) = (arguments, environment, launcher, false)
    }

    /// Copies the built binary to `path` (mode 0755), for a test of an install without `Sounds/`.
    /// - Throws: `TestFailure` when the binary cannot be read.
    public static func copyBinary(to path: String) throws(TestFailure) {
        guard let bytes = readFile(eggtimerPath) else { throw TestFailure("cannot read \(eggtimerPath)") }
        writeFile(path, bytes, mode: 0o755)
    }

    /// posix_spawn of the run with the caller's file actions for descriptors 0, 1 and 2, close-from
    /// 3 and default signals (``spawnProcess(_:_:actions:environment:newSession:)``).
    /// - Parameters:
    ///   - actions: What to do to descriptors 0, 1 and 2 in the child.
    ///   - newSession: Whether the child calls `setsid()` (a pseudo-terminal's session).
    /// - Returns: The child's pid; the caller reaps it.
    public func spawn(_ actions: inout posix_spawn_file_actions_t, newSession: Bool = false) -> pid_t {
        var env = environment
        if isolated {
            // Each child its own runtime folder, so timers that tests run side by side with the same
            // label (`eggtimer 1 …`) do not meet on one control socket (a second one would be refused).
            // The same for the state folder, so no test leaves timer records in the real home folder.
            let folder = privateRuntimeFolder()
            env = [
                "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_RUNTIME_DIR": folder,
                "XDG_STATE_HOME": folder + "/state",
            ]
            env.merge(environment) { $1 }
        }
        guard let program = launcher.first else {
            return spawnProcess(executable, arguments, actions: &actions, environment: env, newSession: newSession)
        }
        return spawnProcess(
            program, launcher.dropFirst() + [executable] + arguments, actions: &actions, environment: env,
            newSession: newSession)
    }

    /// Runs it with stdout and stderr captured through pipes, and waits for it.
    /// - Parameters:
    ///   - stdin: What standard input is.
    ///   - timeout: Killed with SIGKILL after this long (a hang fails the test, never blocks it).
    ///   - stdoutClosed: Start with standard output closed (`>&-`) instead of a pipe.
    ///   - stdoutFile: Standard output opened on this file for writing (`>/dev/full`) instead of a pipe.
    ///   - trigger: Run once when standard output first contains its text (the state it names was reached).
    /// - Returns: How it ended and what it printed.
    public func run(
        stdin: StandardInput = .null, timeout: Duration = .seconds(30), stdoutClosed: Bool = false,
        stdoutFile: String? = nil, trigger: Trigger? = nil
    ) -> Finished {
        let deadline = ContinuousClock.now + timeout
        let outPipe = makePipe()
        let errPipe = makePipe()
        let inPipe = makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch stdin {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .writeOnly: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_WRONLY, 0)
        case .closed: posix_spawn_file_actions_addclose(&actions, 0)
        case .bytes: posix_spawn_file_actions_adddup2(&actions, inPipe.read, 0)
        }
        if stdoutClosed {
            posix_spawn_file_actions_addclose(&actions, 1)
        } else if let stdoutFile {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutFile, O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
        }
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
        let pid = spawn(&actions)
        close(outPipe.write)
        close(errPipe.write)
        close(inPipe.read)
        if case .bytes(let bytes) = stdin {
            _ = bytes.withUnsafeBytes { write(inPipe.write, $0.baseAddress, $0.count) }
        }
        close(inPipe.write)

        let (out, err) = collect(stdout: outPipe.read, stderr: errPipe.read, until: deadline) { stdout in
            guard let trigger, stdout.contains(trigger.stdoutContains) else { return false }
            trigger.action(pid)
            return true
        }
        close(outPipe.read)
        close(errPipe.read)
        let reaped = reap(pid, deadline: deadline)
        return Finished(
            termination: reaped.termination, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), cpu: reaped.cpu)
    }

    /// Starts it with standard input a pipe the test keeps open and standard output a pipe read on demand.
    /// - Parameter stderrPath: Where standard error goes: this file (appended), or /dev/null.
    /// - Returns: The running child.
    public func piped(stderrPath: String? = nil) -> PipedChild {
        PipedChild(ChildPipes(stderrPath: stderrPath) { spawn(&$0) })
    }

    /// Starts it in a new session whose controlling terminal is a fresh pty of that size.
    /// - Returns: The running child on its terminal.
    public func terminal(columns: UInt16 = 80, rows: UInt16 = 24) -> PseudoTerminal {
        PseudoTerminal(columns: columns, rows: rows) { spawn(&$0, newSession: true) }
    }

    /// Starts it with standard input on /dev/null, standard output on `stdout` (a descriptor to
    /// dup) or /dev/null, and standard error to the file `stderrPath` (appended) or /dev/null.
    /// - Returns: The running child; the caller reaps it (``Child/wait(timeout:)``).
    public func child(stdout: Int32? = nil, stderrPath: String? = nil) -> Child {
        Child(pid: Child.withActions(stdout: stdout, stderrPath: stderrPath) { spawn(&$0) })
    }

    /// Starts it with standard input and error on /dev/null and standard output into a pipe.
    /// - Returns: The child's pid and the pipe's read end, which the caller closes.
    public func intoPipe() -> (pid: pid_t, reader: Int32) {
        let ends = makePipe()
        defer { close(ends.write) }
        return (child(stdout: ends.write).pid, ends.read)
    }
}

/// Runs `eggtimer arguments` to its end: shorthand for
/// `Eggtimer(arguments, environment:, launcher:).run(stdin:timeout:stdoutClosed:stdoutFile:trigger:)`.
/// - Returns: How it ended and what it printed.
public func runEggtimer(
    _ arguments: [String], stdin: Eggtimer.StandardInput = .null, environment: [String: String] = [:],
    timeout: Duration = .seconds(30), stdoutClosed: Bool = false, stdoutFile: String? = nil,
    trigger: Eggtimer.Trigger? = nil, launcher: [String] = []
) -> Eggtimer.Finished {
    Eggtimer(arguments, environment: environment, launcher: launcher).run(
        stdin: stdin, timeout: timeout, stdoutClosed: stdoutClosed, stdoutFile: stdoutFile, trigger: trigger)
}

/// Reads two pipes until both are at EOF or `deadline` passes.
/// - Parameters:
///   - stdout: The read end of the child's standard output.
///   - stderr: The read end of the child's standard error.
///   - deadline: When to stop reading (`ContinuousClock`).
///   - onStdout: Called with all of stdout so far after each stdout read, until it returns true.
/// - Returns: The bytes read from each.
private func collect(
    stdout: Int32, stderr: Int32, until deadline: ContinuousClock.Instant, onStdout: (String) -> Bool
) -> (stdout: [UInt8], stderr: [UInt8]) {
    var out: [UInt8] = []
    var err: [UInt8] = []
    var triggered = false
    var open = [stdout, stderr]
    while !open.isEmpty && ContinuousClock.now < deadline {
        var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), pollTimeout(until: deadline)) > 0 else { continue }
        for pfd in fds where pfd.revents != 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(pfd.fd, &chunk, chunk.count)
            if n > 0 {
                if pfd.fd == stdout { out += chunk[0..<n] } else { err += chunk[0..<n] }
                if pfd.fd == stdout && !triggered { triggered = onStdout(String(decoding: out, as: UTF8.self)) }
            } else if n == 0 || errno != EINTR {
                open.removeAll { $0 == pfd.fd }
            }
        }
    }
    return (out, err)
}

/// The runtime folders made for children, removed when the test process exits.
private let runtimeFolders = Mutex<[String]>([])

/// A fresh private folder for one child's `XDG_RUNTIME_DIR`.
private func privateRuntimeFolder() -> String {
    let folder = makePrivateDirectory()
    runtimeFolders.withLock { folders in
        if folders.isEmpty {
            atexit {
                for folder in runtimeFolders.withLock({ $0 }) { removeDirectory(folder) }
            }
        }
        folders.append(folder)
    }
    return folder
}
