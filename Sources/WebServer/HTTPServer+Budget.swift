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
    /// (``shut(_:_:)``), its waiting request answered 503. O(connections).
    func admit(_ pointer: OpaquePointer) {
        guard let new = connections[pointer] else { return }
        let unvouched = connections.filter { !$0.value.isShut && $0.value.credential == nil }
            .sorted { $0.value.serial < $1.value.serial }
        var closing: Set<OpaquePointer> = []
        let sameAddress = unvouched.filter { $0.value.peer == new.peer }
        if sameAddress.count > settings.perAddressLimit, let oldest = sameAddress.first {
            closing.insert(oldest.key)
        }
        if unvouched.count - closing.count > settings.unvouchedLimit,
            let oldest = unvouched.first(where: { !closing.contains($0.key) && $0.key != pointer })
        {
            closing.insert(oldest.key)
        }
        let open = connections.values.filter { !$0.isShut }.count
        if open - closing.count > settings.connectionLimit {
            let other = unvouched.first { !closing.contains($0.key) && $0.key != pointer }
            closing.insert(other?.key ?? pointer)
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
