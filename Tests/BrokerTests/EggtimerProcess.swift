import Glibc
import TestSupport

/// The built eggtimer binary run as a room of the house: private XDG folders (runtime, state,
/// config) under one folder, standard input a pipe the test keeps open (keys), standard output a
/// pipe read on demand, standard error a file.
///
/// Not thread-safe: one test owns it. ``finish(timeout:)`` reaps it; the folder is removed at deinit.
final class EggtimerProcess {
    let pid: pid_t
    /// The private folder: `run/` (XDG_RUNTIME_DIR), `state/`, `config/`, `stderr`, captures.
    let directory: String
    private let child: PipedChild
    /// Its standard error file (in ``directory``).
    private let stderrPath: String
    /// Whether deinit removes ``directory`` (not when it is another process's).
    private let ownsDirectory: Bool
    private var reaped: Termination?
    /// Everything read from standard output so far.
    var stdout: String { child.stdout }

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
        let stderrPath = directory + (room == nil ? "/stderr" : "/stderr-\(UInt32.random(in: 0...UInt32.max))")
        self.stderrPath = stderrPath
        if room == nil { for sub in ["run", "state", "config"] { mkdir(directory + "/" + sub, 0o700) } }
        let fixed = [
            "PATH": "/usr/bin:/bin:/usr/sbin", "LANG": "C.UTF-8", "HOME": directory,
            "XDG_RUNTIME_DIR": directory + "/run", "XDG_STATE_HOME": directory + "/state",
            "XDG_CONFIG_HOME": directory + "/config",
        ]
        child = Eggtimer(arguments, wholeEnvironment: fixed.merging(environment) { $1 }).piped(stderrPath: stderrPath)
        pid = child.pid
    }

    deinit {
        if reaped == nil { _ = finish(timeout: .zero) }
        child.closeKeys()
        if ownsDirectory { removeDirectory(directory) }
    }

    /// What it wrote on standard error so far.
    var stderr: String { readText(stderrPath) }

    /// Writes `text` to its standard input.
    func type(_ text: String) { child.type(text) }

    /// Sends `signal`.
    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Reads standard output until it contains `text` (after the first `after` characters) or
    /// `timeout` passes.
    /// - Returns: Whether the text appeared.
    @discardableResult
    func expect(_ text: String, after: Int = 0, timeout: Duration = .seconds(15)) -> Bool {
        child.expect(text, after: after, until: .now + timeout)
    }

    /// Reads what standard output brings until `deadline`, for a test that must let time pass.
    func readOutput(until deadline: ContinuousClock.Instant) { child.readOutput(until: deadline) }

    /// Waits for it to exit (reading its output meanwhile; standard input stays open) and reaps it;
    /// kills it at the timeout.
    func finish(timeout: Duration = .seconds(15)) -> Termination {
        if let reaped { return reaped }
        let deadline = ContinuousClock.now + timeout
        let process = Child(pid: pid)
        while !process.hasExited, ContinuousClock.now < deadline {
            // Output until end-of-file (the child exited), then the pidfd.
            if !child.readSome(until: deadline) { process.exits(within: ContinuousClock.now.duration(to: deadline)) }
        }
        let termination = reap(pid, deadline: .now).termination
        child.readOutput(until: .now)
        reaped = termination
        return termination
    }
}

extension EggtimerProcess {
    /// Runs `eggtimer arguments` to its end in a private folder of its own.
    /// - Returns: How it ended, its standard output and standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(15))
        -> (termination: Termination, stdout: String, stderr: String)
    {
        let process = EggtimerProcess(arguments, environment: environment)
        let termination = process.finish(timeout: timeout)
        return (termination, process.stdout, process.stderr)
    }
}
