import Glibc

/// A POSIX thread running one closure, started with every signal blocked; the handle is a plain
/// value, joined or detached exactly once by its owner.
///
/// Signals belong to the process's event loop (its signalfd, or their default action before it
/// exists): a worker left with them unblocked could be picked by the kernel for SIGINT or
/// SIGTERM, whose default action would end the process without its clean-up (the terminal
/// restored, the record kept). That matters most for a thread abandoned in a blocking C call (a
/// device write, a `mosquitto_connect`), which may live on for the rest of the process. The mask
/// is filled on the calling thread only for the moment of creation (a new thread inherits it),
/// then restored, so the caller's mask is unchanged afterwards.
public struct SystemThread: Sendable {
    /// Owns the closure while the thread starts.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let id: pthread_t

    /// Starts `body` on a new joinable thread with the default attributes and every signal blocked.
    ///
    /// Does not block beyond thread creation; any thread.
    /// - Parameter body: The thread's work; the thread ends when it returns.
    /// - Returns: The thread (join or detach it once), or the error `pthread_create` returned
    ///   (`EAGAIN` when out of threads).
    /// C: `pthread_sigmask`, `pthread_create`.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Result<SystemThread, Errno> {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var every = sigset_t()
        var caller = sigset_t()
        sigfillset(&every)
        pthread_sigmask(SIG_SETMASK, &every, &caller)
        var id = pthread_t()
        let result = pthread_create(
            &id, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        pthread_sigmask(SIG_SETMASK, &caller, nil)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return .failure(Errno(result))
        }
        return .success(SystemThread(id: id))
    }

    /// Starts `body` on a new detached thread with every signal blocked: nobody ever joins it, so
    /// an abandoned one cannot hang its owner.
    ///
    /// Does not block beyond thread creation; any thread.
    /// - Parameter body: The thread's work; the thread ends when it returns.
    /// - Returns: nil, or the error `pthread_create` returned (`EAGAIN` when out of threads).
    /// C: `pthread_sigmask`, `pthread_create`, `pthread_detach`.
    public static func startDetached(_ body: @escaping @Sendable () -> Void) -> Errno? {
        switch start(body) {
        case .success(let thread):
            thread.detach()
            return nil
        case .failure(let error): return error
        }
    }

    /// Blocks until the thread has ended.
    ///
    /// Call once, never from the thread itself. C: `pthread_join`.
    public func join() {
        let result = pthread_join(id, nil)
        precondition(result == 0, "pthread_join failed: \(errorText(result))")
    }

    /// Lets the thread end on its own, for when it cannot be joined (from itself, or one that may
    /// hang in a C call).
    ///
    /// Call once. C: `pthread_detach`.
    public func detach() {
        _ = pthread_detach(id)
    }
}
