import Glibc

/// A value that several threads share, guarded by a `pthread_mutex_t`.
///
/// A POSIX mutex rather than `Synchronization.Mutex`: on Linux the latter locks inside the
/// uninstrumented Swift runtime, so ThreadSanitizer cannot see it and reports every access it
/// guards as a race (`make sanitize-thread` did, for the CLI's old event inbox).
///
/// Thread-safe: `value` is only read or written with the mutex held.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Creates the lock around `value`.
    /// - Parameter value: The initial value.
    /// C: `pthread_mutex_init`.
    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held and exclusive access to the value.
    ///
    /// Blocks while another thread holds the mutex; `body` must be short and must not take this
    /// lock again.
    /// - Parameter body: Reads or changes the value.
    /// - Returns: What `body` returns.
    /// C: `pthread_mutex_lock`, `pthread_mutex_unlock`.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
