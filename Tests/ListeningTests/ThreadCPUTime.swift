import Glibc

/// The calling thread's CPU time so far.
/// - Returns: The time. C: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`.
func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}
