import CSystem
import Glibc

/// Sets the calling thread's timer slack, how late the kernel may wake it to batch wake-ups.
///
/// The default is 50 µs; threads it creates later inherit it.
/// - Parameter slack: 1 ns or more (nanoseconds rounded down, saturating); zero restores the
///   thread's default.
/// - Throws: ``Errno`` (`EINVAL`). C: `prctl(PR_SET_TIMERSLACK)`.
public func setTimerSlack(_ slack: Duration) throws(Errno) {
    guard CSystem_setTimerSlack(UInt(clamping: slack.wholeNanoseconds())) == 0 else { throw .current }
}

/// The kernel's clock discipline as it reads now (NTP's view of the wall clock).
public struct KernelClockState: Sendable, Hashable {
    /// The clock state (`TIME_OK` … `TIME_ERROR`).
    public let state: Int32
    /// The status bits (`STA_UNSYNC`, `STA_PLL`, …).
    public let status: Int32

    /// Whether the wall clock is synchronised.
    ///
    /// It is when the state is not `TIME_ERROR` and `STA_UNSYNC` is clear; a Pi without a
    /// real-time clock is not until NTP set its time.
    public var isSynchronised: Bool { state != CSystem_TIME_ERROR && status & CSystem_STA_UNSYNC == 0 }

    /// A state as the kernel reported it.
    /// - Parameters:
    ///   - state: The clock state `adjtimex` returned.
    ///   - status: Its status bits.
    public init(state: Int32, status: Int32) { (self.state, self.status) = (state, status) }
}

/// Reads the kernel's clock discipline without changing it.
/// - Returns: The clock state and status bits.
/// - Throws: ``Errno`` (`EPERM` under a seccomp filter that refuses it). Any thread; never
///   blocks. C: `adjtimex` with modes 0.
public func kernelClockState() throws(Errno) -> KernelClockState {
    var status: Int32 = 0
    let state = CSystem_clockState(&status)
    guard state >= 0 else { throw .current }
    return KernelClockState(state: state, status: status)
}
