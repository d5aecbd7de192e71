import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// Issue 43 in the server: event streams whose reader stopped reading, closed its end, or is
/// replaced end at once, over real loopback sockets.
@Suite struct HTTPServerReapingTests {
    /// A stream whose reader takes nothing between two checks is ended at the second and
    /// reported once; one whose reader reads is kept.
    @Test func aStreamWhoseReaderTookNothingBetweenTwoChecksIsEnded() throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: HTTPServerStreamTests.streams(seen))
        let frozen = try HTTPTestConnection(port: loop.port, receiveBuffer: 1024)
        let reading = try HTTPTestConnection(port: loop.port)
        try frozen.sendRequest(method: "GET", path: "/events")
        try HTTPServerStreamTests.waitSeen(seen, count: 1, loop: loop)
        try reading.sendRequest(method: "GET", path: "/events")
        try HTTPServerStreamTests.waitSeen(seen, count: 2, loop: loop)
        let (stopped, live) = (seen.handles[0], seen.handles[1])
        // More than the frozen reader's buffers take (well under the 64 KiB the server holds).
        let piece = Array("data: \(String(repeating: "x", count: 1000))\n\n".utf8)
        for _ in 0..<24 { #expect(try loop.sync { $0.send(piece, to: stopped) && $0.send(piece, to: live) }) }
        #expect(try reading.events(until: .now + .seconds(10), count: 24).count == 24)
        // The reader's last acknowledgement may lag (a delayed ACK): its bytes are all taken soon.
        try eventually("the reading client took every byte", deadline: .now + .seconds(10)) {
            try loop.sync { $0.backlog(of: live) } == 0
        }
        #expect(try loop.sync { $0.backlog(of: stopped) ?? 0 } > 0)
        #expect(try loop.sync { $0.reapStalledStreams() }.isEmpty, "a first check only notes it")
        #expect(try loop.sync { $0.reapStalledStreams() } == [stopped])
        try HTTPServerTests.expectClosed(stopped, in: loop)
        #expect(frozen.waitClosed(until: .now + .seconds(10)))
        #expect(try loop.sync { $0.reapStalledStreams() }.isEmpty)
        #expect(try loop.sync { $0.send(Array("data: on\n\n".utf8), to: live) })
        #expect(try reading.events(until: .now + .seconds(10)).map(\.data) == ["on"])
        #expect(!loop.closed.contains(live))
    }

    /// A phone on a slow link while the house publishes faster than it reads: bytes always wait,
    /// but it takes some between two checks, so it is not ended (the tester's stream closed every
    /// 30 s with "its reader took nothing"); once it stops taking any, it is.
    @Test func aSlowReaderThatAlwaysHasABacklogButTakesSomeIsNotEnded() throws {
        let (loop, slow, exchange) = try HTTPServerStreamTests.oneStream(receiveBuffer: 4096)
        let piece = HTTPServerStreamTests.piece("s")
        for _ in 0..<48 { #expect(try loop.sync { $0.send(piece, to: exchange) }) }
        let given = { try loop.sync { $0.requests[exchange.id]?.given ?? 0 } }
        try eventually("the socket is full", deadline: .now + .seconds(10)) {
            let before = try given()
            _ = try loop.sync { _ in true }
            return try given() == before
        }
        #expect(try loop.sync { $0.reapStalledStreams() }.isEmpty, "a first check only notes it")
        // It reads a little: the server gives the socket more, and bytes still wait.
        let before = try given()
        try eventually("the reader took some", deadline: .now + .seconds(10)) {
            slow.readSome(until: .now + .milliseconds(20))
            return try given() > before
        }
        #expect(try loop.sync { $0.backlog(of: exchange) ?? 0 } > 0)
        #expect(try loop.sync { $0.reapStalledStreams() }.isEmpty, "it took some since the last check")
        // It stops reading: ended once a check finds it took nothing since the one before.
        try eventually("the stopped reader's stream is ended", deadline: .now + .seconds(10)) {
            try loop.sync { $0.reapStalledStreams() } == [exchange]
        }
        try HTTPServerTests.expectClosed(exchange, in: loop)
    }

    /// A stream whose reader closes its end is ended at once, with nothing sent to it, and its
    /// connection freed: its address may connect again although other connections of the
    /// address stay open (libmicrohttpd freed a connection ended by its reader's error only
    /// once every older connection was gone).
    @Test func aStreamItsReaderClosedEndsWithoutAWriteAndFreesItsPlace() throws {
        let seen = Seen()
        let loop = try ServerLoop(
            HTTPServerTests.settings { $0.perAddressLimit = 3 }, handler: HTTPServerStreamTests.streams(seen))
        let phone = "127.0.9.1"
        let client = try HTTPTestConnection(port: loop.port, source: phone)
        try client.sendRequest(method: "GET", path: "/events")
        try HTTPServerStreamTests.waitSeen(seen, count: 1, loop: loop)
        let exchange = try #require(seen.handles.first)
        #expect(try loop.sync { $0.send(Array("data: first\n\n".utf8), to: exchange) })
        #expect(try client.events(until: .now + .seconds(10)).map(\.data) == ["first"])
        #expect(try loop.sync { $0.streamDescriptors.count } == 1)
        let held = try (0..<2).map { _ in try HTTPTestConnection(port: loop.port, source: phone) }
        client.close()
        try HTTPServerTests.expectClosed(exchange, in: loop)
        // The stream's connection is gone, not only ended: the address holds the two others.
        try eventually("the stream's connection is freed", deadline: .now + .seconds(5)) {
            try loop.sync { $0.connections.count } == 2
        }
        try eventually("a request from the address is answered", deadline: .now + .seconds(5)) {
            let again = try HTTPTestConnection(port: loop.port, source: phone)
            try again.sendRequest(method: "GET", path: "/again")
            return (try? again.readResponse(until: .now + .seconds(1)))?.status == 200
        }
        #expect(try loop.sync { $0.streamDescriptors.isEmpty })
        #expect(held.allSatisfy { !$0.isClosed })
    }

    /// ``HTTPServer/drop(_:)`` ends a stream at once even when its reader never reads again.
    @Test func dropEndsAStreamWithoutItsReader() throws {
        let (loop, frozen, exchange) = try HTTPServerStreamTests.oneStream(receiveBuffer: 1024)
        let piece = HTTPServerStreamTests.piece("y")
        for _ in 0..<24 { _ = try loop.sync { $0.send(piece, to: exchange) } }
        try loop.sync { $0.drop(exchange) }
        try HTTPServerTests.expectClosed(exchange, in: loop)
        #expect(try loop.sync { $0.backlog(of: exchange) } == nil)
        #expect(frozen.waitClosed(until: .now + .seconds(10)), "the reader that never read sees the end")
    }
}
