import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// Event streams, the total connection deadline and close, over real loopback sockets.
@Suite struct HTTPServerStreamTests {
    /// A handler that starts an event stream on `/events`, holds `/later` for a later answer,
    /// and answers anything else 200 at once; it records every request.
    static func streams(_ seen: Seen) -> @Sendable (HTTPRequest, HTTPExchange) -> HTTPReply {
        { request, exchange in
            seen.record(request, exchange)
            switch request.path {
            case "/events": return .events(headers: [HTTPHeader("Cache-Control", "no-store")])
            case "/later": return .later
            default: return .response(HTTPResponse(status: 200, body: Array("ok".utf8)))
            }
        }
    }

    /// Waits until the handler saw `count` requests.
    static func waitSeen(_ seen: Seen, count: Int, loop: ServerLoop) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while seen.handles.count < count, ContinuousClock.now < deadline { _ = try loop.sync { _ in true } }
        try #require(seen.handles.count == count)
    }

    /// A server of ``streams(_:)`` and one client following `/events` with a receive buffer of
    /// `receiveBuffer` bytes (a small one fills fast: a reader that stops, or reads slowly).
    /// - Returns: The loop (keep it: it stops at deinit), the client and the stream's exchange.
    static func oneStream(receiveBuffer: Int) throws -> (
        loop: ServerLoop, client: HTTPTestConnection, exchange: HTTPExchange
    ) {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: streams(seen))
        let client = try HTTPTestConnection(port: loop.port, receiveBuffer: receiveBuffer)
        try client.sendRequest(method: "GET", path: "/events")
        try waitSeen(seen, count: 1, loop: loop)
        return (loop, client, try #require(seen.handles.first))
    }

    /// One event of about 1 kB: `data:` and 1000 `character`s.
    static func piece(_ character: Character) -> [UInt8] {
        Array("data: \(String(repeating: character, count: 1000))\n\n".utf8)
    }

    @Test func hundredConcurrentEventStreamsEachGetTheEvent() throws {
        let seen = Seen()
        // A hundred devices: each client from an address of its own (loopback answers all of 127/8).
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: Self.streams(seen))
        let clients = try (0..<100).map { try HTTPTestConnection(port: loop.port, source: "127.0.1.\($0 + 1)") }
        for client in clients { try client.sendRequest(method: "GET", path: "/events") }
        try Self.waitSeen(seen, count: 100, loop: loop)
        let handles = seen.handles
        let sent = try loop.sync { server in
            handles.allSatisfy { server.send(Array("event: ringing\ndata: {\"label\":\"Soft\"}\n\n".utf8), to: $0) }
        }
        #expect(sent)
        for client in clients {
            let head = try client.readHead(until: .now + .seconds(10))
            #expect(head.status == 200)
            #expect(head.header("content-type") == "text/event-stream")
            #expect(head.header("cache-control") == "no-store")
            let events = try client.events(until: .now + .seconds(10))
            #expect(events.map(\.event) == ["ringing"])
            #expect(events.map(\.data) == [#"{"label":"Soft"}"#])
        }
        #expect(loop.closed.isEmpty)
    }

    @Test func finishEndsTheStreamAfterWhatIsQueuedAndReportsItOnce() throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: Self.streams(seen))
        let client = try HTTPTestConnection(port: loop.port)
        try client.sendRequest(method: "GET", path: "/events")
        try Self.waitSeen(seen, count: 1, loop: loop)
        let exchange = try #require(seen.handles.first)
        let (first, second) = try loop.sync { server in
            let first = server.send(Array(": keepalive\n\ndata: one\n\n".utf8), to: exchange)
            server.finish(exchange)
            return (first, server.send(Array("data: late\n\n".utf8), to: exchange))
        }
        #expect(first)
        #expect(!second)
        let events = try client.events(until: .now + .seconds(10), count: 3)
        #expect(events.map(\.data) == ["", "one"])
        #expect(events.first?.comments == ["keepalive"])
        #expect(client.waitClosed(until: .now + .seconds(10)))
        try HTTPServerTests.expectClosed(exchange, in: loop)
        #expect(try loop.sync { $0.send(Array("data: gone\n\n".utf8), to: exchange) } == false)
    }

    @Test func streamOverTheBacklogLimitIsDropped() throws {
        // A client that never reads, with a small receive buffer: the bytes pile up in the server.
        let (loop, client, exchange) = try Self.oneStream(receiveBuffer: 4096)
        let piece = Self.piece("x")
        let deadline = ContinuousClock.now + .seconds(30)
        var accepted = true
        while accepted, ContinuousClock.now < deadline { accepted = try loop.sync { $0.send(piece, to: exchange) } }
        #expect(!accepted)
        try HTTPServerTests.expectClosed(exchange, in: loop)
        #expect(client.waitClosed(until: .now + .seconds(10)))
    }

    @Test func aSlowReaderGetsTheNewestPictureNotABacklogOfStaleOnes() throws {
        // A reader that takes nothing for a while, with a small receive buffer (a phone on a
        // slow link): 400 pictures of 1 kB, 400 kB, six times what a stream may hold unsent.
        let (loop, client, exchange) = try Self.oneStream(receiveBuffer: 4096)
        let padding = String(repeating: "x", count: 1000)
        let kept = 200  // carries what no later picture will (a timer's last state): never taken out
        let sent = try (1...400).allSatisfy { number in
            try loop.sync { server in
                server.send(
                    Array("data: \(number) \(padding)\n\n".utf8), to: exchange, superseding: true,
                    supersedable: number != kept)
            }
        }
        #expect(sent, "no picture made the stream drop")
        var numbers: [Int] = []
        try eventually("the newest picture read", deadline: .now + .seconds(30)) {
            for event in try client.events(until: .now + .milliseconds(100), count: 1) {
                numbers += event.data.split(separator: " ").first.flatMap { Int($0) }.map { [$0] } ?? []
            }
            return numbers.last == 400
        }
        #expect(numbers.contains(kept), "the kept picture was sent")
        // What the kernel took before the reader stalled (16 KiB unsent at most, the reader's
        // window: 21 here), then the kept one and the newest; without superseding, all 400.
        #expect(numbers == numbers.sorted() && numbers.count <= 40, "\(numbers.count) pictures: \(numbers)")
        #expect(loop.closed.isEmpty)
    }

    @Test func clientSendingAByteASecondIsDroppedAtTheDeadlineWhileAnotherIsAnswered() throws {
        let seen = Seen()
        let deadline = Duration.seconds(3)
        let loop = try ServerLoop(
            HTTPServerTests.settings { $0.connectionDeadline = deadline }, handler: Self.streams(seen))
        let slow = try HTTPTestConnection(port: loop.port)
        let began = ContinuousClock.now
        var sent = 0
        let head = Array(
            "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "z", count: 100))".utf8)
        var otherAnswered = false
        // One byte, then wait a second for the server to close (the wait is the pace).
        while sent < head.count, began.duration(to: .now) < deadline + .seconds(3), slow.send([head[sent]]) {
            sent += 1
            if sent == 2 {
                let other = try HTTPTestClient.request(path: "/other", port: loop.port, timeout: .seconds(5))
                otherAnswered = other.status == 200 && other.text == "ok"
            }
            if slow.waitClosed(until: .now + .seconds(1)) { break }
        }
        let closedAfter = began.duration(to: .now)
        #expect(otherAnswered)
        #expect(slow.isClosed || sent < head.count)
        #expect(closedAfter >= deadline - .milliseconds(100))
        #expect(closedAfter < deadline + .seconds(3))
        #expect(seen.requests.map(\.path) == ["/other"])
        // The server forgets the connection.
        let giveUp = ContinuousClock.now + .seconds(10)
        var open = -1
        while open != 0, ContinuousClock.now < giveUp { open = try loop.sync { $0.connections.count } }
        #expect(open == 0)
    }

    @Test func laterAnswerPastTheDeadlineIsDroppedAndReported() throws {
        let seen = Seen()
        let loop = try ServerLoop(
            HTTPServerTests.settings { $0.connectionDeadline = .milliseconds(500) }, handler: Self.streams(seen))
        let held = try HTTPTestConnection(port: loop.port)
        let stream = try HTTPTestConnection(port: loop.port)
        try held.sendRequest(method: "POST", path: "/later")
        try stream.sendRequest(method: "GET", path: "/events")
        try Self.waitSeen(seen, count: 2, loop: loop)
        let exchanges = seen.handles
        let heldExchange = try #require(zip(seen.requests, exchanges).first { $0.0.path == "/later" }?.1)
        let streamExchange = try #require(zip(seen.requests, exchanges).first { $0.0.path == "/events" }?.1)
        #expect(held.waitClosed(until: .now + .seconds(10)))
        try HTTPServerTests.expectClosed(heldExchange, in: loop)
        // The stream, once answered, is exempt: it still carries events well past the deadline.
        #expect(try loop.sync { $0.send(Array("data: still\n\n".utf8), to: streamExchange) })
        #expect(try stream.events(until: .now + .seconds(10)).map(\.data) == ["still"])
        #expect(!loop.closed.contains(streamExchange))
    }

    @Test func aConnectionOverTheLimitTakesTheOldestUnvouchedOnesPlace() throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings { $0.connectionLimit = 2 }, handler: Self.streams(seen))
        let keepAlive = [HTTPTestField("Connection", "keep-alive")]
        let first = try HTTPTestConnection(port: loop.port)
        let second = try HTTPTestConnection(port: loop.port)
        for client in [first, second] {
            try client.sendRequest(method: "GET", path: "/", headers: keepAlive)
            #expect(try client.readResponse(until: .now + .seconds(10)).status == 200)
        }
        // At the limit a third is let in and the oldest connection (none vouched) is closed.
        let third = try HTTPTestConnection(port: loop.port)
        try third.sendRequest(method: "GET", path: "/third")
        #expect(try third.readResponse(until: .now + .seconds(10)).status == 200)
        #expect(first.waitClosed(until: .now + .seconds(10)))
        second.readSome(until: .now)
        #expect(!second.isClosed)
        #expect(seen.requests.map(\.path) == ["/", "/", "/third"])
    }

    @Test func closeEndsEveryConnectionReportsHeldExchangesAndFreesThePort() throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: Self.streams(seen))
        let port = loop.port
        let held = try HTTPTestConnection(port: port)
        let stream = try HTTPTestConnection(port: port)
        let idle = try HTTPTestConnection(port: port)
        try held.sendRequest(method: "POST", path: "/later")
        try stream.sendRequest(method: "GET", path: "/events")
        try idle.sendRequest(method: "GET", path: "/", headers: [HTTPTestField("Connection", "keep-alive")])
        try Self.waitSeen(seen, count: 3, loop: loop)
        #expect(try idle.readResponse(until: .now + .seconds(10)).status == 200)
        #expect(try loop.sync { $0.connections.count } == 3)
        let left = try loop.sync { server in
            server.close()
            return [server.requests.count, server.connections.count, Int(server.pollDescriptor)]
        }
        #expect(left == [0, 0, -1])
        loop.stop()
        for client in [held, stream, idle] { #expect(client.waitClosed(until: .now + .seconds(10))) }
        let heldExchanges = Set(zip(seen.requests, seen.handles).filter { $0.0.path != "/" }.map(\.1))
        #expect(Set(loop.closed) == heldExchanges)
        #expect(loop.closed.count == 2)
        // The port is free again: a new server binds it.
        let again = try ServerLoop(HTTPServerTests.settings { $0.port = port }, handler: Self.streams(seen))
        #expect(try HTTPTestClient.request(path: "/", port: again.port).status == 200)
    }
}
