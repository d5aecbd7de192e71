import Glibc

/// Waits until `condition` holds, looking again every `interval` until `deadline`: the one
/// poll-until loop of the tests, for a state that sends no event (a file another process writes, a
/// line in `/proc`, a status line).
///
/// The clock is `ContinuousClock` (CLOCK_BOOTTIME), so a deadline is never cut short by a change of
/// the wall clock. Between looks it calls `meanwhile` with the next look's instant: by default a
/// sleep until then; a test with a child passes a read of its output (`{ child.readOutput(until: $0) }`)
/// so its pipe never fills. A wait on an event (a pipe, a pidfd, a watch) needs no loop like this:
/// it waits on the event with a deadline. Blocks the calling thread.
/// - Parameters:
///   - what: What the test waits for, in a few words, for the failure message; read at the deadline.
///   - deadline: When to give up.
///   - interval: The longest time between two looks.
///   - meanwhile: What to do until the given instant between two looks.
///   - condition: The look; it may throw, which ends the wait with its error.
/// - Throws: `TestFailure` ("still not so after 15 s: …") when `deadline` passed first, or what
///   `condition` threw.
public func eventually(
    _ what: @autoclosure () -> String, deadline: ContinuousClock.Instant, every interval: Duration = .milliseconds(10),
    meanwhile: (ContinuousClock.Instant) -> Void = sleep(until:), _ condition: () throws -> Bool
) throws {
    let start = ContinuousClock.now
    while try !condition() {
        let now = ContinuousClock.now
        guard now < deadline else {
            let waited = Double((now - start) / .milliseconds(100)).rounded() / 10
            throw TestFailure("still not so after \(waited) s: \(what())")
        }
        meanwhile(min(deadline, now + interval))
    }
}

/// Sleeps until `instant` (EINTR ends it early, which a caller that looks again does not mind).
/// - Parameter instant: When to wake, on `ContinuousClock`.
public func sleep(until instant: ContinuousClock.Instant) {
    _ = poll(nil, 0, pollTimeout(until: instant))
}
