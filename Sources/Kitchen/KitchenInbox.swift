import ControlChannel
import EventLoop
import TimerEngine

/// The kitchen's control socket as a source of the event loop: `<runtime folder>/kitchen/kitchen.sock`
/// (``ControlServer``: mode 0600 in a 0700 folder, same-user peers only, one kitchen per user by
/// its lock), taking `eggtimer/3<TAB>start<TAB>TEXT` from `eggtimer start` in a shell, and
/// `eggtimer/3<TAB>pair` / `unpair` from `eggtimer kitchen --pair` / `--unpair`.
///
/// Each whole `start` line becomes `.startRequest(text:id:connection:)`; the connection stays open
/// until ``reply(_:_:)`` answers it (the timer runs, or it was refused). One whose asker has
/// closed its end already (it gave up while the kitchen was stopped) is dropped, not acted on,
/// with one line (issue 42). A `pair` or `unpair`
/// line becomes `.pairRequest(connection:)` or `.unpairRequest(connection:)`, answered in the
/// same round. Any other request is
/// answered with an error line at once. A connection that sends no request within ``idleLimit``
/// is closed, and at most ``connectionLimit`` are open (the idlest waiting for its request goes
/// first), so no peer can hold the kitchen: the bounds of the shared ``ControlPool``, the timer's
/// too. Never blocks. Owned by the event loop's thread.
package final class KitchenInbox: LoopSource {
    private let pool: ControlPool
    /// Binds the socket again when its file is deleted: a source of its own, added beside this one.
    let keeper: SocketKeeper

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
        let server = try ControlServer(folder: folder, label: KitchenCore.ownLabel)
        pool = ControlPool(
            server: server, connectionLimit: Self.connectionLimit, idleLimit: Self.idleLimit,
            acceptBatch: Self.acceptBatch)
        keeper = SocketKeeper(server: server)
    }

    /// The socket's path.
    var path: String { pool.path }

    /// The listening socket, then each connection waiting for its request.
    var pollRequests: [PollRequest] { pool.pollRequests }

    /// When the oldest connection without a request times out.
    var nextCheck: ContinuousClock.Instant? { pool.nextCheck }

    /// Accepts and reads what is ready, then closes connections idle too long.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        var gone: [Int] = []
        pool.service(ready, at: now) { id, line in
            switch ControlRequest(line: line) {
            case .start(let text, let request)?:
                // Its asker gave up (a stopped kitchen read it late): acting on it now would start
                // a timer nobody is told of, beside the one its retry asks for (issue 42).
                guard !pool.hasHungUp(id) else {
                    gone.append(id)
                    inputs.append(.note("kitchen: a start ('\(text)') whose shell has gone: not acted on"))
                    return .answering
                }
                inputs.append(.startRequest(text: text, id: request, connection: id))
            case .pair?: inputs.append(.pairRequest(connection: id))
            case .unpair?: inputs.append(.unpairRequest(connection: id))
            default:
                return .reply(
                    "error\t\(KitchenCore.Refusal.Kind.usage.rawValue)\tnot a request of the kitchen (\(ControlRequest.thirdVersion) start)"
                )
            }
            return .answering
        }
        for id in gone { pool.drop(id) }
    }

    /// Answers `connection` with `line` and closes it; nothing if it is gone.
    func reply(_ connection: Int, _ line: String) { pool.reply(connection, line) }
}
