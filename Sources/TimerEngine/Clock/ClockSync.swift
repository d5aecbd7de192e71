import Glibc
import SystemKit

/// Whether the kernel counts the wall clock as synchronised (by NTP or a time daemon), from its
/// clock discipline (`adjtimex`): a Pi without a real-time clock starts unsynchronised, in 1970 or
/// at the last saved time, and its clock jumps once NTP answers.
///
/// Stateless; safe from any thread.
package enum ClockSync {
    /// The warning shown on screen, on the plain log and in `status` while the clock is not
    /// synchronised.
    package static let warning =
        "the system clock is not synchronised (NTP); the alarm follows it and is checked again when it is set"

    /// The environment variable that overrides the kernel's answer (`synchronised` or
    /// `unsynchronised`; anything else is ignored): the seam through which tests give a process a
    /// clock in either state without setting the machine's clock.
    package static let overrideVariable = "EGGTIMER_CLOCK_SYNC"

    /// Whether the wall clock is synchronised now.
    ///
    /// C: `adjtimex` (modes 0: reads only), unless ``overrideVariable`` says.
    /// - Returns: false when the state is TIME_ERROR or the status has STA_UNSYNC; true when
    ///   synchronised or when the kernel cannot say.
    package static func isSynchronised() -> Bool {
        switch getenv(overrideVariable).map({ String(cString: $0) }) {
        case "synchronised": return true
        case "unsynchronised": return false
        default: break
        }
        guard let state = try? kernelClockState() else { return true }
        return state.isSynchronised
    }
}
