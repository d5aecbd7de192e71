public import Glibc
import SystemKit

/// A child process started with `posix_spawn`; the test reaps it with ``wait(timeout:)``.
public struct Child: Sendable {
    public let pid: Glibc.pid_t

    /// Adopts a child spawned otherwise (``spawnProcess(_:_:actions:environment:newSession:)``).
    /// - Parameter pid: A child of this process that nobody else reaps.
    public init(pid: Glibc.pid_t) { self.pid = pid }

    /// The environment of a plain tool (`PATH` and `LANG` only).
    public static let plainEnvironment = ["PATH": "/usr/bin:/bin:/usr/sbin", "LANG": "C.UTF-8"]

    /// Starts `executable` with `arguments` and exactly `environment`.
    ///
    /// Standard input is /dev/null; standard output goes to `stdout` (a descriptor to dup) or
    /// /dev/null; standard error to the file `stderrPath` (appended) or /dev/null. The child gets no
    /// other descriptor (close-from 3) and default signal dispositions with none blocked.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String] = plainEnvironment,
        stdout: Int32? = nil, stderrPath: String? = nil
    ) -> Child {
        Child(
            pid: withActions(stdout: stdout, stderrPath: stderrPath) {
                spawnProcess(executable, arguments, actions: &$0, environment: environment)
            })
    }

    /// Calls `start` with file actions that set up descriptors 0, 1 and 2 as ``spawn(_:_:environment:stdout:stderrPath:)`` does.
    /// - Parameters:
    ///   - stdout: A descriptor to dup as standard output, or nil for /dev/null.
    ///   - stderrPath: A file to append standard error to, or nil for /dev/null.
    ///   - start: Spawns the child with the actions and returns its pid.
    /// - Returns: What `start` returned.
    static func withActions(
        stdout: Int32?, stderrPath: String?, _ start: (inout posix_spawn_file_actions_t) -> Glibc.pid_t
    ) -> Glibc.pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(
            &actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        return start(&actions)
    }

    /// Runs `executable` to its end (at most `timeout`), its standard error to `stderrPath`.
    /// - Throws: `TestFailure` unless it exits 0.
    public static func run(
        _ executable: String, _ arguments: [String], stderrPath: String, timeout: Duration = .seconds(30)
    ) throws(TestFailure) {
        let status = spawn(executable, arguments, stderrPath: stderrPath).wait(timeout: timeout)
        guard status == .exited(0) else {
            throw TestFailure("\(executable) \(arguments.joined(separator: " ")): \(status); see \(stderrPath)")
        }
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits on a pidfd for the child to exit, then reaps it; kills it (SIGKILL) at the timeout.
    /// - Returns: How it ended; `signal 9` after a timeout.
    @discardableResult
    public func wait(timeout: Duration) -> Termination { waitForExit(pid, timeout: timeout) }

    /// Whether the child has exited already (without reaping it).
    public var hasExited: Bool { exits(within: .zero) }

    /// Waits on a pidfd until the child exits or `timeout` passes, without reaping it: a pause
    /// between two looks at a server that is starting, which ends at once if the server dies.
    /// - Returns: Whether it exited (true also when it is gone).
    @discardableResult
    public func exits(within timeout: Duration) -> Bool {
        guard let pidfd = try? FileDescriptor.process(pid) else { return true }
        return waitReadable(pidfd.rawValue, timeout: timeout)
    }
}
