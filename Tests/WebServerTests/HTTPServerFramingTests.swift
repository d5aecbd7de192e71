import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// Issue 43 in the server: a body's length that two `Content-Length` fields give differently is
/// refused before any handler, and nothing after the head is read as a request.
@Suite struct HTTPServerFramingTests {
    @Test(arguments: [
        ([String](), false), (["2"], false), (["2", "2"], false), (["2", "02"], false), (["2", "12"], true),
        (["12", "2"], true), (["2", "2", "3"], true), (["2", "x"], true), (["2", ""], true),
    ])
    func contentLengthFieldsThatDifferAreRefused(lengths: [String], refused: Bool) {
        let headers = [HTTPHeader("host", "a:1")] + lengths.map { HTTPHeader("content-length", $0) }
        let refusal = HTTPServer.framingRefusal(headers)
        #expect((refusal != nil) == refused, "\(lengths)")
        if let refusal {
            #expect(refusal.status == 400)
            #expect(refusal.headers.contains(HTTPHeader("Connection", "close")), "the connection ends with it")
        }
    }

    /// Over the wire: the 400 comes before any handler, and the bytes after the first field's
    /// body are never read as a request.
    @Test func twoDifferingLengthsAre400AndNothingReachesTheHandler() throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: HTTPServerTests.echo(seen))
        let client = try HTTPTestConnection(port: loop.port)
        let hidden = "GET /hidden HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        #expect(
            client.send(
                "POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: \(2 + hidden.utf8.count)"
                    + "\r\n\r\n{}" + hidden))
        let response = try client.readResponse(until: .now + .seconds(10))
        #expect(response.status == 400 && response.text.contains("Content-Length"), "\(response.text)")
        #expect(client.waitClosed(until: .now + .seconds(10)))
        #expect(try loop.sync { _ in true })
        #expect(seen.requests.isEmpty, "\(seen.requests.map(\.path))")
    }
}
