public import Glibc

/// Arms the timer descriptor `timer` (``FileDescriptor/timer(clock:nonBlocking:)``) to fire once
/// at the absolute time `deadline` on its clock, or disarms it for nil.
/// - Parameters:
///   - timer: A timerfd.
///   - deadline: The clock time to fire at (seconds and nanoseconds since the clock's origin; a
///     time already past fires at once; all zero disarms, so pass at least 1 ns); nil disarms.
///   - cancelOnClockSet: For a `CLOCK_REALTIME` timer: a step of the wall clock (NTP,
///     `date -s`) makes its next `read` fail with `ECANCELED` until it is armed again.
/// - Throws: ``Errno`` (`EBADF`, `EINVAL` for a `tv_nsec` out of 0..<1e9; `ECANCELED` when
///   `cancelOnClockSet` and the clock was set since the last arming). Any thread.
///   C: `timerfd_settime` with `TFD_TIMER_ABSTIME` (and `TFD_TIMER_CANCEL_ON_SET`).
public func setTimer(_ timer: Int32, at deadline: timespec?, cancelOnClockSet: Bool = false) throws(Errno) {
    guard systemSetTimer(timer, deadline, cancelOnClockSet: cancelOnClockSet) == 0 else { throw .current }
}

/// Arms the timer descriptor `timer` (from ``FileDescriptor/timer(clock:nonBlocking:)``) to fire once
/// at `deadline` on its clock, an absolute time.
/// - Parameters:
///   - timer: A timerfd.
///   - deadline: The clock time to fire at (seconds and nanoseconds on the timer's clock).
/// - Returns: Whether the kernel took it (false with `errno` set). C: `timerfd_settime` with
///   `TFD_TIMER_ABSTIME`.
public func armTimer(_ timer: Int32, at deadline: Glibc.timespec) -> Bool {
    systemSetTimer(timer, deadline, cancelOnClockSet: false) == 0
}
