/// The connection budgets (issue 43): connections that have not shown a credential cannot take
/// the room a credential's requests need, however many addresses they come from.
///
/// A connection is *unvouched* from its accept until a request on it shows a credential
/// (``HTTPServer/Vouch``). Unvouched connections are held to two budgets: at most
/// ``Settings/perAddressLimit`` from one address, and at most ``Settings/unvouchedLimit`` in all (the
/// ``Settings/connectionLimit`` less the ``Settings/reservedConnections``). A new connection is
/// always let in; the budgets are kept by closing unvouched connections that *had their chance*
/// to show a credential and did not: libmicrohttpd reads a connection first in the run after the
/// one that accepted it, so a connection is judged only at the end of that next run, or as soon as
/// a request head on it showed none (``enforceBudgets()``). A phone whose head is on its way when a
/// flood of new sockets arrives is read before any of them can push it out.
///
/// Who goes: past an address's budget, that address's oldest; past the budget of all, the oldest
/// of the address holding the most unvouched connections, so a flood from many addresses, each at
/// its cap, spends its own places before a device with one connection loses its only one; and
/// there, strangers' first: an address that holds a vouched connection or showed a credential in
/// the last hour (``KnownAddresses``) loses one only when no other address has one left, so a
/// paired phone's next request survives strangers churning connections from any number of
/// addresses however long its head takes on the way. Past
/// ``Settings/connectionLimit`` with every connection vouched, the newest. A paired phone's
/// request, vouched as soon as its head is read, is never closed for room; a request on a closed
/// connection never reaches the handler.
///
/// On the server's thread, like the server.
extension HTTPServer {
    /// The address a connection from `peer` counts against (``Connection/origin``): `peer`, or
    /// with ``Settings/loopbackIsOneAddress`` `loopback` for any loopback address (127.0.0.0/8,
    /// `::1`, `::ffff:127.x.y.z`), which are all this machine's: a local user who binds its
    /// connections to many of them is one address, so it can never take a LAN phone's place.
    /// - Parameters:
    ///   - peer: The numeric address (``numericText``).
    ///   - loopbackIsOne: The setting.
    /// - Returns: The address the budgets count.
    static func origin(of peer: String, loopbackIsOne: Bool) -> String {
        guard loopbackIsOne else { return peer }
        let isLoopback = peer.hasPrefix("127.") || peer == "::1" || peer.lowercased().hasPrefix("::ffff:127.")
        return isLoopback ? "loopback" : peer
    }

    /// How many connections libmicrohttpd may hold beyond ``Settings/connectionLimit``: those
    /// accepted since the last ``enforceBudgets()`` (at most a run's accepts), and those the
    /// budgets shut that libmicrohttpd has not closed yet (it sees their close in its next run).
    static let closingHeadroom = 64

    /// How many open connections (not being closed) are vouched and unvouched.
    var connectionCounts: (vouched: Int, unvouched: Int) {
        let live = connections.values.filter { !$0.isShut }
        let vouched = live.filter { $0.credential != nil }.count
        return (vouched, live.count - vouched)
    }

    /// Whether the budgets may close `connection` now: it showed a request head without a
    /// credential, or libmicrohttpd has had a whole run to read it since the run that accepted it.
    func hadItsChance(_ connection: Connection) -> Bool {
        connection.showedHead || connection.acceptedInRun < runNumber
    }

    /// Closes what the budgets say must go (the extension's rules).
    ///
    /// The address's oldest past its budget, the most-held address's oldest past the budget of
    /// all, the newest past the connection limit when every connection is vouched. Connections
    /// that have not had their chance are never closed here: they count, and are judged when
    /// they have.
    ///
    /// Each closed connection is shut (``shut(_:_:)``), its waiting request answered 503.
    /// O(connections × closed), without sorting; called at the end of each ``run(now:)`` and when
    /// a request head shows no credential.
    func enforceBudgets() {
        var (open, perAddress) = (0, [String: Int]())
        var unvouched: [OpaquePointer] = []
        var newestVouched: (pointer: OpaquePointer, serial: UInt64)?
        var vouchedOrigins: Set<String> = []
        for (key, connection) in connections where !connection.isShut {
            open += 1
            guard connection.credential == nil else {
                if connection.serial > newestVouched?.serial ?? 0 { newestVouched = (key, connection.serial) }
                vouchedOrigins.insert(connection.origin)
                continue
            }
            unvouched.append(key)
            perAddress[connection.origin, default: 0] += 1
        }
        guard
            unvouched.count > settings.unvouchedLimit || open > settings.connectionLimit
                || perAddress.values.contains(where: { $0 > settings.perAddressLimit })
        else { return }
        // The oldest unvouched connection that had its chance among the addresses `fits` takes
        // that hold the most; nil when none of those had its chance (they are judged after a
        // run, rather than a lighter address's paying for them). Two passes.
        func victim(_ fits: (String) -> Bool) -> OpaquePointer? {
            guard let most = perAddress.filter({ fits($0.key) }).values.max() else { return nil }
            var found: (pointer: OpaquePointer, serial: UInt64)?
            for key in unvouched {
                guard let connection = connections[key], !connection.isShut, fits(connection.origin),
                    perAddress[connection.origin] == most, hadItsChance(connection),
                    connection.serial < found?.serial ?? .max
                else { continue }
                found = (key, connection.serial)
            }
            return found?.pointer
        }
        func close(_ pointer: OpaquePointer) {
            guard let peer = connections[pointer]?.origin else { return }
            shut(pointer, "closed to make room for other connections")
            perAddress[peer, default: 1] -= 1
            open -= 1
        }
        for (peer, held) in perAddress where held > settings.perAddressLimit {
            for _ in settings.perAddressLimit..<held {
                guard let pointer = victim({ $0 == peer }) else { break }
                close(pointer)
            }
        }
        let now = clock
        let known = { (origin: String) in
            vouchedOrigins.contains(origin) || self.knownAddresses.contains(origin, at: now)
        }
        var unvouchedOpen = perAddress.values.reduce(0, +)
        var strangers = perAddress.filter { !known($0.key) }.values.reduce(0, +)
        while unvouchedOpen > settings.unvouchedLimit || open > settings.connectionLimit {
            // While a stranger holds one (had its chance or not), a known address keeps its own.
            guard let pointer = strangers > 0 ? victim({ !known($0) }) : victim({ _ in true }) else { break }
            if let origin = connections[pointer]?.origin, !known(origin) { strangers -= 1 }
            close(pointer)
            unvouchedOpen -= 1
        }
        if open > settings.connectionLimit, unvouchedOpen == 0, let newest = newestVouched {
            close(newest.pointer)
        }
    }

    /// The head of `request` is in: asks ``vouch`` for its credential if its connection has none
    /// yet, and vouches the connection when the credential vouches fewer than
    /// ``Settings/perAddressLimit`` open connections; a connection left unvouched has had its
    /// chance, and the budgets are kept (``enforceBudgets()``).
    func showCredential(of request: Request) {
        guard let connection = connections[request.connection], connection.credential == nil, !connection.isShut
        else { return }
        connections[request.connection]?.showedHead = true
        defer { if connections[request.connection]?.credential == nil { enforceBudgets() } }
        guard let vouch else { return }
        let (path, query) = Self.split(request.target)
        let head = HTTPRequest(
            method: request.method, path: path, query: query, headers: request.headers, peer: connection.peer,
            isTLS: settings.tls != nil)
        guard let credential = vouch(head) else { return }
        let vouched = connections.values.filter { !$0.isShut && $0.credential == credential }.count
        guard vouched < settings.perAddressLimit else { return }
        connections[request.connection]?.credential = credential
        knownAddresses.note(connection.origin, at: clock)
    }
}
