import CMosquitto
import CSystem
import Glibc

/// One `mosquitto_connect` (resolve + TCP connect + CONNECT queued) on its own worker thread.
///
/// `mosquitto_connect` resolves with `getaddrinfo` and connects with a blocking `connect`: a host
/// without DNS or a blackholed address would hold the event loop for seconds to minutes. The
/// worker owns the handle while it runs; when it ends it closes the write end of a pipe, which
/// makes ``wakeDescriptor`` readable (POLLHUP) in the loop's poll, and the loop takes the handle
/// back with ``takeOutcome()``. An attempt over its deadline is ``abandon()``ed: never joined;
/// the worker destroys its own handle whenever `mosquitto_connect` returns.
///
/// Descriptors: the pipe is made with `pipe2(O_CLOEXEC | O_NONBLOCK)`. libmosquitto 2.0.11 makes
/// its socket without `SOCK_CLOEXEC` (checked with `fcntl(F_GETFD)`); the worker sets `FD_CLOEXEC`
/// as soon as `mosquitto_connect` returns. Until then (the resolve and connect, up to the kernel's TCP connect timeout in an
/// abandoned worker) a child that another thread spawns without closing descriptors would inherit
/// the socket; eggtimer's own children close every descriptor from 3 (`posix_spawn`'s close-from).
///
/// `@unchecked Sendable`: `handle`, `outcome` and `abandoned` are read and written only with
/// `mutex` held, and the C handle is used by one thread at a time: the worker from its start
/// until it records the outcome, then the loop thread after ``takeOutcome()`` returned it.
final class ConnectAttempt: @unchecked Sendable {
    /// What `mosquitto_connect` returned, and `errno` right after it.
    struct Outcome {
        let code: Int32
        let errorNumber: Int32
    }

    /// The read end of the wake pipe, to poll for POLLIN.
    ///
    /// It reports POLLHUP when the worker is done. Owned by the loop thread (closed by
    /// ``takeOutcome()`` or ``abandon(library:)``).
    let wakeDescriptor: Int32
    /// When the loop gives up on this attempt (boot clock).
    let deadline: ContinuousClock.Instant
    private let wakeWriteEnd: Int32
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var handle: OpaquePointer?
    private var outcome: Outcome?
    private var abandoned = false
    private var closedWakeDescriptor = false

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
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0 else {
            let error = errno
            library.destroy(handle)
            return .failure(ConnectStartError(function: "pipe2", code: error))
        }
        let attempt = ConnectAttempt(handle: handle, read: ends[0], write: ends[1], deadline: deadline)
        let started = WorkerThread.start { attempt.run(library: library, host: host, port: port, keepalive: keepalive) }
        guard started == 0 else {
            close(ends[1])
            close(ends[0])
            attempt.closedWakeDescriptor = true
            library.destroy(handle)
            return .failure(ConnectStartError(function: "pthread_create", code: started))
        }
        return .success(attempt)
    }

    private init(handle: OpaquePointer, read: Int32, write: Int32, deadline: ContinuousClock.Instant) {
        self.handle = handle
        self.wakeDescriptor = read
        self.wakeWriteEnd = write
        self.deadline = deadline
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// The worker's body: connect, make the socket close-on-exec, record or clean up, wake the loop.
    private func run(library: MosquittoLibrary, host: String, port: Int32, keepalive: Int32) {
        guard let handle = locked({ self.handle }) else { return }
        let code = library.connect(handle, host, port, keepalive)
        let errorNumber = errno
        let socket = library.socket(handle)
        if socket >= 0 { CloseOnExec.mark(socket) }
        let keep = locked { () -> Bool in
            if abandoned { return false }
            outcome = Outcome(code: code, errorNumber: errorNumber)
            return true
        }
        if !keep { library.destroy(handle) }
        close(wakeWriteEnd)
    }

    /// The worker's outcome and the handle, once it has finished; nil while it runs.
    ///
    /// Loop thread only. The first non-nil answer hands the handle back (the caller owns it) and
    /// closes ``wakeDescriptor``; call no more after that.
    func takeOutcome() -> (handle: OpaquePointer, outcome: Outcome)? {
        let taken = locked { () -> (OpaquePointer, Outcome)? in
            guard let outcome, let handle else { return nil }
            self.handle = nil
            return (handle, outcome)
        }
        guard let taken else { return nil }
        closeWakeDescriptor()
        return taken
    }

    /// Gives up on the attempt without waiting.
    ///
    /// The worker destroys the handle when `mosquitto_connect` returns (or this does, if it
    /// already has). Loop thread only.
    /// C: `mosquitto_destroy`.
    func abandon(library: MosquittoLibrary) {
        let finished = locked { () -> OpaquePointer? in
            abandoned = true
            guard outcome != nil, let handle else { return nil }
            self.handle = nil
            return handle
        }
        if let finished { library.destroy(finished) }
        closeWakeDescriptor()
    }

    private func closeWakeDescriptor() {
        guard !closedWakeDescriptor else { return }
        closedWakeDescriptor = true
        close(wakeDescriptor)
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

/// Why a connect worker could not be started.
struct ConnectStartError: Error {
    /// The C function that failed.
    let function: String
    /// Its `errno` value.
    let code: Int32
}
