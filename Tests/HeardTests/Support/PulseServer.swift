import Glibc
import TestSupport

/// A private PulseAudio server with one null sink, `kitchen`, started and stopped by a test.
///
/// Runs as a child of the test process (`--daemonize=no`; this container's init reaps no orphans),
/// with `HOME`, `XDG_RUNTIME_DIR` and `PULSE_RUNTIME_PATH` inside a private 0700 folder, so it
/// never meets the system's or another test's server. Its debug log goes to `log`.
///
/// The sink runs at the alarm sound's rate (no resampling) at 100 % volume, with rewinds off:
/// on a sink that rewinds, the monitor recording loses the first 1–15 ms of every new stream
/// (aplay, paplay and eggtimer alike, checked by hand), which would hide what a sample-exact
/// comparison is for.
final class PulseServer {
    static let sink = "kitchen"
    static let sampleRate = 44_100

    /// The private folder holding the server's home, runtime folder, log and the children's homes.
    let directory: String
    var runtimePath: String { directory + "/pulse" }
    var socketPath: String { runtimePath + "/native" }
    var log: String { directory + "/server.log" }
    private(set) var server: Child?
    private var childFolders = 0
    /// Whether clients need no cookie (`auth-anonymous=1`): for a client that has no home folder.
    private let anonymous: Bool

    /// Makes the private folder and starts the server.
    /// - Parameter anonymous: Whether clients without the server's cookie may connect.
    /// - Throws: `TestFailure` naming what went wrong when the server does not answer.
    init(anonymous: Bool = false) throws {
        directory = makePrivateDirectory("eggtimer-heard")
        self.anonymous = anonymous
        try start()
    }

    deinit {
        stop()
        removeDirectory(directory)
    }

    /// The environment the server itself runs with.
    private var serverEnvironment: [String: String] {
        [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": directory, "XDG_RUNTIME_DIR": directory,
            "PULSE_RUNTIME_PATH": runtimePath,
        ]
    }

    /// Starts the server (again, after ``kill()``) and waits until `pactl info` answers.
    /// - Throws: `TestFailure` if it exits or does not answer within 20 s.
    func start() throws {
        let child = Child.spawn(
            SystemTool.pulseaudio.path,
            [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--log-level=debug",
                "--log-target=stderr", "-L",
                "module-null-sink sink_name=\(Self.sink) rate=\(Self.sampleRate) channels=2 norewinds=1",
                "-L", "module-native-protocol-unix" + (anonymous ? " auth-anonymous=1" : ""),
            ], environment: serverEnvironment, stderrPath: log)
        server = child
        let deadline = ContinuousClock.now + .seconds(20)
        let probe = environment(for: "probe")
        while ContinuousClock.now < deadline {
            if child.hasExited {
                let status = child.wait(timeout: .seconds(1))
                server = nil
                throw TestFailure("the PulseAudio test server exited (\(status)) before answering; see \(log)")
            }
            let answer = Child.spawn(SystemTool.pactl.path, ["info"], environment: probe).wait(timeout: .seconds(5))
            if answer == .exited(0) { return }
            // Not listening yet: look again shortly, or at once if the server exits meanwhile.
            child.exits(within: .milliseconds(50))
        }
        throw TestFailure("the PulseAudio test server did not answer `pactl info` within 20 s; see \(log)")
    }

    /// Kills the server with SIGKILL, reaps it and removes its stale pid file (else the next start
    /// says "Daemon already running").
    func kill() {
        guard let server else { return }
        server.signal(SIGKILL)
        server.wait(timeout: .seconds(10))
        unlink(runtimePath + "/pid")
        self.server = nil
    }

    /// Sends `signal` to the running server: SIGSTOP stalls it as a sound server that stops
    /// answering does (its clients' streams get no room and their calls wait), SIGCONT ends that.
    func send(_ signal: Int32) { server?.signal(signal) }

    /// Stops the server with SIGTERM (SIGKILL after 5 s) and reaps it.
    func stop() {
        guard let server else { return }
        server.signal(SIGTERM)
        server.wait(timeout: .seconds(5))
        unlink(runtimePath + "/pid")
        self.server = nil
    }

    /// A child's own environment: its own HOME and XDG_RUNTIME_DIR (0700 folders inside the
    /// server's), and PULSE_SERVER pointing at this server.
    func environment(for name: String) -> [String: String] {
        childFolders += 1
        let home = directory + "/\(name)-\(childFolders)"
        mkdir(home, 0o700)
        mkdir(home + "/run", 0o700)
        return [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, "XDG_RUNTIME_DIR": home + "/run",
            "PULSE_SERVER": "unix:" + socketPath,
        ]
    }

    /// The number of times the log says a stream came back from an underrun, so far.
    func underrunsLogged() -> Int {
        readText(log).split(separator: "\n")
            .filter { $0.contains("end of underrun") }.count
    }
}
