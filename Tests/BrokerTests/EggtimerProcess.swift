import CSystem
import Glibc

/// The built eggtimer binary run as a room of the house: private XDG folders (runtime, state,
/// config) under one folder, standard input a pipe the test keeps open (keys), standard output a
/// pipe read on demand, standard error a file.
///
/// Not thread-safe: one test owns it. ``finish(timeout:)`` reaps it; the folder is removed at deinit.
final class EggtimerProcess {
    let pid: pid_t
    /// The private folder: `run/` (XDG_RUNTIME_DIR), `state/`, `config/`, `stderr`, captures.
    let directory: String
    private let keys: Int32
    private let output: Int32
    /// Its standard error file (in ``directory``).
    private let stderrPath: String
    /// Whether deinit removes ``directory`` (not when it is another process's).
    private let ownsDirectory: Bool
    private var reaped: Termination?
    /// Everything read from standard output so far.
    private(set) var stdout = ""

    /// Starts `eggtimer arguments`.
    /// - Parameters:
    ///   - arguments: The arguments after the program's name.
    ///   - environment: Variables added to the private ones (`EGGTIMER_MQTT_PASSWORD`).
    ///   - room: Another process whose private folders this one shares (`eggtimer recover` after
    ///     a timer was killed); its standard error then goes to a file of its own there, and the
    ///     folder stays until `room` ends. nil: a new private folder.
    init(_ arguments: [String], environment: [String: String] = [:], in room: EggtimerProcess? = nil) {
        let directory = room?.directory ?? makePrivateDirectory("eggtimer-room")
        self.directory = directory
        ownsDirectory = room == nil
        stderrPath = directory + (room == nil ? "/stderr" : "/stderr-\(UInt32.random(in: 0...UInt32.max))")
        if room == nil { for sub in ["run", "state", "config"] { mkdir(directory + "/" + sub, 0o700) } }
        let input = makePipe()
        let out = makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        precondition(posix_spawn_file_actions_addclosefrom_np(&actions, 3) == 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let fixed = [
            "PATH": "/usr/bin:/bin:/usr/sbin", "LANG": "C.UTF-8", "HOME": directory,
            "XDG_RUNTIME_DIR": directory + "/run", "XDG_STATE_HOME": directory + "/state",
            "XDG_CONFIG_HOME": directory + "/config",
        ]
        let variables = fixed.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv: [UnsafeMutablePointer<CChar>?] = ([eggtimerPath] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, eggtimerPath, &actions, &attributes, argv, envp)
        precondition(rc == 0, "posix_spawn eggtimer failed: \(rc)")
        self.pid = pid
        close(input.read)
        close(out.write)
        (keys, output) = (input.write, out.read)
    }

    deinit {
        if reaped == nil { _ = finish(timeout: .zero) }
        close(keys)
        close(output)
        if ownsDirectory { Child.spawn("/bin/rm", ["-rf", directory]).wait(timeout: .seconds(30)) }
    }

    /// What it wrote on standard error so far.
    var stderr: String { readFile(stderrPath) }

    /// Writes `text` to its standard input.
    func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(keys, $0.baseAddress, $0.count) } }

    /// Sends `signal`.
    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Reads standard output until it contains `text` (after the first `after` characters) or
    /// `timeout` passes.
    /// - Returns: Whether the text appeared.
    @discardableResult
    func expect(_ text: String, after: Int = 0, timeout: Duration = .seconds(15)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !String(stdout.dropFirst(after)).contains(text) {
            if !readSome(until: deadline) { return false }
        }
        return true
    }

    /// Reads what standard output brings until `deadline`, for a test that must let time pass.
    func readOutput(until deadline: ContinuousClock.Instant) { while readSome(until: deadline) {} }

    /// Waits for it to exit (reading its output meanwhile) and reaps it; kills it at the timeout.
    func finish(timeout: Duration = .seconds(15)) -> Termination {
        if let reaped { return reaped }
        let pidfd = pidfd_open(pid, 0)
        if pidfd >= 0 {
            defer { close(pidfd) }
            let deadline = ContinuousClock.now + timeout
            while !waitReadable(pidfd, timeout: .zero), ContinuousClock.now < deadline {
                // Output until end-of-file (the child exited), then the pidfd.
                if !readSome(until: deadline) {
                    _ = waitReadable(pidfd, timeout: ContinuousClock.now.duration(to: deadline))
                }
            }
            if !waitReadable(pidfd, timeout: .zero) { kill(pid, SIGKILL) }
        } else {
            kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        readOutput(until: .now)
        let termination: Termination = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        reaped = termination
        return termination
    }

    /// One read of standard output, waiting until `deadline`.
    /// - Returns: false at end-of-file or once `deadline` has passed.
    private func readSome(until deadline: ContinuousClock.Instant) -> Bool {
        var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let left = ContinuousClock.now.duration(to: deadline)
        let count = poll(&ready, 1, left > .zero ? milliseconds(left) : 0)
        if count < 0 { return errno == EINTR }
        if count == 0 { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(output, &chunk, chunk.count)
        if n < 0 { return errno == EINTR || errno == EAGAIN }
        if n == 0 { return false }
        stdout += String(decoding: chunk[0..<n], as: UTF8.self)
        return true
    }
}

/// Runs `eggtimer arguments` to its end in a private folder of its own.
/// - Returns: How it ended, its standard output and standard error.
func runEggtimer(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(15))
    -> (termination: Termination, stdout: String, stderr: String)
{
    let process = EggtimerProcess(arguments, environment: environment)
    let termination = process.finish(timeout: timeout)
    return (termination, process.stdout, process.stderr)
}
