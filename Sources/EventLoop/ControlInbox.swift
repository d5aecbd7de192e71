package import ControlChannel
import Glibc
package import TimerModel

/// The timer's control socket as a source of the event loop: accepts connections from `eggtimer
/// status|ack|cancel|snooze` in other shells (through the shared ``ControlPool``), reads one
/// request line from each, and answers it; a connection whose request is `watch` becomes one of
/// the ``ControlWatchers``, sent every new status.
///
/// A whole command line becomes a ``Request`` (the timer's `.command(_:from:connection:)`, from
/// the front the peer named, else `.control`), answered by ``reply(_:_:)`` once the controller
/// decided. A connection that sends nothing useful within ``idleLimit`` is closed, and at most
/// ``connectionLimit`` are open at once (the idlest goes first), so no peer can hold the timer's
/// resources. Watchers are kept apart and do not count against ``connectionLimit``, so they
/// cannot lock out an `ack` either. An idle connection's time limit is the next check. Never
/// blocks. Owned by the event loop's thread.
package final class ControlInbox: LoopSource {
    /// A command that arrived whole, and the connection to answer it on.
    package struct Request: Equatable {
        /// What the peer asks.
        package let command: Command
        /// The front the peer named (control protocol version 4), or nil (an older client).
        package let origin: Origin?
        /// The connection waiting for the answer (``reply(_:_:)``).
        package let connection: Int
    }

    private let pool: ControlPool
    private var watchers: ControlWatchers
    /// Binds the socket again when its file is deleted: a source of its own, added beside this one.
    package let keeper: SocketKeeper

    /// How long a connection may take to send its request.
    package static let idleLimit: Duration = .seconds(2)
    /// How many connections may be open at once; accepting one more closes the idlest.
    package static let connectionLimit = 8
    /// How many connections are accepted in one round of the loop at most.
    package static let acceptBatch = 64

    /// Wraps a listening server.
    /// - Parameters:
    ///   - server: The listening socket.
    ///   - watchers: The watchers' bounds (a seam for tests).
    package init(server: ControlServer, watchers: ControlWatchers = ControlWatchers()) {
        pool = ControlPool(
            server: server, connectionLimit: Self.connectionLimit, idleLimit: Self.idleLimit,
            acceptBatch: Self.acceptBatch)
        self.watchers = watchers
        keeper = SocketKeeper(server: server)
    }

    /// The socket's path.
    package var path: String { pool.path }

    /// How many watchers are open.
    package var watcherCount: Int { watchers.count }

    /// The listening socket, each connection waiting for its request, then each watcher (with
    /// unsent bytes for POLLOUT too).
    package var pollRequests: [PollRequest] {
        pool.pollRequests + watchers.pollSet.map { PollRequest(descriptor: $0.fd, events: $0.events) }
    }

    /// When the oldest connection without a request times out; nil with none.
    package var nextCheck: ContinuousClock.Instant? { pool.nextCheck }

    /// Serves the watchers that polled ready, then accepts and reads what is ready and closes
    /// connections that stayed idle too long.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into events: inout [Request]) {
        // The watchers as they were polled, before accepting can close and reuse descriptors.
        for watcher in watchers.pollSet {
            guard let revents = ready.first(where: { $0.descriptor == watcher.fd })?.revents else { continue }
            watchers.ready(watcher.id, revents: revents)
        }
        pool.service(
            ready, at: now, handOver: { watchers.add($0, $1) },
            request: { id, line in
                guard let request = ControlRequest(line: line) else {
                    return .reply(ControlRequest.olderTimerRefusal)
                }
                switch request {
                case .start, .pair, .unpair:
                    // Only the kitchen starts timers and pairs devices (its own socket); a timer says
                    // so in one line.
                    return .reply(
                        request == .pair || request == .unpair
                            ? "error\ta timer pairs no devices: pairing is the kitchen's request"
                            : "error\ta timer starts no timers: start is the kitchen's request")
                case .watch:
                    return .handOver
                case .command(let command, let origin):
                    events.append(Request(command: command, origin: origin, connection: id))
                    return .answering
                }
            })
    }

    /// Sends the timer's status `line` to the watchers that have not had it (the time left aside).
    ///
    /// A new watcher's first line, or a change. Call after each round.
    package func broadcast(_ line: String) { watchers.broadcast(line) }

    /// The end of the run: the final status `line` to every watcher, then all closed; waits at
    /// most ``finishLimit`` for slow readers.
    package func finish(_ line: String) { watchers.finish(line, within: Self.finishLimit) }

    /// How long the end of the run waits for watchers to take the final line.
    package static let finishLimit: Duration = .milliseconds(100)

    /// Answers `connection` with `line` and closes it.
    package func reply(_ connection: Int, _ line: String) { pool.reply(connection, line) }
}
