import Glibc
import TestSupport
import Testing
import WebServer

@testable import eggtimer

/// Issue 43 end to end: a paired phone's STOP from a real kitchen gets through.
///
/// Connections that never show a paired session, from one address or from more loopback
/// addresses than the connection limit divided by the per-address cap (a local user: one
/// address), never keep it out; nor do other paired devices' streams at its address. Many LAN
/// addresses: HTTPServerBudgetTests; STOP's time under such an attack: `make bench`.
@Suite struct KitchenWebBudgetEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(30) }
    /// The kitchen's server settings (its defaults: 256 connections, 64 reserved, 16 per address).
    private let defaults = HTTPServer.Settings(address: "127.0.0.1", port: 0)

    /// Starts `label` for a second and waits on a stream of its own until it rings.
    private func ringing(_ label: String, in web: WebKitchen) throws -> HTTPTestConnection {
        let stream = try web.openStream()
        try web.startTimer(label, seconds: 1)
        try #require(WebKitchen.awaitState("ringing", of: label, on: stream, until: soon()), "\(label) rings")
        return stream
    }

    /// How many of `held` the kitchen closed, looked at until `count` were or 30 s passed.
    private func closed(_ count: Int, of held: [HTTPTestConnection]) -> Int {
        var seen = 0
        try? eventually("\(count) closed", deadline: soon()) {
            for connection in held where !connection.isClosed { connection.readSome(until: .now) }
            seen = held.filter(\.isClosed).count
            return seen >= count
        }
        return seen
    }

    /// Whether STOP of `label` is answered 200 with the alarm done.
    private func stop(_ label: String, in web: WebKitchen, from source: String = "127.0.0.1") throws -> Bool {
        let answer = try web.request("POST", web.actionPath(label, "ack"), json: "{}", from: source)
        return answer.status == 200 && WebKitchen.json(answer)?["state"]?.stringValue == "done"
    }

    @Test func aLocalUsersSlowConnectionsFromManyLoopbackAddressesAreOneAddress() throws {
        let web = try WebKitchen()
        try web.pair()
        let stream = try ringing("tea", in: web)
        // Another local user binds its sockets to more loopback addresses than the limit over the
        // per-address cap, each at that cap: 320 sockets. All are this machine's: one address,
        // which keeps its 16 (so it never reaches a LAN phone's place: HTTPServerBudgetTests).
        let addresses = defaults.connectionLimit / defaults.perAddressLimit + 4
        var held: [HTTPTestConnection] = []
        for address in 1...addresses {
            held += try HTTPTestConnection.hold(defaults.perAddressLimit, from: "127.0.43.\(address)", port: web.port)
        }
        let extra = held.count - defaults.perAddressLimit
        #expect(closed(extra, of: held) == extra, "the kitchen closed what was past the address's budget")
        // The phone's STOP is answered (here from loopback too: its connection took one of the
        // address's places while it had shown no cookie).
        #expect(try stop("tea", in: web), "STOP during the attack")
        #expect(WebKitchen.awaitState("done", of: "tea", on: stream, until: soon()), "the stream saw it stop")
        #expect(closed(extra + 1, of: held) == extra + 1)
        // Its stream (a paired connection) was never closed to make room.
        stream.readSome(until: .now)
        #expect(!stream.isClosed)
    }

    @Test func idleConnectionsFromThePhonesOwnAddressLeaveItsStopAnswered() throws {
        let web = try WebKitchen()
        try web.pair()
        _ = try ringing("tea", in: web)
        // Idle connections (each answered once, kept alive): surely accepted before the STOP.
        let held = try (0..<defaults.perAddressLimit).map { _ in
            let connection = try HTTPTestConnection(port: web.port, source: "127.0.0.1")
            try connection.sendRequest(
                method: "GET", path: "/api/session", headers: [HTTPTestField("Connection", "keep-alive")])
            #expect(try connection.readResponse(until: soon()).status == 200)
            return connection
        }
        #expect(closed(0, of: held) == 0)
        #expect(try stop("tea", in: web, from: "127.0.0.1"), "STOP from the address holding its cap")
        #expect(closed(1, of: held) == 1 && held[0].isClosed, "the address's oldest made room")
    }

    @Test func otherPairedDevicesStreamsAtOneAddressLeaveANewDevicesStopAnswered() throws {
        let web = try WebKitchen()
        try web.pair()
        _ = try ringing("tea", in: web)
        // The per-address cap of other paired devices, each with its stream, at 127.0.0.1.
        var streams: [HTTPTestConnection] = []
        for _ in 0..<defaults.perAddressLimit {
            let device = try web.pairDevice()
            let stream = try web.openStream(from: "127.0.0.1", cookie: device.cookie)
            #expect(try !stream.events(until: soon()).isEmpty, "a device's stream opened")
            streams.append(stream)
        }
        #expect(try stop("tea", in: web, from: "127.0.0.1"), "the first device's STOP from the same address")
        for stream in streams { stream.readSome(until: .now) }
        #expect(streams.filter(\.isClosed).isEmpty, "no paired stream was closed for room")
    }
}
