import Glibc
import SystemKit

/// `duration` in whole milliseconds, rounded up (never negative), for `poll`.
public func milliseconds(_ duration: Duration) -> Int32 {
    Int32(clamping: max(0, Int64((duration / .milliseconds(1)).rounded(.up))))
}

/// The `poll` timeout, in milliseconds, that wakes no earlier than `deadline` (rounded up), at most
/// `cap`; 0 once the deadline has passed.
/// - Parameters:
///   - deadline: When to wake, on `ContinuousClock`.
///   - cap: The longest timeout returned.
/// - Returns: Milliseconds for `poll`'s timeout.
public func pollTimeout(until deadline: ContinuousClock.Instant, cap: Duration = .seconds(3600)) -> Int32 {
    let left = min(cap, ContinuousClock.now.duration(to: deadline))
    return left > .zero ? milliseconds(left) : 0
}

/// Polls `fd` for reading until it is readable or `timeout` passes.
///
/// EINTR is retried. Blocks the calling thread.
/// - Returns: Whether it became readable.
public func waitReadable(_ fd: Int32, timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, pollTimeout(until: deadline))
        if ready > 0 { return true }
        if ready < 0 && errno == EINTR { continue }
        if ContinuousClock.now >= deadline { return false }
    }
}

/// Waits (on a pidfd: an event, not a sleep) until process `pid` has ended, also when it is not
/// this process's child (a timer a `recover` started).
/// - Parameters:
///   - pid: The process.
///   - timeout: How long to wait at most.
/// - Returns: Whether it ended (or was gone already) within `timeout`.
public func awaitEnd(of pid: Int32, timeout: Duration = .seconds(30)) -> Bool {
    guard let pidfd = try? FileDescriptor.process(pid) else { return true }  // gone already
    var ready = pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if poll(&ready, 1, pollTimeout(until: deadline)) > 0 { return true }
    }
    return false
}
