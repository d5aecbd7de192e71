import Glibc
import TestSupport

/// eggtimer with standard input a pipe the test keeps open (keys typed whenever it likes) and
/// standard output a pipe it reads line by line; standard error goes to /dev/null.
///
/// Not thread-safe: one test owns it. ``finish()`` closes both pipes and reaps the child.
final class PipedChild {
    let pid: pid_t
    private let pipes: ChildPipes
    /// Everything read from standard output so far.
    var stdout: String { pipes.output.text }

    /// Starts eggtimer with `arguments`, `environment` added to the fixed one.
    /// - Parameters:
    ///   - arguments: The arguments after the program's name (with a launcher, the first one is dropped).
    ///   - environment: Variables added to the fixed environment.
    ///   - executable: The program to run (eggtimer, or a launcher given eggtimer's path).
    init(_ arguments: [String], environment: [String: String] = [:], executable: String = eggtimerPath) {
        pipes = ChildPipes { actions in
            spawn(
                executable == eggtimerPath ? arguments : Array(arguments.dropFirst()), actions: &actions,
                environment: environment, executable: executable)
        }
        pid = pipes.pid
    }

    /// Writes `text` to the child's standard input.
    func type(_ text: String) { pipes.type(text) }

    /// Reads standard output until it contains `text` (after the first `after` characters) or
    /// `deadline` passes (`ContinuousClock`).
    /// - Returns: Whether the text appeared.
    @discardableResult
    func expect(_ text: String, after: Int = 0, until deadline: ContinuousClock.Instant) -> Bool {
        pipes.output.expect(text, after: after, until: deadline)
    }

    /// Reads what standard output brings until `deadline`, for a test that must let time pass.
    func readOutput(until deadline: ContinuousClock.Instant) { pipes.output.readAll(until: deadline) }

    /// Waits (an event: `waitid` with WNOWAIT) until the child is stopped.
    /// - Returns: Whether it stopped (false if it exited instead).
    func waitForStop() -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WSTOPPED | WEXITED | WNOWAIT) != 0 {
            if errno != EINTR { return false }
        }
        return info.si_code == CLD_STOPPED
    }

    /// Closes the pipes and reaps the child (killed after `timeout`).
    func finish(timeout: Duration = .seconds(15)) -> Termination {
        pipes.closeKeys()
        let deadline = ContinuousClock.now + timeout
        readOutput(until: deadline)  // to end-of-file: the child exited (or was killed)
        pipes.output.close()
        return reap(pid, deadline: deadline).termination
    }
}
