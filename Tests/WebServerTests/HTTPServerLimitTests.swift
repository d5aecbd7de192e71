import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// The server's own limits and refusals over real loopback sockets (issue 29): JSON refusals,
/// HEAD answered without a body (the connection budgets: ``HTTPServerBudgetTests``).
@Suite struct HTTPServerLimitTests {
    @Test(arguments: [0, -1, Int.min])
    func aPerAddressLimitOutOfRangeIsOneClearError(limit: Int) {
        let settings = HTTPServerTests.settings {
            $0.connectionLimit = 6
            $0.perAddressLimit = limit
        }
        #expect(
            throws: HTTPServerError(
                description: HTTPServerBudgetTests.limitsError)
        ) { try HTTPServer(settings: settings) { _, _ in .later } }
    }

    /// The API's fields on a refusal of the server's own.
    static func expectJSONRefusal(_ response: HTTPTestResponse, _ status: Int, _ text: String) {
        #expect(response.status == status)
        #expect(response.text == #"{"error":"\#(text)"}"#)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
    }

    @Test func bodyAndHeaderRefusalsAreJSONWithTheAPIsFields() throws {
        let seen = Seen()
        let loop = try ServerLoop(
            HTTPServerTests.settings {
                $0.bodyLimit = 100
                $0.headerLimit = 10
            }, handler: HTTPServerTests.echo(seen))
        let announced = try HTTPTestClient.request(
            method: "POST", path: "/b", body: Array(repeating: 1, count: 101), port: loop.port)
        Self.expectJSONRefusal(announced, 413, "body too large (at most 100 bytes)")
        // Chunked: found while reading.
        let connection = try HTTPTestConnection(port: loop.port)
        let head = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        connection.send(
            head + "40\r\n" + String(repeating: "x", count: 64) + "\r\n" + "40\r\n"
                + String(repeating: "y", count: 64) + "\r\n0\r\n\r\n")
        Self.expectJSONRefusal(
            try connection.readResponse(until: .now + .seconds(10)), 413, "body too large (at most 100 bytes)")
        let over = (1...9).map { HTTPTestField("X-\($0)", "v") }
        let fields = try HTTPTestClient.request(path: "/over", headers: over, port: loop.port)
        Self.expectJSONRefusal(fields, 431, "too many header fields (at most 10)")
        #expect(seen.requests.isEmpty)
    }

    @Test(arguments: [("hi", #"hi"#), (#"a "b" \c"#, #"a \"b\" \\c"#), ("line\nbreak", "linebreak")])
    func aRefusalsTextIsEscaped(text: String, escaped: String) {
        let response = HTTPServer.refusal(503, text)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":""# + escaped + #""}"#)
        #expect(response.headers == HTTPServer.refusalHeaders)
    }

    @Test func headIsAnsweredWithTheGetsHeadAndNoBody() throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: HTTPServerTests.echo(seen))
        let connection = try HTTPTestConnection(port: loop.port)
        try connection.sendRequest(method: "HEAD", path: "/page")
        let head = try connection.readHead(until: .now + .seconds(10))
        #expect(head.status == 200)
        #expect(head.header("X-Seen") == "yes")
        // The handler's body ("HEAD /page - ", 13 bytes) is counted, not sent.
        #expect(head.header("Content-Length") == "13")
        #expect(connection.bufferedBytes == 0)
        #expect(!connection.readSome(until: .now + .seconds(10)), "a body came after the head")
        #expect(connection.isClosed)
        #expect(seen.requests.map(\.method) == ["HEAD"])
    }
}
