public import Glibc

/// Waits until one of `descriptors` is ready or `timeout` passes, with a nanosecond timeout.
///
/// Blocks the calling thread for at most `timeout` (measured on CLOCK_MONOTONIC, which stops
/// during suspend; an absolute boot-clock timerfd in the set does not).
/// - Parameters:
///   - descriptors: The descriptors and events to wait for; `revents` is filled in.
///   - timeout: How long to wait at most (a negative one is zero; nanoseconds rounded down);
///     nil waits until one is ready.
/// - Returns: How many entries have `revents` set (0 when the timeout passed).
/// - Throws: ``Errno`` (`EINTR` when a signal interrupted the wait, `ENOMEM`, `EINVAL`).
///   C: `ppoll` (no signal mask change).
public func pollDescriptors(_ descriptors: inout [pollfd], timeout: Duration?) throws(Errno) -> Int {
    let result = systemPoll(&descriptors, timeout?.timespecValue)
    guard result >= 0 else { throw .current }
    return Int(result)
}
