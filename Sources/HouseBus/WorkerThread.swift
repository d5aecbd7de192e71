import CSystem
import Glibc

/// Starts detached POSIX threads for blocking C calls, with every signal blocked.
///
/// Signals belong to the process's event loop (a signalfd, or their default action before it
/// exists): a worker left with them unblocked could be picked for SIGINT or SIGTERM, and the
/// default action would end the process without the loop's clean-up. That matters most for a
/// connect worker that is abandoned in `mosquitto_connect` and may live on for minutes.
/// Detached: nobody ever joins a worker, so an abandoned one cannot hang its owner.
enum WorkerThread {
    /// Owns the closure while the thread starts.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread with every signal blocked.
    ///
    /// The mask is blocked on the calling thread only for the moment of creation
    /// (`CSystem_startThreadSignalsBlocked`). Does not block otherwise.
    /// - Parameter body: The thread's work; the thread ends when it returns.
    /// - Returns: 0, or the `errno` value `pthread_create` returned (for example `EAGAIN`).
    /// C: `pthread_sigmask`, `pthread_create` (through CSystem), `pthread_detach`.
    static func start(_ body: @escaping @Sendable () -> Void) -> Int32 {
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
            return result
        }
        pthread_detach(id)
        return 0
    }
}
