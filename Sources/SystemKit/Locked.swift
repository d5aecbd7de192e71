import Glibc

/// A value that several threads share, guarded by a `pthread_mutex_t`.
///
/// A POSIX mutex rather than `Synchronization.Mutex`: on Linux the latter locks inside the
/// uninstrumented Swift runtime, so ThreadSanitizer cannot see it and reports every access it
/// guards as a race (`make sanitize-thread` did, for the CLI's old event inbox).
///
/// `Value` need not be `Sendable` (as with `Synchronization.Mutex`): it is only reached inside
/// ``withLock(_:)``, so a non-`Sendable` value (a C handle, say) is used by one thread at a time
/// as long as `body` lets no reference to it escape unguarded; what `body` returns is the
/// caller's to own.
///
/// Thread-safe: `value` is only read or written with the mutex held (hence `@unchecked Sendable`).
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Creates the lock around `value`.
    /// - Parameter value: The initial value.
    /// C: `pthread_mutex_init`.
    public init(_ value: Value) {
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
    /// lock again. Any thread.
    /// - Parameter body: Reads or changes the value.
    /// - Returns: What `body` returns.
    /// C: `pthread_mutex_lock`, `pthread_mutex_unlock`.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
