import Dispatch
import Glibc
import SystemKit
import TestSupport

@testable import WebServer

/// An ``HTTPServer`` on a thread of its own, driven as the kitchen's loop drives it (poll its
/// descriptor, look again at `nextCheck`, `run`), for tests whose clients block on the test's
/// thread.
///
/// The server is made, used and closed on the loop thread only; tests reach it with
/// ``sync(_:)`` (a job run on that thread between two runs). `@unchecked Sendable`: `server` is
/// confined to the loop thread; everything shared is behind `Locked`.
final class ServerLoop: @unchecked Sendable {
    /// The port the server is bound to.
    let port: UInt16
    /// The longest single `run(now:)` call so far.
    var longestRun: Duration { state.withLock { $0.longestRun } }
    /// Every exchange `takeClosed()` reported so far.
    var closed: [HTTPExchange] { state.withLock { $0.closed } }

    private struct State {
        var jobs: [@Sendable (HTTPServer) -> Void] = []
        var stopping = false
        var longestRun = Duration.zero
        var closed: [HTTPExchange] = []
    }
    private let state = Locked(State())
    private let wake = WakePipe()
    private var thread: SystemThread?

    /// Starts the server on a new thread.
    /// - Throws: The server's ``HTTPServerError``, or ``TestFailure`` when no thread starts.
    init(
        _ settings: HTTPServer.Settings, libraryName: String = MicrohttpdLibrary.fileName,
        vouch: (@Sendable (HTTPRequest) -> String?)? = nil,
        handler: @escaping @Sendable (HTTPRequest, HTTPExchange) -> HTTPReply
    ) throws {
        let started = Locked<Result<UInt16, HTTPServerError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let state = self.state
        let wakeDescriptor = wake.descriptor
        let body: @Sendable () -> Void = {
            let server: HTTPServer
            do throws(HTTPServerError) {
                server = try HTTPServer(settings: settings, libraryName: libraryName, vouch: vouch, handler: handler)
            } catch {
                started.withLock { $0 = .failure(error) }
                ready.signal()
                return
            }
            started.withLock { $0 = .success(server.port) }
            ready.signal()
            ServerLoop.loop(server, state: state, wake: wakeDescriptor)
        }
        switch SystemThread.start(body) {
        case .success(let made): thread = made
        case .failure(let error): throw TestFailure("no server thread: \(error)")
        }
        guard ready.wait(timeout: .now() + 30) == .success, let result = started.withLock({ $0 }) else {
            throw TestFailure("the server thread did not start")
        }
        switch result {
        case .success(let bound): port = bound
        case .failure(let error):
            thread?.join()
            throw error
        }
    }

    deinit { stop() }

    /// Stops the loop and closes the server (once).
    func stop() {
        guard let thread else { return }
        state.withLock { $0.stopping = true }
        wake.ring()
        thread.join()
        self.thread = nil
    }

    /// Runs `body` with the server on the loop thread and waits for its result.
    func sync<T: Sendable>(_ body: @escaping @Sendable (HTTPServer) -> T) throws -> T {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        state.withLock {
            $0.jobs.append { server in
                result.withLock { $0 = body(server) }
                done.signal()
            }
        }
        wake.ring()
        guard done.wait(timeout: .now() + 30) == .success, let value = result.withLock({ $0 }) else {
            throw TestFailure("the server thread did not run the job")
        }
        return value
    }

    /// The loop: poll the server's descriptor, its streams' sockets (for a reader that closes)
    /// and the wake pipe until `nextCheck`, run, do the queued jobs, collect closed exchanges.
    private static func loop(_ server: HTTPServer, state: Locked<State>, wake: Int32) {
        var drained = [UInt8](repeating: 0, count: 64)
        while !state.withLock({ $0.stopping }) {
            var fds = [
                pollfd(fd: server.pollDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            fds += server.streamDescriptors.map { pollfd(fd: $0, events: HTTPServer.peerClosedEvents, revents: 0) }
            let timeout = server.nextCheck(now: .now).map { pollTimeout(until: $0, cap: .seconds(1)) } ?? 1000
            _ = poll(&fds, nfds_t(fds.count), timeout)
            if fds[1].revents != 0 { _ = read(wake, &drained, drained.count) }
            let before = ContinuousClock.now
            server.run(now: before)
            let took = before.duration(to: .now)
            let jobs = state.withLock { state in
                state.longestRun = max(state.longestRun, took)
                defer { state.jobs.removeAll() }
                return state.jobs
            }
            for job in jobs { job(server) }
            let closed = server.takeClosed()
            if !closed.isEmpty { state.withLock { $0.closed += closed } }
        }
        server.close()
        let closed = server.takeClosed()
        state.withLock { $0.closed += closed }
    }
}

/// What a handler saw, shared between the loop thread and the test.
final class Seen: Sendable {
    private let box = Locked<[HTTPRequest]>([])
    private let exchanges = Locked<[HTTPExchange]>([])

    /// Records one request and its exchange.
    func record(_ request: HTTPRequest, _ exchange: HTTPExchange) {
        box.withLock { $0.append(request) }
        exchanges.withLock { $0.append(exchange) }
    }

    /// The requests so far.
    var requests: [HTTPRequest] { box.withLock { $0 } }
    /// Their exchanges.
    var handles: [HTTPExchange] { exchanges.withLock { $0 } }
}
