import ControlChannel
import Glibc

/// The control socket's side of the event loop: accepts connections from `eggtimer status|ack|
/// cancel|snooze` in other shells, reads one request line from each, and answers it.
///
/// A connection that sends nothing useful within ``idleLimit`` is closed, and at most
/// ``connectionLimit`` are open at once, so no peer can hold the timer's resources. Never blocks.
/// Owned by the event loop's thread.
final class ControlInbox {
    private let server: ControlServer
    private var connections: [Int: (connection: ControlConnection, openedAt: ContinuousClock.Instant)] = [:]
    private var nextID = 0

    /// How long a connection may take to send its request.
    static let idleLimit: Duration = .seconds(2)
    /// How many connections may be open at once; more wait in the listen queue.
    static let connectionLimit = 8

    /// Wraps a listening server.
    init(server: ControlServer) { self.server = server }

    /// The socket's path.
    var path: String { server.path }

    /// The descriptors to poll, with what each is: nil for the listening socket, else a
    /// connection's id.
    var pollSet: [(fd: Int32, connection: Int?)] {
        var set: [(fd: Int32, connection: Int?)] =
            connections.count < Self.connectionLimit ? [(server.descriptor, nil)] : []
        for (id, entry) in connections.sorted(by: { $0.key < $1.key }) { set.append((entry.connection.descriptor, id)) }
        return set
    }

    /// When the oldest connection times out; nil with none open.
    var nextCheck: ContinuousClock.Instant? {
        connections.values.map { $0.openedAt.advanced(by: Self.idleLimit) }.min()
    }

    /// Handles readiness on `connection` (nil: the listening socket) at `now`.
    /// - Returns: The requests that arrived whole.
    func ready(_ connection: Int?, at now: ContinuousClock.Instant) -> [Input] {
        guard let connection else {
            while connections.count < Self.connectionLimit, let accepted = server.accept() {
                connections[nextID] = (accepted, now)
                nextID += 1
            }
            return []
        }
        guard let entry = connections[connection] else { return [] }
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
            return [.control(request, connection: connection)]
        }
    }

    /// Closes connections that sent no request within ``idleLimit``.
    func expire(at now: ContinuousClock.Instant) {
        for (id, entry) in connections where now >= entry.openedAt.advanced(by: Self.idleLimit) {
            connections[id] = nil
        }
    }

    /// Answers `connection` with `line` and closes it.
    func reply(_ connection: Int, _ line: String) {
        connections[connection]?.connection.reply(line)
        connections[connection] = nil
    }
}
