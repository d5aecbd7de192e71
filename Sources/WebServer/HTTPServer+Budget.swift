/// The connection budgets (issue 43): connections that have not shown a credential cannot take
/// the room a credential's requests need, however many addresses they come from.
///
/// A connection is *unvouched* from its accept until a request on it shows a credential
/// (``HTTPServer/Vouch``). Unvouched connections are held to two budgets: at most
/// ``Settings/perAddressLimit`` from one address, and at most ``Settings/unvouchedLimit`` in all (the
/// ``Settings/connectionLimit`` less the ``Settings/reservedConnections``). A new connection is
/// always let in: past a budget the oldest unvouched connection inside it (of the address, then
/// of all) is closed instead, so that a flood of held sockets from any number of addresses
/// makes room for the next request rather than keeping it out, and a paired phone's request,
/// vouched as soon as its head is read, is never the one closed. Only when every other
/// connection is vouched and the limit is reached is the new one closed.
///
/// On the server's thread, like the server.
extension HTTPServer {
    /// How many connections libmicrohttpd may hold beyond ``Settings/connectionLimit``: the
    /// ones the server closed to make room (``admit(_:)``) count there until libmicrohttpd sees
    /// their close, at most one accept batch later.
    static let closingHeadroom = 64

    /// How many open connections (not being closed) are vouched and unvouched.
    var connectionCounts: (vouched: Int, unvouched: Int) {
        let live = connections.values.filter { !$0.isShut }
        let vouched = live.filter { $0.credential != nil }.count
        return (vouched, live.count - vouched)
    }

    /// A connection was accepted: closes what the budgets say must go to make room for it.
    ///
    /// Past the address's budget its oldest unvouched connection goes; then past the budget of
    /// all its oldest unvouched connection; then, past ``Settings/connectionLimit`` with no
    /// unvouched connection left but the new one, the new one. Each closed connection is shut
    /// (``shut(_:_:)``), its waiting request answered 503. O(connections), without sorting.
    func admit(_ pointer: OpaquePointer) {
        guard let new = connections[pointer] else { return }
        var (open, unvouched, sameAddress) = (0, 0, 0)
        for connection in connections.values where !connection.isShut {
            open += 1
            guard connection.credential == nil else { continue }
            unvouched += 1
            if connection.peer == new.peer { sameAddress += 1 }
        }
        var closing: [OpaquePointer] = []
        // The oldest unvouched connection `fits` takes, but the new one and those already going:
        // one pass, no sorting (a flood makes an accept per connection closed).
        func oldest(_ fits: (Connection) -> Bool) -> OpaquePointer? {
            var found: (pointer: OpaquePointer, serial: UInt64)?
            for (key, connection) in connections
            where key != pointer && !connection.isShut && connection.credential == nil && fits(connection)
                && !closing.contains(key) && connection.serial < found?.serial ?? .max
            {
                found = (key, connection.serial)
            }
            return found?.pointer
        }
        if sameAddress > settings.perAddressLimit, let victim = oldest({ $0.peer == new.peer }) {
            closing.append(victim)
        }
        if unvouched - closing.count > settings.unvouchedLimit, let victim = oldest({ _ in true }) {
            closing.append(victim)
        }
        if open - closing.count > settings.connectionLimit {
            closing.append(oldest({ _ in true }) ?? pointer)
        }
        for victim in closing { shut(victim, "closed to make room for other connections") }
    }

    /// The head of `request` is in: asks ``vouch`` for its credential if its connection has none
    /// yet, and vouches the connection when the credential vouches fewer than
    /// ``Settings/perAddressLimit`` open connections.
    func showCredential(of request: Request) {
        guard let vouch, let connection = connections[request.connection], connection.credential == nil,
            !connection.isShut
        else { return }
        let (path, query) = Self.split(request.target)
        let head = HTTPRequest(
            method: request.method, path: path, query: query, headers: request.headers, peer: connection.peer,
            isTLS: settings.tls != nil)
        guard let credential = vouch(head) else { return }
        let vouched = connections.values.filter { !$0.isShut && $0.credential == credential }.count
        guard vouched < settings.perAddressLimit else { return }
        connections[request.connection]?.credential = credential
    }
}
