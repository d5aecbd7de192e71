import CMosquitto
import Glibc
import SystemKit

/// One `mosquitto_connect` (resolve + TCP connect + CONNECT queued) on its own worker thread.
///
/// `mosquitto_connect` resolves with `getaddrinfo` and connects with a blocking `connect`: a host
/// without DNS or a blackholed address would hold the event loop for seconds to minutes. The
/// worker owns the handle while it runs; when it ends it rings a ``WakePipe``, which makes
/// ``wakeDescriptor`` readable in the loop's poll, and the loop takes the handle back with
/// ``takeOutcome()``. An attempt over its deadline is ``abandon(library:)``ed: never joined; the
/// worker destroys its own handle whenever `mosquitto_connect` returns.
///
/// Descriptors: the wake pipe is made with `pipe2(O_CLOEXEC | O_NONBLOCK)` and closed when the
/// attempt is dropped by both the loop and the worker. libmosquitto 2.0.11 makes its socket
/// without `SOCK_CLOEXEC` (checked with `fcntl(F_GETFD)`); the worker sets `FD_CLOEXEC` as soon
/// as `mosquitto_connect` returns. Until then (the resolve and connect, up to the kernel's TCP
/// connect timeout in an abandoned worker) a child that another thread spawns without closing
/// descriptors would inherit the socket; eggtimer's own children close every descriptor from 3
/// (`posix_spawn`'s close-from).
///
/// `@unchecked Sendable`: the mutable state sits in `state` (a ``Locked``), and the C handle is
/// used by one thread at a time: the worker from its start until it records the outcome, then
/// the loop thread after ``takeOutcome()`` returned it.
final class ConnectAttempt: @unchecked Sendable {
    /// What `mosquitto_connect` returned, and `errno` right after it.
    struct Outcome {
        let code: Int32
        let errorNumber: Int32
    }

    /// What the worker and the loop share, behind `state`'s mutex.
    private struct State {
        var handle: OpaquePointer?
        var outcome: Outcome?
        var abandoned = false
    }

    /// The read end of the wake pipe, to poll for POLLIN: readable once the worker is done.
    ///
    /// Open as long as the attempt lives.
    var wakeDescriptor: Int32 { wake.descriptor }
    /// When the loop gives up on this attempt (boot clock).
    let deadline: ContinuousClock.Instant
    private let wake: WakePipe
    private let state: Locked<State>

    /// Creates the pipe and starts the worker, which calls `mosquitto_connect(handle, host, port, keepalive)`.
    ///
    /// Does not block (thread creation only). Call on the loop thread.
    /// - Parameters:
    ///   - handle: A configured handle; the attempt owns it from now on.
    ///   - library: The loaded library.
    ///   - host: The broker's host name or address.
    ///   - port: The TCP port.
    ///   - keepalive: The MQTT keepalive, in whole seconds.
    ///   - deadline: When the loop stops waiting (boot clock).
    /// - Returns: The running attempt, or the `errno` value of `pipe2` or `pthread_create` (then
    ///   the handle has been destroyed).
    /// C: `pipe2`, `pthread_create`.
    static func start(
        handle: OpaquePointer, library: MosquittoLibrary, host: String, port: Int32, keepalive: Int32,
        deadline: ContinuousClock.Instant
    ) -> Result<ConnectAttempt, ConnectStartError> {
        let wake = WakePipe()
        if let failure = wake.failure {
            library.destroy(handle)
            return .failure(ConnectStartError(function: "pipe2", code: failure.code))
        }
        let attempt = ConnectAttempt(handle: handle, wake: wake, deadline: deadline)
        let failure = SystemThread.startDetached {
            attempt.run(library: library, host: host, port: port, keepalive: keepalive)
        }
        if let failure {
            attempt.state.withLock { $0.handle = nil }
            library.destroy(handle)
            return .failure(ConnectStartError(function: "pthread_create", code: failure.code))
        }
        return .success(attempt)
    }

    private init(handle: OpaquePointer, wake: consuming WakePipe, deadline: ContinuousClock.Instant) {
        self.state = Locked(State(handle: handle))
        self.wake = wake
        self.deadline = deadline
    }

    /// The worker's body: connect, make the socket close-on-exec, record or clean up, wake the loop.
    private func run(library: MosquittoLibrary, host: String, port: Int32, keepalive: Int32) {
        guard let handle = state.withLock({ $0.handle }) else { return }
        let code = library.connect(handle, host, port, keepalive)
        let errorNumber = errno
        let socket = library.socket(handle)
        if socket >= 0 { CloseOnExec.mark(socket) }
        let keep = state.withLock { state -> Bool in
            if state.abandoned { return false }
            state.outcome = Outcome(code: code, errorNumber: errorNumber)
            return true
        }
        if !keep { library.destroy(handle) }
        wake.ring()
    }

    /// The worker's outcome and the handle, once it has finished; nil while it runs.
    ///
    /// Loop thread only. The first non-nil answer hands the handle back (the caller owns it);
    /// call no more after that.
    func takeOutcome() -> (handle: OpaquePointer, outcome: Outcome)? {
        state.withLock { state -> (OpaquePointer, Outcome)? in
            guard let outcome = state.outcome, let handle = state.handle else { return nil }
            state.handle = nil
            return (handle, outcome)
        }
    }

    /// Gives up on the attempt without waiting.
    ///
    /// The worker destroys the handle when `mosquitto_connect` returns (or this does, if it
    /// already has). Loop thread only.
    /// C: `mosquitto_destroy`.
    func abandon(library: MosquittoLibrary) {
        let finished = state.withLock { state -> OpaquePointer? in
            state.abandoned = true
            guard state.outcome != nil, let handle = state.handle else { return nil }
            state.handle = nil
            return handle
        }
        if let finished { library.destroy(finished) }
    }
}

/// Why a connect worker could not be started.
struct ConnectStartError: Error {
    /// The C function that failed.
    let function: String
    /// Its `errno` value.
    let code: Int32
}
