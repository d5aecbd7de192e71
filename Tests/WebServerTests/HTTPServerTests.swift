import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// The server over real loopback sockets (run in the private network namespace).
@Suite struct HTTPServerTests {
    /// Settings on 127.0.0.1, any free port.
    static func settings(_ change: (inout HTTPServer.Settings) -> Void = { _ in }) -> HTTPServer.Settings {
        var settings = HTTPServer.Settings(address: "127.0.0.1", port: 0)
        // Loopback aliases play the devices of a LAN here.
        settings.loopbackIsOneAddress = false
        change(&settings)
        return settings
    }

    /// A handler that records what it saw and answers 200 with the body echoed back.
    static func echo(_ seen: Seen) -> @Sendable (HTTPRequest, HTTPExchange) -> HTTPReply {
        { request, exchange in
            seen.record(request, exchange)
            let text = "\(request.method) \(request.path) \(request.query ?? "-") "
            return .response(
                HTTPResponse(status: 200, headers: [HTTPHeader("X-Seen", "yes")], body: Array(text.utf8) + request.body)
            )
        }
    }

    @Test func getIsAnsweredWithTheHandlersResponse() throws {
        let seen = Seen()
        let loop = try ServerLoop(Self.settings(), handler: Self.echo(seen))
        let response = try HTTPTestClient.request(
            path: "/api/timers?x=%2F1", headers: [HTTPTestField("X-Custom", "Value")], port: loop.port)
        #expect(response.status == 200)
        #expect(response.header("x-seen") == "yes")
        #expect(response.text == "GET /api/timers x=%2F1 ")
        let request = try #require(seen.requests.first)
        #expect(request.header("x-custom") == "Value")
        #expect(request.headers.contains { $0.name == "host" })
        #expect(request.peer == "127.0.0.1")
        #expect(!request.isTLS)
    }

    @Test func pathStaysPercentEncoded() throws {
        let seen = Seen()
        let loop = try ServerLoop(Self.settings(), handler: Self.echo(seen))
        let response = try HTTPTestClient.request(
            method: "POST", path: "/api/timers/kitchen/Soft%2F2%20eggs/ack", port: loop.port)
        #expect(response.text == "POST /api/timers/kitchen/Soft%2F2%20eggs/ack - ")
    }

    @Test func postBodyReachesTheHandlerWhole() throws {
        let seen = Seen()
        let loop = try ServerLoop(Self.settings(), handler: Self.echo(seen))
        let body = Array(repeating: UInt8(ascii: "a"), count: 10_000) + Array(#"{"start":"soft"}"#.utf8)
        let response = try HTTPTestClient.request(
            method: "POST", path: "/api/timers", headers: [HTTPTestField("Content-Type", "application/json")],
            body: body, port: loop.port)
        #expect(response.status == 200)
        #expect(seen.requests.first?.body == body)
        #expect(response.body == Array("POST /api/timers - ".utf8) + body)
    }

    @Test func bodyOverTheLimitIs413AndNeverReachesTheHandler() throws {
        let seen = Seen()
        let loop = try ServerLoop(Self.settings { $0.bodyLimit = 1000 }, handler: Self.echo(seen))
        let fits = try HTTPTestClient.request(
            method: "POST", path: "/a", body: Array(repeating: 1, count: 1000), port: loop.port)
        #expect(fits.status == 200)
        let announced = try HTTPTestClient.request(
            method: "POST", path: "/b", body: Array(repeating: 1, count: 1001), port: loop.port)
        #expect(announced.status == 413)
        // A huge announced body is refused at its headers, before a byte of it is sent.
        let huge = try HTTPTestConnection(port: loop.port)
        huge.send("POST /huge HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n")
        #expect(try huge.readHead(until: .now + .seconds(10)).status == 413)
        // Chunked: no length announced, so the limit is found while reading.
        let connection = try HTTPTestConnection(port: loop.port)
        let chunk = Array(repeating: UInt8(ascii: "x"), count: 600)
        let head = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        let piece = Array("258\r\n".utf8) + chunk + Array("\r\n".utf8)
        connection.send(Array(head.utf8) + piece + piece + Array("0\r\n\r\n".utf8))
        let chunked = try connection.readResponse(until: .now + .seconds(10))
        #expect(chunked.status == 413)
        #expect(seen.requests.map(\.path) == ["/a"])
    }

    @Test func tooManyHeaderFieldsIs431() throws {
        let seen = Seen()
        let loop = try ServerLoop(Self.settings { $0.headerLimit = 10 }, handler: Self.echo(seen))
        // Host and Connection are added: 8 + 2 = 10 fields fit, 9 + 2 do not.
        let fits = (1...8).map { HTTPTestField("X-\($0)", "v") }
        #expect(try HTTPTestClient.request(path: "/fits", headers: fits, port: loop.port).status == 200)
        let over = (1...9).map { HTTPTestField("X-\($0)", "v") }
        #expect(try HTTPTestClient.request(path: "/over", headers: over, port: loop.port).status == 431)
        #expect(seen.requests.map(\.path) == ["/fits"])
    }

    @Test func anyAddressServesIPv6AndIPv4PeersByTheirPlainAddress() throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServer.Settings(address: "::", port: 0), handler: Self.echo(seen))
        #expect(try HTTPTestClient.request(path: "/six", host: "::1", port: loop.port).status == 200)
        #expect(try HTTPTestClient.request(path: "/four", host: "127.0.0.1", port: loop.port).status == 200)
        #expect(seen.requests.map(\.peer) == ["::1", "127.0.0.1"])
    }

    @Test func anyMethodReachesTheHandler() throws {
        let seen = Seen()
        let loop = try ServerLoop(Self.settings(), handler: Self.echo(seen))
        let response = try HTTPTestClient.request(method: "BREW", path: "/pot", port: loop.port)
        #expect(response.status == 200)
        #expect(response.text.hasPrefix("BREW /pot"))
    }

    @Test func laterIsAnsweredAfterTheHandlerReturned() throws {
        let seen = Seen()
        let loop = try ServerLoop(Self.settings()) { request, exchange in
            seen.record(request, exchange)
            return .later
        }
        let connection = try HTTPTestConnection(port: loop.port)
        try connection.sendRequest(method: "POST", path: "/api/timers", body: Array("{}".utf8))
        let deadline = ContinuousClock.now + .seconds(10)
        while seen.handles.isEmpty, ContinuousClock.now < deadline {
            connection.readSome(until: .now + .milliseconds(10))
        }
        let exchange = try #require(seen.handles.first)
        #expect(throws: TestFailure.self) { try connection.readHead(until: .now + .milliseconds(50)) }
        try loop.sync { $0.answer(exchange, with: HTTPResponse(status: 201, body: Array("made".utf8))) }
        let response = try connection.readResponse(until: .now + .seconds(10))
        #expect(response.status == 201)
        #expect(response.text == "made")
        try Self.expectClosed(exchange, in: loop)
    }

    /// Waits until `exchange` was reported by `takeClosed()`.
    static func expectClosed(_ exchange: HTTPExchange, in loop: ServerLoop) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !loop.closed.contains(exchange), ContinuousClock.now < deadline { _ = try loop.sync { _ in true } }
        #expect(loop.closed.filter { $0 == exchange }.count == 1)
    }

    @Test func missingLibraryIsOneClearError() {
        #expect(throws: HTTPServerError.self) {
            try HTTPServer(settings: Self.settings(), libraryName: "libmicrohttpd-missing.so.12") { _, _ in .later }
        }
        do {
            _ = try HTTPServer(settings: Self.settings(), libraryName: "libmicrohttpd-missing.so.12") { _, _ in .later }
        } catch {
            #expect(error.description.hasPrefix("libmicrohttpd-missing.so.12: "))
            #expect(error.description.contains("No such file"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func busyPortIsOneClearError() throws {
        let loop = try ServerLoop(Self.settings()) { _, _ in .later }
        do {
            _ = try HTTPServer(settings: Self.settings { $0.port = loop.port }, handler: { _, _ in .later })
            Issue.record("a second server bound the same port")
        } catch {
            #expect(error.description == "cannot listen on 127.0.0.1:\(loop.port): Address already in use")
        }
        #expect(throws: HTTPServerError(description: "not a numeric IP address: kitchen")) {
            try HTTPServer(settings: HTTPServer.Settings(address: "kitchen", port: 0)) { _, _ in .later }
        }
    }

    @Test(arguments: [
        HTTPServerTests.settings { $0.connectionDeadline = .zero },
        HTTPServerTests.settings { $0.connectionDeadline = .seconds(Int64.max) },
        HTTPServerTests.settings { $0.connectionLimit = 0 },
        HTTPServerTests.settings { $0.bodyLimit = -1 },
    ])
    func limitsOutOfRangeAreOneClearError(settings: HTTPServer.Settings) {
        #expect(
            throws: HTTPServerError(
                description: "the HTTP server's limits must be positive (the connection deadline at most a day)")
        ) { try HTTPServer(settings: settings) { _, _ in .later } }
    }

    @Test func socketsAreCloseOnExec() throws {
        let loop = try ServerLoop(Self.settings()) { _, _ in .later }
        let connection = try HTTPTestConnection(port: loop.port)
        try connection.sendRequest(method: "GET", path: "/")
        let deadline = ContinuousClock.now + .seconds(10)
        var descriptors: [Int32] = []
        while descriptors.isEmpty, ContinuousClock.now < deadline {
            descriptors = try loop.sync { server in
                server.connections.values.map(\.descriptor) + [server.pollDescriptor]
            }
            if descriptors.count < 2 { descriptors = [] }
        }
        #expect(descriptors.count == 2)
        for descriptor in descriptors { #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0) }
    }
}
