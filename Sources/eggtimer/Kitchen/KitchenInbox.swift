import ControlChannel
import Glibc
import TimerEngine

/// The kitchen's control socket as a source of the event loop: `<runtime folder>/kitchen/kitchen.sock`
/// (``ControlServer``: mode 0600 in a 0700 folder, same-user peers only, one kitchen per user by
/// its lock), taking `eggtimer/3<TAB>start<TAB>TEXT` from `eggtimer start` in a shell, and
/// `eggtimer/3<TAB>pair` / `unpair` from `eggtimer kitchen --pair` / `--unpair`.
///
/// Each whole `start` line becomes `.startRequest(text:connection:)`; the connection stays open
/// until ``reply(_:_:)`` answers it (the timer runs, or it was refused). A `pair` or `unpair`
/// line becomes `.pairRequest(connection:)` or `.unpairRequest(connection:)`, answered in the
/// same round. Any other request is
/// answered with an error line at once. A connection that sends no request within ``idleLimit``
/// is closed, and at most ``connectionLimit`` are open (the idlest waiting for its request goes
/// first), so no peer can hold the kitchen. Never blocks. Owned by the event loop's thread.
final class KitchenInbox: LoopSource {
    private struct Entry {
        let connection: ControlConnection
        let openedAt: ContinuousClock.Instant
        var answering = false
    }

    private let server: ControlServer
    private var connections: [Int: Entry] = [:]
    private var nextID = 0

    /// How long a connection may take to send its request.
    static let idleLimit: Duration = .seconds(2)
    /// How many connections may be open at once.
    static let connectionLimit = 16
    /// How many connections are accepted in one round at most.
    static let acceptBatch = 64

    /// The kitchen's folder in the runtime folder `runtime`: `RUNTIME/kitchen`.
    static func folder(in runtime: String) -> String { runtime + "/" + KitchenCore.ownLabel }

    /// Listens on the kitchen's socket.
    /// - Parameter runtime: The runtime folder (prepared: ``RuntimeFolder/prepare(_:)``).
    /// - Throws: `ControlError`: ``ControlError/labelInUse(label:)`` when another kitchen of this
    ///   user runs; the folder's and the socket's errors.
    init(runtime: String) throws(ControlError) {
        let folder = Self.folder(in: runtime)
        try RuntimeFolder.prepare(folder)
        server = try ControlServer(folder: folder, label: KitchenCore.ownLabel)
    }

    /// The socket's path.
    var path: String { server.path }

    /// The listening socket, then each connection waiting for its request.
    var pollRequests: [PollRequest] {
        [PollRequest(descriptor: server.descriptor, events: Int16(POLLIN))]
            + connections.sorted { $0.key < $1.key }.filter { !$0.value.answering }.map {
                PollRequest(descriptor: $0.value.connection.descriptor, events: Int16(POLLIN))
            }
    }

    /// When the oldest connection without a request times out.
    var nextCheck: ContinuousClock.Instant? {
        connections.values.filter { !$0.answering }.map { $0.openedAt + Self.idleLimit }.min()
    }

    /// Accepts and reads what is ready, then closes connections idle too long.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        let waiting = connections.filter { !$0.value.answering }.map { ($0.key, $0.value.connection.descriptor) }
        for (id, fd) in waiting.sorted(by: { $0.0 < $1.0 }) where ready.contains(where: { $0.descriptor == fd }) {
            read(id, into: &inputs)
        }
        if ready.contains(where: { $0.descriptor == server.descriptor }) {
            for _ in 0..<Self.acceptBatch {
                guard let accepted = server.accept() else { break }
                let id = nextID
                nextID += 1
                connections[id] = Entry(connection: accepted, openedAt: now)
                read(id, into: &inputs)
                dropIdlest()
            }
        }
        for (id, entry) in connections where !entry.answering && now >= entry.openedAt + Self.idleLimit {
            connections[id] = nil
        }
    }

    /// Answers `connection` with `line` and closes it; nothing if it is gone.
    func reply(_ connection: Int, _ line: String) {
        connections[connection]?.connection.reply(line)
        connections[connection] = nil
    }

    private func read(_ id: Int, into inputs: inout [Input]) {
        guard let entry = connections[id] else { return }
        switch entry.connection.read() {
        case .pending: return
        case .closed: connections[id] = nil
        case .line(let line):
            switch ControlRequest(line: line) {
            case .start(let text)?:
                connections[id]?.answering = true
                inputs.append(.startRequest(text: text, connection: id))
            case .pair?:
                connections[id]?.answering = true
                inputs.append(.pairRequest(connection: id))
            case .unpair?:
                connections[id]?.answering = true
                inputs.append(.unpairRequest(connection: id))
            default:
                reply(
                    id,
                    "error\t\(KitchenCore.Refusal.Kind.usage.rawValue)\tnot a request of the kitchen (\(ControlRequest.thirdVersion) start)"
                )
            }
        }
    }

    private func dropIdlest() {
        while connections.count > Self.connectionLimit {
            let idle = connections.filter { !$0.value.answering }
            guard let idlest = idle.min(by: { ($0.value.openedAt, $0.key) < ($1.value.openedAt, $1.key) }) else {
                return
            }
            connections[idlest.key] = nil
        }
    }
}
