import CSystem
import Glibc

/// A joinable POSIX thread running one closure; the handle is a plain value, joined or detached
/// exactly once by its owner (``AlarmPlayer`` joins a thread only after it has posted its last
/// event; one that may still be inside a device call is detached, never joined).
///
/// The thread starts with every signal blocked. Signals belong to the process's event loop (a
/// signalfd, or their default action before it exists): if a worker left them unblocked, the
/// kernel could pick it for SIGINT or SIGTERM, and the default action would end the process
/// without restoring the terminal. That matters most for a thread abandoned in a device call,
/// which may live on for the rest of the process.
struct PlaybackThread: Sendable {
    /// Owns the closure while the thread starts.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let id: pthread_t

    /// Starts `body` on a new thread with the default attributes and every signal blocked.
    ///
    /// The mask is blocked on the calling thread only for the moment of creation
    /// (`CSystem_startThreadSignalsBlocked`).
    /// - Parameter body: The thread's work; the thread ends when it returns.
    /// - Returns: The thread, or the `errno` value if it could not be created (for example `EAGAIN`).
    /// C: `pthread_sigmask`, `pthread_create` (through CSystem).
    static func start(_ body: @escaping @Sendable () -> Void) -> Result<PlaybackThread, ThreadStartError> {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var id = pthread_t()
        let result = CSystem_startThreadSignalsBlocked(
            &id,
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
