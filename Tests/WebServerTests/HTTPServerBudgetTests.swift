import Dispatch
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

    /// How many of `held` are still open, per source address, in the order of `sources`.
    static func openPerAddress(_ held: [HTTPTestConnection], _ sources: [String]) -> [Int] {
        sources.map { source in held.filter { $0.source == source && !$0.isClosed }.count }
    }

    @Test func heldConnectionsFromMoreAddressesThanTheBudgetLeaveRoomForAVouchedRequest() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings {
            ($0.connectionLimit, $0.reservedConnections, $0.perAddressLimit) = (24, 8, 4)
        }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        // 8 addresses × 4: twice the 16 unvouched connections the server keeps.
        let sources = (1...9).map { "127.0.8.\($0)" }
        var held: [HTTPTestConnection] = []
        for source in sources.prefix(8) {
            held += try HTTPTestConnection.hold(4, from: source, port: loop.port)
        }
        #expect(try Self.awaitClosed(16, of: held, open: 16, in: loop) == 16)
        // The most-held addresses lost first: each keeps its newest two.
        #expect(Self.openPerAddress(held, sources) == [2, 2, 2, 2, 2, 2, 2, 2, 0])
        #expect(
            (0..<8).allSatisfy { address in
                !held[address * 4 + 2].isClosed && !held[address * 4 + 3].isClosed
            })
        // Every unvouched place is held: the phone's request is answered all the same. Its
        // connection, unvouched until its head was read, took the place of the oldest held one
        // of a most-held address.
        let phone = try Self.vouched("phone", from: "127.0.9.1", port: loop.port)
        #expect(try phone.readResponse(until: .now + .seconds(10)).status == 200)
        #expect(try Self.awaitClosed(17, of: held, open: 15, in: loop) == 17)
        #expect(try Self.counts(loop) == [1, 15])
        #expect(held[2].isClosed && !held[3].isClosed)
        // Eight more from one address: four go for its own budget, then the most-held address
        // (itself) down to the others' two, then the oldest of those; never the vouched one.
        held += try HTTPTestConnection.hold(8, from: sources[8], port: loop.port)
        #expect(try Self.awaitClosed(24, of: held, open: 16, in: loop) == 24)
        #expect(try Self.counts(loop) == [1, 16])
        let perAddress = Self.openPerAddress(held, sources)
        #expect(perAddress.max() == 2 && perAddress.reduce(0, +) == 16, "\(perAddress)")
        phone.readSome(until: .now)
        #expect(!phone.isClosed)
        #expect(seen.requests.map(\.path) == ["/phone"])
    }

    /// Holds the server's thread (a busy kitchen) until the returned gate is signalled: what
    /// clients connect and send meanwhile waits in the kernel, to be accepted together.
    static func holdThread(_ loop: ServerLoop) throws -> DispatchSemaphore {
        let (held, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        DispatchQueue.global().async {
            _ = try? loop.sync { _ in
                held.signal()
                gate.wait()
            }
        }
        guard held.wait(timeout: .now() + 30) == .success else { throw TestFailure("the server thread was not held") }
        return gate
    }

    @Test func aFloodFromThePhonesAddressRightBehindItsRequestDoesNotCloseIt() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings { ($0.connectionLimit, $0.perAddressLimit) = (64, 4) }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        // While the server is busy, the phone's request and then twelve held sockets from its own
        // address arrive: accepted together, the phone's the oldest, none read yet.
        let gate = try Self.holdThread(loop)
        let phone = try Self.vouched("phone", from: "127.0.0.1", port: loop.port)
        let flood = try HTTPTestConnection.hold(12, from: "127.0.0.1", port: loop.port)
        gate.signal()
        #expect(try phone.readResponse(until: .now + .seconds(10)).status == 200)
        // The flood's oldest made room for its newest; the phone, read first, was never judged.
        #expect(try Self.awaitClosed(8, of: flood, open: 4, in: loop) == 8)
        #expect(flood.prefix(8).filter(\.isClosed).count == 8)
        phone.readSome(until: .now)
        #expect(!phone.isClosed)
        #expect(try Self.counts(loop) == [1, 4])
    }

    @Test func aFloodFromOtherAddressesNeverClosesADevicesOnlyConnection() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings {
            ($0.connectionLimit, $0.reservedConnections, $0.perAddressLimit) = (24, 8, 4)
        }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        // The phone connected and has sent nothing yet (a slow link, a TLS handshake): the oldest
        // unvouched connection when eight addresses fill their caps, twice the budget.
        let phone = try HTTPTestConnection(port: loop.port, source: "127.0.9.1")
        try eventually("the server counts the phone", deadline: .now + .seconds(10)) {
            try Self.counts(loop) == [0, 1]
        }
        var held: [HTTPTestConnection] = []
        for address in 1...8 { held += try HTTPTestConnection.hold(4, from: "127.0.8.\(address)", port: loop.port) }
        #expect(try Self.awaitClosed(17, of: held, open: 16, in: loop) == 17)
        // Its head arrives: answered, vouched, on the connection it opened first.
        try phone.sendRequest(
            method: "GET", path: "/phone",
            headers: [HTTPTestField("X-Pass", "phone"), HTTPTestField("Connection", "keep-alive")])
        #expect(try phone.readResponse(until: .now + .seconds(10)).status == 200)
        #expect(try Self.counts(loop) == [1, 15])
        #expect(seen.requests.map(\.path) == ["/phone"])
    }

    @Test func aKnownAddressesNextConnectionOutlastsStrangersChurningFromManyAddresses() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings {
            ($0.connectionLimit, $0.reservedConnections, $0.perAddressLimit) = (24, 8, 4)
        }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        // The phone showed its credential once, on a connection it has closed since.
        let first = try Self.vouched("phone", from: "127.0.9.1", port: loop.port)
        #expect(try first.readResponse(until: .now + .seconds(10)).status == 200)
        first.close()
        try eventually("the first connection is gone", deadline: .now + .seconds(10)) {
            try Self.counts(loop) == [0, 0]
        }
        // Its next connection waits for its head (a phone in power save), as held as any stranger's.
        let phone = try HTTPTestConnection(port: loop.port, source: "127.0.9.1")
        try eventually("the server counts the phone", deadline: .now + .seconds(10)) {
            try Self.counts(loop) == [0, 1]
        }
        // Strangers from 48 addresses, one connection each, in three waves of 16: each wave
        // closes as many strangers as it brings (the first one fewer, for the phone's place).
        var held: [HTTPTestConnection] = []
        for (wave, closed) in [(10, 1), (11, 17), (12, 33)] {
            for address in 1...16 {
                held += try HTTPTestConnection.hold(1, from: "127.0.\(wave).\(address)", port: loop.port)
            }
            #expect(try Self.awaitClosed(closed, of: held, open: 16, in: loop) == closed)
        }
        #expect(held.suffix(15).filter(\.isClosed).isEmpty, "the newest strangers held on")
        try phone.sendRequest(
            method: "GET", path: "/phone",
            headers: [HTTPTestField("X-Pass", "phone"), HTTPTestField("Connection", "keep-alive")])
        #expect(try phone.readResponse(until: .now + .seconds(10)).status == 200)
        #expect(try Self.counts(loop) == [1, 15])
        #expect(seen.requests.map(\.path) == ["/phone", "/phone"])
    }

    @Test func knownAddressesAloneOverTheBudgetLoseTheirOldest() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings {
            ($0.connectionLimit, $0.reservedConnections, $0.perAddressLimit) = (8, 4, 4)
        }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        for device in 1...2 {
            let first = try Self.vouched("device\(device)", from: "127.0.9.\(device)", port: loop.port)
            #expect(try first.readResponse(until: .now + .seconds(10)).status == 200)
            first.close()
        }
        try eventually("the first connections are gone", deadline: .now + .seconds(10)) {
            try Self.counts(loop) == [0, 0]
        }
        // Six held from two known addresses, over the four unvouched places: no stranger to close.
        var held = try HTTPTestConnection.hold(3, from: "127.0.9.1", port: loop.port)
        held += try HTTPTestConnection.hold(3, from: "127.0.9.2", port: loop.port)
        #expect(try Self.awaitClosed(2, of: held, open: 4, in: loop) == 2)
        #expect(Self.openPerAddress(held, ["127.0.9.1", "127.0.9.2"]) == [2, 2])
    }

    @Test func anAddressIsKnownForItsMemoryAfterItsLastCredentialAndTheLongestUnseenIsForgottenFirst() {
        let start = ContinuousClock.now
        var known = KnownAddresses(memory: .seconds(60), capacity: 2)
        known.note("192.168.1.20", at: start)
        #expect(known.contains("192.168.1.20", at: start + .seconds(60)))
        #expect(!known.contains("192.168.1.20", at: start + .seconds(61)))
        #expect(!known.contains("192.168.1.21", at: start))
        known.note("192.168.1.21", at: start + .seconds(1))
        known.note("192.168.1.20", at: start + .seconds(2))
        known.note("192.168.1.22", at: start + .seconds(3))
        #expect(Set(known.lastSeen.keys) == ["192.168.1.20", "192.168.1.22"])
    }

    @Test func anAddressesHeldConnectionsDoNotKeepItsNextRequestOut() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings { ($0.connectionLimit, $0.perAddressLimit) = (6, 4) }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        let held = try HTTPTestConnection.hold(4, from: "127.0.0.1", port: loop.port)
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
        let held = try HTTPTestConnection.hold(4, from: "127.0.0.1", port: loop.port)
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

    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("127.255.3.9", "loopback"), ("::1", "loopback"),
        ("::ffff:127.0.0.2", "loopback"), ("::FFFF:127.1.1.1", "loopback"), ("192.168.1.20", "192.168.1.20"),
        ("128.0.0.1", "128.0.0.1"), ("fe80::1", "fe80::1"), ("::ffff:192.168.1.20", "::ffff:192.168.1.20"),
    ])
    func everyLoopbackAddressIsOneAddress(peer: String, origin: String) {
        #expect(HTTPServer.origin(of: peer, loopbackIsOne: true) == origin)
        #expect(HTTPServer.origin(of: peer, loopbackIsOne: false) == peer)
    }

    @Test func aLocalUsersConnectionsFromManyLoopbackAddressesShareOneBudget() throws {
        let seen = Seen()
        let settings = HTTPServerTests.settings {
            ($0.connectionLimit, $0.perAddressLimit, $0.loopbackIsOneAddress) = (64, 4, true)
        }
        let loop = try ServerLoop(settings, vouch: Self.vouch, handler: HTTPServerTests.echo(seen))
        var held: [HTTPTestConnection] = []
        for address in 1...10 { held += try HTTPTestConnection.hold(2, from: "127.0.7.\(address)", port: loop.port) }
        #expect(try Self.awaitClosed(16, of: held, open: 4, in: loop) == 16)
        #expect(held.suffix(4).filter(\.isClosed).isEmpty, "the newest four held on")
    }

    @Test(arguments: [(4, -1), (4, Int.min)])
    func reservedConnectionsOutOfRangeAreOneClearError(limit: Int, reserved: Int) {
        let settings = HTTPServerTests.settings { ($0.connectionLimit, $0.reservedConnections) = (limit, reserved) }
        #expect(throws: HTTPServerError(description: Self.limitsError)) {
            try HTTPServer(settings: settings) { _, _ in .later }
        }
    }
}
