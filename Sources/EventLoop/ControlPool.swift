package import ControlChannel
import Glibc

/// The one connection pool of a control socket (the timer's ``ControlInbox``, the kitchen's
/// inbox): accepts connections, reads one request line from each, and keeps each open until its
/// owner answers it, within bounds no peer can exhaust.
///
/// A connection that sends no whole request within ``idleLimit`` is closed, and at most
/// ``connectionLimit`` are open at once, so no peer can hold the process's resources. Idle peers
/// cannot lock a client out either: the socket is always accepted from (up to ``acceptBatch`` a
/// round, so a flood cannot hold the loop), a new connection's request is read at once, and when
/// more than ``connectionLimit`` are open the idlest (the one open longest without a request) is
/// closed first. A connection whose request arrived waits for its answer (``reply(_:_:)``): it is
/// no longer polled and never dropped as idle. What a request means is its owner's: the pool hands
/// each whole line to the owner's closure, which returns a ``Verdict``. Never blocks. Owned by
/// the event loop's thread; not thread-safe.
package final class ControlPool {
    /// What the owner makes of a whole request line.
    package enum Verdict {
        /// The request waits for its answer: the connection stays open until ``reply(_:_:)``.
        case answering
        /// Answer at once with this line and close the connection.
        case reply(String)
        /// The owner takes the connection (a timer's watcher): it leaves the pool, open.
        case handOver
    }

    private struct Entry {
        let connection: ControlConnection
        let openedAt: ContinuousClock.Instant
        /// Whether its request arrived: it waits for its reply, and is never dropped as idle.
        var answering = false
    }

    private let server: ControlServer
    private var connections: [Int: Entry] = [:]
    private var nextID = 0
    /// How long a connection may take to send its request.
    package let idleLimit: Duration
    /// How many connections may be open at once; accepting one more closes the idlest.
    package let connectionLimit: Int
    /// How many connections are accepted in one round of the loop at most.
    package let acceptBatch: Int

    /// Wraps a listening server.
    /// - Parameters:
    ///   - server: The listening socket.
    ///   - connectionLimit: How many connections may be open at once, at least 1.
    ///   - idleLimit: How long a connection may take to send its request.
    ///   - acceptBatch: How many connections one round accepts at most, at least 1.
    package init(server: ControlServer, connectionLimit: Int, idleLimit: Duration = .seconds(2), acceptBatch: Int = 64)
    {
        precondition(connectionLimit > 0 && acceptBatch > 0)
        self.server = server
        (self.connectionLimit, self.idleLimit, self.acceptBatch) = (connectionLimit, idleLimit, acceptBatch)
    }

    /// The socket's path.
    package var path: String { server.path }

    /// The listening socket, then each connection waiting for its request, in the order they came.
    package var pollRequests: [PollRequest] {
        [PollRequest(descriptor: server.descriptor, events: Int16(POLLIN))]
            + connections.sorted { $0.key < $1.key }.filter { !$0.value.answering }.map {
                PollRequest(descriptor: $0.value.connection.descriptor, events: Int16(POLLIN))
            }
    }

    /// When the oldest connection without a request times out; nil with none.
    package var nextCheck: ContinuousClock.Instant? {
        connections.values.filter { !$0.answering }.map { $0.openedAt.advanced(by: idleLimit) }.min()
    }

    /// Reads the connections that polled ready, accepts new ones (reading each at once), then
    /// closes those idle too long.
    /// - Parameters:
    ///   - ready: What `ppoll` reported on ``pollRequests``.
    ///   - now: The boot clock after the `ppoll`.
    ///   - handOver: Takes a connection whose request was handed over (``Verdict/handOver``), with its id.
    ///   - request: What a whole request line on connection `id` means: called once per line, in
    ///     the order the connections came (those open before this round first).
    package func service(
        _ ready: [PollReady], at now: ContinuousClock.Instant,
        handOver: (_ id: Int, ControlConnection) -> Void = { _, _ in },
        request: (_ id: Int, _ line: String) -> Verdict
    ) {
        // The descriptors as they were polled: accepting may close and reuse descriptors.
        let waiting = connections.filter { !$0.value.answering }.map { ($0.key, $0.value.connection.descriptor) }
        for (id, fd) in waiting.sorted(by: { $0.0 < $1.0 }) where ready.contains(where: { $0.descriptor == fd }) {
            read(id, handOver: handOver, request: request)
        }
        if ready.contains(where: { $0.descriptor == server.descriptor }) {
            for _ in 0..<acceptBatch {
                guard let accepted = server.accept() else { break }
                let id = nextID
                nextID += 1
                connections[id] = Entry(connection: accepted, openedAt: now)
                read(id, handOver: handOver, request: request)  // a client sends its request right after it connects
                dropIdlest()
            }
        }
        expire(at: now)
    }

    /// Whether the peer of `connection` has closed its end (POLLHUP: closed, not only shut for
    /// writing), so that nobody would read an answer; a connection that is gone counts as closed.
    ///
    /// Never blocks. C: `poll` with no wait.
    package func hasHungUp(_ connection: Int) -> Bool {
        guard let descriptor = connections[connection]?.connection.descriptor else { return true }
        var entry = pollfd(fd: descriptor, events: 0, revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLHUP) != 0
    }

    /// Closes `connection` without an answer; nothing if it is gone.
    package func drop(_ connection: Int) { connections[connection] = nil }

    /// Answers `connection` with `line` and closes it; nothing if it is gone.
    package func reply(_ connection: Int, _ line: String) {
        connections[connection]?.connection.reply(line)
        connections[connection] = nil
    }

    /// Reads what arrived on connection `id` and carries out the owner's verdict on a whole line.
    private func read(
        _ id: Int, handOver: (Int, ControlConnection) -> Void, request: (Int, String) -> Verdict
    ) {
        guard let entry = connections[id], !entry.answering else { return }
        switch entry.connection.read() {
        case .pending: return
        case .closed: connections[id] = nil
        case .line(let line):
            switch request(id, line) {
            case .answering: connections[id]?.answering = true
            case .reply(let answer): reply(id, answer)
            case .handOver:
                connections[id] = nil
                handOver(id, entry.connection)
            }
        }
    }

    /// Closes the idlest connections (open longest without a request) while more than
    /// ``connectionLimit`` are open.
    private func dropIdlest() {
        while connections.count > connectionLimit {
            let idle = connections.filter { !$0.value.answering }
            guard let idlest = idle.min(by: { ($0.value.openedAt, $0.key) < ($1.value.openedAt, $1.key) }) else {
                return
            }
            connections[idlest.key] = nil
        }
    }

    /// Closes connections that sent no request within ``idleLimit``.
    private func expire(at now: ContinuousClock.Instant) {
        for (id, entry) in connections where !entry.answering && now >= entry.openedAt.advanced(by: idleLimit) {
            connections[id] = nil
        }
    }
}
