public import Glibc

/// A child (eggtimer: ``Eggtimer/piped(stderrPath:)``) with standard input a pipe the test keeps
/// open (keys typed whenever it likes) and standard output a pipe it reads line by line.
///
/// Not thread-safe: one test owns it. ``finish(timeout:)`` closes both pipes and reaps the child.
public final class PipedChild {
    public let pid: pid_t
    private let pipes: ChildPipes
    /// Everything read from standard output so far.
    public var stdout: String { pipes.output.text }

    /// Adopts a child started on `pipes`.
    /// - Parameter pipes: The child's pipes, now owned by this.
    init(_ pipes: ChildPipes) {
        self.pipes = pipes
        pid = pipes.pid
    }

    /// Starts eggtimer with `arguments`, `environment` added to its private one: shorthand for
    /// `Eggtimer(arguments, environment: environment).piped()`.
    public convenience init(_ arguments: [String], environment: [String: String] = [:]) {
        self.init(ChildPipes { Eggtimer(arguments, environment: environment).spawn(&$0) })
    }

    /// Starts another program (a stand-in server) on pipes, with exactly `environment`, standard
    /// error on /dev/null.
    /// - Parameters:
    ///   - program: The program's path.
    ///   - arguments: The arguments after its name.
    ///   - environment: Its whole environment.
    public convenience init(
        program: String, _ arguments: [String], environment: [String: String] = Child.plainEnvironment
    ) {
        self.init(ChildPipes { spawnProcess(program, arguments, actions: &$0, environment: environment) })
    }

    /// Writes `text` to the child's standard input.
    public func type(_ text: String) { pipes.type(text) }

    /// Closes the test's end of standard input (once): the child reads end of file.
    public func closeKeys() { pipes.closeKeys() }

    /// Reads standard output until it contains `text` (after the first `after` characters) or
    /// `deadline` passes (`ContinuousClock`).
    /// - Returns: Whether the text appeared.
    @discardableResult
    public func expect(_ text: String, after: Int = 0, until deadline: ContinuousClock.Instant) -> Bool {
        pipes.output.expect(text, after: after, until: deadline)
    }

    /// One read of standard output, waiting until `deadline` for something to read.
    /// - Returns: false at end of file or once `deadline` has passed.
    @discardableResult
    public func readSome(until deadline: ContinuousClock.Instant) -> Bool { pipes.output.readSome(until: deadline) }

    /// Reads what standard output brings until `deadline`, for a test that must let time pass.
    public func readOutput(until deadline: ContinuousClock.Instant) { pipes.output.readAll(until: deadline) }

    /// Waits (an event: `waitid` with WNOWAIT) until the child is stopped.
    /// - Returns: Whether it stopped (false if it exited instead).
    public func waitForStop() -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WSTOPPED | WEXITED | WNOWAIT) != 0 {
            if errno != EINTR { return false }
        }
        return info.si_code == CLD_STOPPED
    }

    /// Closes the pipes and reaps the child (killed after `timeout`).
    public func finish(timeout: Duration = .seconds(15)) -> Termination {
        pipes.closeKeys()
        let deadline = ContinuousClock.now + timeout
        readOutput(until: deadline)  // to end-of-file: the child exited (or was killed)
        pipes.output.close()
        return reap(pid, deadline: deadline).termination
    }
}
