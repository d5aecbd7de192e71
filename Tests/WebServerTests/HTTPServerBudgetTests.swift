import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// The connection budgets over real loopback sockets (issue 43): connections that showed no
/// credential, from one address or from many (127.0.0.0/8 aliases), cannot keep out a request
/// that carries one, nor the address's own next request; vouched connections are never closed
/// for room and do not count against their address.
@Suite struct HTTPServerBudgetTests {
    /// The refusal of limits out of range.
    static let limitsError = "the HTTP server's limits must be positive (the connection deadline at most a day)"

    /// The test's credential: the `X-Pass` field's value.
    static let vouch: @Sendable (HTTPRequest) -> String? = { $0.header("x-pass") }

    /// Opens `count` connections from `source`, each holding a request line it never finishes.
    static func hold(_ count: Int, from source: String, port: UInt16) throws -> [HTTPTestConnection] {
        try (0..<count).map { _ in
            let connection = try HTTPTestConnection(port: port, source: source)
            connection.send("GET /held HTTP/1.1\r\n")
            return connection
        }
    }

    /// Waits until exactly `closed` of `held` were closed by the server and the server counts
    /// `open` unvouched connections (or 10 s passed).
    /// - Returns: How many were closed then.
    static func awaitClosed(_ closed: Int, of held: [HTTPTestConnection], open: Int, in loop: ServerLoop) throws
        -> Int
    {
        var seen = 0
        try? eventually("\(closed) closed, \(open) unvouched open", deadline: .now + .seconds(10)) {
            for connection in held where !connection.isClosed { connection.readSome(until: .now) }
            seen = held.filter(\.isClosed).count
            return try seen >= closed && loop.sync({ $0.connectionCounts.unvouched }) == open
        }
        return seen
    }

    /// The server's vouched and unvouched open connections.
    static func counts(_ loop: ServerLoop) throws -> [Int] {
        try loop.sync { [$0.connectionCounts.vouched, $0.connectionCounts.unvouched] }
    }

    /// A GET with the credential `pass` from `source` on a new connection, kept alive.
    static func vouched(_ pass: String, from source: String, port: UInt16) throws -> HTTPTestConnection {
        let connection = try HTTPTestConnection(port: port, source: source)
        try connection.sendRequest(
            method: "GET", path: "/\(pass)",
            headers: [HTTPTestField("X-Pass", pass), HTTPTestField("Connection", "keep-alive")])
        return connection
    }

    @Test func heldConnectionsFromMoreAddressesThanTheBudgetLeaveRoomForAVouchedRequest() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings {
            ($0.connectionLimit, $0.reservedConnections, $0.perAddressLimit) = (24, 8, 4)
        }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        // 8 addresses × 4: twice the 16 unvouched connections the server keeps.
        var held: [HTTPTestConnection] = []
        for address in 1...8 { held += try Self.hold(4, from: "127.0.8.\(address)", port: loop.port) }
        #expect(try Self.awaitClosed(16, of: held, open: 16, in: loop) == 16)
        // Every unvouched place is held: the phone's request is answered all the same.
        let phone = try Self.vouched("phone", from: "127.0.9.1", port: loop.port)
        #expect(try phone.readResponse(until: .now + .seconds(10)).status == 200)
        // Its connection took the place of the oldest held one while it showed no credential.
        #expect(try Self.awaitClosed(17, of: held, open: 15, in: loop) == 17)
        #expect(try Self.counts(loop) == [1, 15])
        // The newer half held on: the oldest went first.
        #expect(held.prefix(17).filter(\.isClosed).count == 17)
        #expect(held.suffix(15).filter(\.isClosed).isEmpty)
        // Eight more from one address close three of the oldest and four of their own, never
        // the vouched one.
        held += try Self.hold(8, from: "127.0.8.9", port: loop.port)
        #expect(try Self.awaitClosed(24, of: held, open: 16, in: loop) == 24)
        #expect(try Self.counts(loop) == [1, 16])
        #expect(held[17..<20].filter(\.isClosed).count == 3)
        #expect(held[32..<36].filter(\.isClosed).count == 4)
        phone.readSome(until: .now)
        #expect(!phone.isClosed)
        #expect(seen.requests.map(\.path) == ["/phone"])
    }

    @Test func anAddressesHeldConnectionsDoNotKeepItsNextRequestOut() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings { ($0.connectionLimit, $0.perAddressLimit) = (6, 4) }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        let held = try Self.hold(4, from: "127.0.0.1", port: loop.port)
        #expect(try Self.awaitClosed(0, of: held, open: 4, in: loop) == 0)
        // The address's next request, with or without a credential, closes its oldest held one.
        let next = try HTTPTestConnection(port: loop.port, source: "127.0.0.1")
        try next.sendRequest(method: "GET", path: "/next")
        #expect(try next.readResponse(until: .now + .seconds(10)).status == 200)
        #expect(try Self.awaitClosed(1, of: held, open: 3, in: loop) == 1)
        #expect(held[0].isClosed)
        // Another address is answered; the address's three newer held connections stay.
        let other = try HTTPTestConnection(port: loop.port, source: "127.0.0.2")
        try other.sendRequest(method: "GET", path: "/other")
        #expect(try other.readResponse(until: .now + .seconds(10)).status == 200)
        for connection in held.dropFirst() { connection.readSome(until: .now) }
        #expect(held.dropFirst().filter(\.isClosed).isEmpty)
        #expect(seen.requests.map(\.path) == ["/next", "/other"])
    }

    @Test func vouchedConnectionsDoNotCountAgainstTheirAddressButOneCredentialVouchesAtMostItsLimit() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings { ($0.connectionLimit, $0.perAddressLimit) = (32, 3) }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        // Six devices behind one address (a NAT, the kiosk on the box itself).
        var devices: [HTTPTestConnection] = []
        for device in 1...6 {
            let connection = try Self.vouched("device\(device)", from: "127.0.0.1", port: loop.port)
            #expect(try connection.readResponse(until: .now + .seconds(10)).status == 200)
            devices.append(connection)
        }
        #expect(try Self.counts(loop) == [6, 0])
        // Three held ones from that address make no room by closing a device.
        let held = try Self.hold(4, from: "127.0.0.1", port: loop.port)
        #expect(try Self.awaitClosed(1, of: held, open: 3, in: loop) == 1)
        for connection in devices { connection.readSome(until: .now) }
        #expect(devices.filter(\.isClosed).isEmpty)
        // One credential vouches at most three connections: a fourth is answered, unvouched.
        var same: [HTTPTestConnection] = []
        for _ in 1...3 {
            let connection = try Self.vouched("device1", from: "127.0.0.3", port: loop.port)
            #expect(try connection.readResponse(until: .now + .seconds(10)).status == 200)
            same.append(connection)
        }
        #expect(try Self.counts(loop) == [8, 4])
    }

    @Test func whenEveryOtherConnectionIsVouchedAtTheLimitTheNewOneIsClosed() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings {
            ($0.connectionLimit, $0.reservedConnections, $0.perAddressLimit) = (3, 1, 2)
        }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        var devices: [HTTPTestConnection] = []
        for device in 1...3 {
            let connection = try Self.vouched("device\(device)", from: "127.0.0.\(device)", port: loop.port)
            #expect(try connection.readResponse(until: .now + .seconds(10)).status == 200)
            devices.append(connection)
        }
        let late = try HTTPTestConnection(port: loop.port, source: "127.0.0.4")
        late.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(late.waitClosed(until: .now + .seconds(10)))
        for connection in devices { connection.readSome(until: .now) }
        #expect(devices.filter(\.isClosed).isEmpty)
        #expect(seen.requests.count == 3)
    }

    @Test(arguments: [(4, -1), (4, Int.min)])
    func reservedConnectionsOutOfRangeAreOneClearError(limit: Int, reserved: Int) {
        let settings = HTTPServerTests.settings { ($0.connectionLimit, $0.reservedConnections) = (limit, reserved) }
        #expect(throws: HTTPServerError(description: Self.limitsError)) {
            try HTTPServer(settings: settings) { _, _ in .later }
        }
    }
}
