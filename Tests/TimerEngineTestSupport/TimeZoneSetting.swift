import Glibc
import SystemKit

/// The lock every test takes while it has the process's `TZ` set: held by ``withTimeZone(_:_:)``.
private let timeZoneLock = Locked(())

/// Runs `body` with the process's `TZ` set to `zone`, then restores the previous `TZ` (or its
/// absence) and re-reads it.
///
/// `TZ` is process-global, and every test target runs in the one test process: the schedule tests
/// of TimerEngineTests, TerminalUITests and the executable's tests set it only through this
/// function, which holds one lock throughout, so no two of them set it at once.
///
/// Blocks while another test holds the lock. `body` must not call this function again (the lock
/// is not recursive) and must not escape anything that reads local time later.
/// - Parameters:
///   - zone: A `TZ` value: a zone name such as `Europe/Berlin` (needs tzdata) or a POSIX rule.
///   - body: The code to run in `zone`.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws. C: `setenv`, `unsetenv`, `tzset`.
package func withTimeZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
    try timeZoneLock.withLock { _ in
        let previous = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
            tzset()
        }
        return try body()
    }
}
