import Glibc

/// A joinable POSIX thread running one closure; the handle is a plain value, joined exactly once
/// by its owner (``AlarmPlayer``, under its lifecycle lock).
struct PlaybackThread: Sendable {
    /// Owns the closure while the thread starts.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let id: pthread_t

    /// Starts `body` on a new thread with the default attributes (signal mask inherited).
    /// - Parameter body: The thread's work; the thread ends when it returns.
    /// - Returns: The thread, or the `errno` value if it could not be created (for example `EAGAIN`).
    /// C: `pthread_create`.
    static func start(_ body: @escaping @Sendable () -> Void) -> Result<PlaybackThread, ThreadStartError> {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var id = pthread_t()
        let result = pthread_create(
            &id, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return .failure(ThreadStartError(code: result))
        }
        return .success(PlaybackThread(id: id))
    }

    /// Blocks until the thread has ended.
    ///
    /// Call once, never from the thread itself. C: `pthread_join`.
    func join() {
        let result = pthread_join(id, nil)
        precondition(result == 0, "pthread_join failed: \(errnoText(result))")
    }

    /// Lets the thread end on its own, for when it cannot be joined (from itself).
    ///
    /// C: `pthread_detach`.
    func detach() {
        _ = pthread_detach(id)
    }

    /// Why a thread could not be created.
    struct ThreadStartError: Error {
        /// The positive `errno` value `pthread_create` returned.
        let code: Int32
    }
}
