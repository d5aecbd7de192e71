public import Glibc
import SystemKit

/// How a reaped child ended and the user + system CPU time it used.
public struct Reaped: Sendable {
    public var termination: Termination
    public var cpu: Duration
}

/// Waits for child `pid` to exit, on a pidfd (an event, not a polling loop), and reaps it.
///
/// A child still running at `deadline` is killed with SIGKILL, so a hang shows as `signal 9` and
/// fails the test instead of blocking it. Blocks the calling thread.
/// - Parameters:
///   - pid: A child of this process that nobody else reaps.
///   - deadline: When to give up waiting (`ContinuousClock`).
/// - Returns: How it ended and the CPU time it used.
public func reap(_ pid: Glibc.pid_t, deadline: ContinuousClock.Instant) -> Reaped {
    if let pidfd = try? FileDescriptor.process(pid) {
        if !waitReadable(pidfd.rawValue, timeout: ContinuousClock.now.duration(to: deadline)) { kill(pid, SIGKILL) }
    } else {
        kill(pid, SIGKILL)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let cpu =
        Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    return Reaped(termination: Termination(waitStatus: status), cpu: cpu)
}

/// Waits for child `pid` to exit and reaps it; see ``reap(_:deadline:)``.
/// - Parameters:
///   - pid: A child of this process that nobody else reaps.
///   - timeout: Killed with SIGKILL after this long.
/// - Returns: How it ended (`signal 9` after a timeout).
public func waitForExit(_ pid: Glibc.pid_t, timeout: Duration = .seconds(30)) -> Termination {
    reap(pid, deadline: .now + timeout).termination
}
