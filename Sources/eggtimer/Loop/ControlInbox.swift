import ControlChannel
import Glibc
import TimerEngine

/// The control socket's side of the event loop: accepts connections from `eggtimer status|ack|
/// cancel|snooze` in other shells, reads one request line from each, and answers it; a connection
/// whose request is `watch` becomes one of the ``ControlWatchers``, sent every new status.
///
/// A connection that sends nothing useful within ``idleLimit`` is closed, and at most
/// ``connectionLimit`` are open at once, so no peer can hold the timer's resources. Idle peers
/// cannot lock a client out either: the socket is always accepted from (up to ``acceptBatch`` a
/// round, so a flood cannot hold the loop), a new connection's request is read at once, and when
/// more than ``connectionLimit`` are open the idlest (the one open longest without a request) is
/// closed first. Watchers are kept apart and do not count against ``connectionLimit``, so they
/// cannot lock out an `ack` either. Never blocks. Owned by the event loop's thread.
final class ControlInbox {
    private struct Entry {
        let connection: ControlConnection
        let openedAt: ContinuousClock.Instant
        /// Whether its request arrived: it waits for its reply, and is never dropped as idle.
        var answering = false
    }

    private let server: ControlServer
    private var connections: [Int: Entry] = [:]
    private var nextID = 0
    private var watchers: ControlWatchers

    /// How long a connection may take to send its request.
    static let idleLimit: Duration = .seconds(2)
    /// How many connections may be open at once; accepting one more closes the idlest.
    static let connectionLimit = 8
    /// How many connections are accepted in one round of the loop at most.
    static let acceptBatch = 64

    /// Wraps a listening server.
    /// - Parameters:
    ///   - server: The listening socket.
    ///   - watchers: The watchers' bounds (a seam for tests).
    init(server: ControlServer, watchers: ControlWatchers = ControlWatchers()) {
        self.server = server
        self.watchers = watchers
    }

    /// The socket's path.
    var path: String { server.path }

    /// The descriptors to poll, with the events asked and what each is: nil for the listening
    /// socket (always first), else a connection's or a watcher's id.
    var pollSet: [(fd: Int32, events: Int16, connection: Int?)] {
        var set: [(fd: Int32, events: Int16, connection: Int?)] = [(server.descriptor, Int16(POLLIN), nil)]
        for (id, entry) in connections.sorted(by: { $0.key < $1.key }) {
            set.append((entry.connection.descriptor, Int16(POLLIN), id))
        }
        return set + watchers.pollSet
    }

    /// How many watchers are open.
    var watcherCount: Int { watchers.count }

    /// When the oldest connection without a request times out; nil with none.
    var nextCheck: ContinuousClock.Instant? {
        connections.values.filter { !$0.answering }.map { $0.openedAt.advanced(by: Self.idleLimit) }.min()
    }

    /// Handles readiness `revents` on `connection` (nil: the listening socket) at `now`.
    /// - Returns: The requests that arrived whole.
    func ready(_ connection: Int?, revents: Int16 = Int16(POLLIN), at now: ContinuousClock.Instant) -> [Input] {
        if let connection, watchers.contains(connection) {
            watchers.ready(connection, revents: revents)
            return []
        }
        guard let connection else {
            var inputs: [Input] = []
            for _ in 0..<Self.acceptBatch {
                guard let accepted = server.accept() else { break }
                let id = nextID
                nextID += 1
                connections[id] = Entry(connection: accepted, openedAt: now)
                inputs += read(id)  // a client sends its request right after it connects
                dropIdlest()
            }
            return inputs
        }
        return read(connection)
    }

    /// Reads what arrived on `connection`.
    private func read(_ connection: Int) -> [Input] {
        guard let entry = connections[connection], !entry.answering else { return [] }
        switch entry.connection.read() {
        case .pending: return []
        case .closed:
            connections[connection] = nil
            return []
        case .line(let line):
            guard let request = ControlRequest(line: line) else {
                entry.connection.reply("error\tnot a request of \(ControlRequest.protocolName)")
                connections[connection] = nil
                return []
            }
            switch request {
            case .start, .pair, .unpair:
                // Only the kitchen starts timers and pairs devices (its own socket); a timer says
                // so in one line.
                entry.connection.reply(
                    request == .pair || request == .unpair
                        ? "error\ta timer pairs no devices: pairing is the kitchen's request"
                        : "error\ta timer starts no timers: start is the kitchen's request")
                connections[connection] = nil
                return []
            case .watch:
                connections[connection] = nil
                watchers.add(connection, entry.connection)
                return []
            case .command(let command):
                connections[connection]?.answering = true
                return [.command(command, from: .control, connection: connection)]
            }
        }
    }

    /// Closes the idlest connections (open longest without a request) while more than
    /// ``connectionLimit`` are open.
    private func dropIdlest() {
        while connections.count > Self.connectionLimit {
            let idle = connections.filter { !$0.value.answering }
            guard let idlest = idle.min(by: { ($0.value.openedAt, $0.key) < ($1.value.openedAt, $1.key) }) else {
                return
            }
            connections[idlest.key] = nil
        }
    }

    /// Closes connections that sent no request within ``idleLimit``.
    func expire(at now: ContinuousClock.Instant) {
        for (id, entry) in connections where !entry.answering && now >= entry.openedAt.advanced(by: Self.idleLimit) {
            connections[id] = nil
        }
    }

    /// Sends the timer's status `line` to the watchers that have not had it (the time left aside).
    ///
    /// A new watcher's first line, or a change. Call after each round.
    func broadcast(_ line: String) { watchers.broadcast(line) }

    /// The end of the run: the final status `line` to every watcher, then all closed; waits at
    /// most ``finishLimit`` for slow readers.
    func finish(_ line: String) { watchers.finish(line, within: Self.finishLimit) }

    /// How long the end of the run waits for watchers to take the final line.
    static let finishLimit: Duration = .milliseconds(100)

    /// Answers `connection` with `line` and closes it.
    func reply(_ connection: Int, _ line: String) {
        connections[connection]?.connection.reply(line)
        connections[connection] = nil
    }
}
