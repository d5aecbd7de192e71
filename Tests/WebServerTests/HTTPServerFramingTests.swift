import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// Issue 43 in the server: a request another parser could frame differently (two lengths, a
/// length and a coding, a coding but chunked, a folded or hidden line, a control character, a
/// repeated single field) is refused with 400 before any handler, its connection closed, and
/// nothing after its head is read as a request.
@Suite struct HTTPServerFramingTests {
    @Test(arguments: [
        ([String](), false), (["2"], false), (["2", "2"], false), (["2", "02"], false), (["2", "12"], true),
        (["12", "2"], true), (["2", "2", "3"], true), (["2", "x"], true), (["2", ""], true),
    ])
    func contentLengthFieldsThatDifferAreRefused(lengths: [String], refused: Bool) {
        let headers = [HTTPHeader("host", "a:1")] + lengths.map { HTTPHeader("content-length", $0) }
        let problem = HTTPServer.framingProblem(headers, version: "HTTP/1.1")
        #expect((problem != nil) == refused, "\(lengths)")
        #expect(problem == nil || problem == "Content-Length fields that differ")
    }

    @Test(
        arguments: [
            (["chunked"], "HTTP/1.1", nil), (["Chunked"], "HTTP/1.1", nil), (["CHUNKED"], "HTTP/1.1", nil),
            (["chunked"], "HTTP/1.0", "Transfer-Encoding in an HTTP/1.0 request"),
            (["gzip, chunked"], "HTTP/1.1", "a Transfer-Encoding other than one chunked"),
            (["chunked, chunked"], "HTTP/1.1", "a Transfer-Encoding other than one chunked"),
            (["chunked", "chunked"], "HTTP/1.1", "a Transfer-Encoding other than one chunked"),
            (["xchunked"], "HTTP/1.1", "a Transfer-Encoding other than one chunked"),
            (["identity"], "HTTP/1.1", "a Transfer-Encoding other than one chunked"),
            ([""], "HTTP/1.1", "a Transfer-Encoding other than one chunked"),
            (["chunked "], "HTTP/1.1", "a Transfer-Encoding other than one chunked"),
        ] as [([String], String, String?)])
    func transferEncodingIsOneChunkedOr400(codings: [String], version: String, problem: String?) {
        let headers = [HTTPHeader("host", "a:1")] + codings.map { HTTPHeader("transfer-encoding", $0) }
        #expect(HTTPServer.framingProblem(headers, version: version) == problem, "\(codings) \(version)")
        let withLength = headers + [HTTPHeader("content-length", "2")]
        #expect(
            HTTPServer.framingProblem(withLength, version: "HTTP/1.1") == "both Content-Length and Transfer-Encoding")
    }

    /// The one rule for single fields: any repeat of a listed name is refused, one value twice
    /// too, names compared without case; a name not listed may repeat.
    @Test func aRepeatedSingleFieldIsNamedWhateverItsCase() {
        let kitchen = HTTPServer.singleFields + ["X-CSRF-Token"]
        for name in kitchen {
            let once = [HTTPHeader("accept", "a"), HTTPHeader(name.lowercased(), "v"), HTTPHeader("accept", "b")]
            #expect(HTTPServer.repeatedField(in: once, among: kitchen) == nil, "\(name)")
            let twice = once + [HTTPHeader(name.uppercased(), "v")]
            #expect(HTTPServer.repeatedField(in: twice, among: kitchen) == "more than one \(name) header field")
        }
        // The server's own list leaves an application's fields to it.
        let csrfTwice = [HTTPHeader("x-csrf-token", "a"), HTTPHeader("x-csrf-token", "b")]
        #expect(HTTPServer.framingProblem(csrfTwice, version: "HTTP/1.1") == nil)
        #expect(
            HTTPServer.framingProblem(csrfTwice + csrfTwice.map { HTTPHeader("host", $0.value) }, version: "HTTP/1.1")
                == "more than one Host header field")
        // ASCII only: the Kelvin sign is not a k.
        let kelvin = [HTTPHeader("cookie", "a=1"), HTTPHeader("coo\u{212A}ie", "b=2")]
        #expect(HTTPServer.repeatedField(in: kelvin, among: ["Cookie"]) == nil)
    }

    /// The field lines libmicrohttpd leaves, in place, for a head with a request line of
    /// `requestLine` bytes and `fields` (name, what follows the colon before the value, value),
    /// CRLF line ends: the lines (the first at address 4096) and the head's size.
    static func parsed(_ fields: [(String, String, String)], requestLine: Int = 18) -> ([HTTPServer.FieldLine], Int) {
        var lines: [HTTPServer.FieldLine] = []
        var at = 4096
        for (name, gap, value) in fields {
            let valueAt = at + name.utf8.count + 1 + gap.utf8.count
            lines.append(
                .init(name: Array(name.utf8), value: Array(value.utf8), nameAddress: at, valueAddress: valueAt))
            at = valueAt + value.utf8.count + 2
        }
        return (lines, requestLine + (at - 4096) + 2)
    }

    static let malformed =
        "malformed header lines: each must be a name, a colon, a value and CRLF (no folded line, NUL, bare LF or empty name)"

    @Test func aHeadWhoseBytesAreAllInItsFieldsPasses() {
        let (lines, size) = Self.parsed([("Host", " ", "a"), ("X-A", "", "b"), ("X-B", " \t ", "c  "), ("X-C", "", "")])
        #expect(HTTPServer.headProblem(lines, requestLine: 18, size: size) == nil)
        #expect(HTTPServer.headProblem([], requestLine: 18, size: 20) == nil, "no fields: the request line and CRLF")
        let (odd, oddSize) = Self.parsed([("X-A", " ", "caf\u{E9}\t!~")])
        #expect(HTTPServer.headProblem(odd, requestLine: 18, size: oddSize) == nil, "tab and obs-text")
    }

    /// Each way libmicrohttpd 0.9.75 hides bytes shows as a head that does not add up.
    @Test func aHeadWithBytesOutsideItsFieldsIsMalformed() {
        let (lines, size) = Self.parsed([("Host", " ", "a"), ("X-A", " ", "a"), ("Content-Length", " ", "2")])
        // A NUL in X-A's value: `a\0b` reads `a`, and the next line starts two bytes later.
        var nul = lines
        nul[2].nameAddress += 2
        nul[2].valueAddress += 2
        #expect(HTTPServer.headProblem(nul, requestLine: 18, size: size + 2) == Self.malformed)
        // obs-fold: X-A's name moved elsewhere (and grew); its continuation line stays behind.
        var folded = lines
        folded[1].name = Array("X-Ab".utf8)
        folded[1].nameAddress = 4096 + 16_384
        #expect(HTTPServer.headProblem(folded, requestLine: 18, size: size + 4) == Self.malformed)
        // An empty name: the head ends at that line, after the last field the server sees.
        #expect(HTTPServer.headProblem(lines, requestLine: 18, size: size + 5) == Self.malformed)
        // A bare LF: a line one byte shorter.
        var bare = lines
        bare[2].nameAddress -= 1
        bare[2].valueAddress -= 1
        #expect(HTTPServer.headProblem(bare, requestLine: 18, size: size - 1) == Self.malformed)
        // A value that does not follow its name's colon.
        var behind = lines
        behind[0].valueAddress = behind[0].nameAddress + 4
        #expect(HTTPServer.headProblem(behind, requestLine: 18, size: size) == Self.malformed)
        // A NUL in the request line, and a head whose size libmicrohttpd does not tell.
        #expect(HTTPServer.headProblem(lines, requestLine: 18, size: size + 3) == Self.malformed)
        #expect(HTTPServer.headProblem([], requestLine: 18, size: 0) == Self.malformed)
        #expect(HTTPServer.headProblem(lines, requestLine: 18, size: size) == nil)
    }

    @Test(arguments: [
        ("Content-Length ", "2", "a field name that is not a token (whitespace before its colon?)"),
        ("X-A\t", "b", "a field name that is not a token (whitespace before its colon?)"),
        (" X-A", "b", "a field name that is not a token (whitespace before its colon?)"),
        ("X\u{1}A", "b", "a field name that is not a token (whitespace before its colon?)"),
        ("Coo\u{212A}ie", "b", "a field name that is not a token (whitespace before its colon?)"),
        ("X-A", "a\rb", "a control character in the value of X-A"),
        ("X-A", "a\u{1}b", "a control character in the value of X-A"),
        ("X-A", "a\u{1B}b", "a control character in the value of X-A"),
        ("X-A", "a\u{7F}b", "a control character in the value of X-A"),
        ("X-A", "a\nb", "a control character in the value of X-A"),
    ])
    func aNameThatIsNoTokenOrAControlCharacterInAValueIsRefused(name: String, value: String, problem: String) {
        let (lines, size) = Self.parsed([("Host", " ", "a"), (name, " ", value)])
        #expect(HTTPServer.headProblem(lines, requestLine: 18, size: size) == problem)
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

/// A request's bytes, named for the test's report.
struct RawRequest: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    var testDescription: String { name }

    /// `text` with `\0` and the like spelled as Swift escapes; `Host: 127.0.0.1` is the caller's.
    init(_ name: String, _ text: String) { (self.name, self.bytes) = (name, Array(text.utf8)) }

    /// `POST /a HTTP/1.1`, `Host`, then `fields` (each line as given, CRLF added) and `rest`
    /// (the blank line and any body).
    static func post(_ name: String, _ fields: [String], _ rest: String) -> RawRequest {
        RawRequest(name, "POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields.map { $0 + "\r\n" }.joined() + rest)
    }

    /// A chunked body of `{}` after the blank line.
    static let chunkedBody = "\r\n2\r\n{}\r\n0\r\n\r\n"
    /// A request that must never reach the handler when it follows a refused one.
    static let hidden = "GET /hidden HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
}

/// Issue 43, the request-smuggling shapes a tester found accepted: each is 400 and the
/// connection closed at once (never the 10 s deadline), before any handler.
extension HTTPServerFramingTests {
    static let refusedShapes: [RawRequest] = [
        // RFC 9112 §6.1: Content-Length with Transfer-Encoding, either order.
        .post(
            "Content-Length then Transfer-Encoding", ["Content-Length: 2", "Transfer-Encoding: chunked"],
            RawRequest.chunkedBody),
        .post(
            "Transfer-Encoding then Content-Length", ["Transfer-Encoding: chunked", "Content-Length: 2"],
            RawRequest.chunkedBody),
        // §6.1/§6.3: a coding other than one final `chunked`.
        .post("Transfer-Encoding: gzip, chunked", ["Transfer-Encoding: gzip, chunked"], RawRequest.chunkedBody),
        .post("Transfer-Encoding: chunked, chunked", ["Transfer-Encoding: chunked, chunked"], RawRequest.chunkedBody),
        .post("Transfer-Encoding: xchunked", ["Transfer-Encoding: xchunked"], RawRequest.chunkedBody),
        .post("Transfer-Encoding: identity", ["Transfer-Encoding: identity"], "\r\n{}"),
        .post("Transfer-Encoding: chunked, gzip", ["Transfer-Encoding: chunked, gzip"], RawRequest.chunkedBody),
        .post("Transfer-Encoding empty", ["Transfer-Encoding:"], "\r\n"),
        .post(
            "two Transfer-Encoding fields", ["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"],
            RawRequest.chunkedBody),
        .post(
            "Transfer-Encoding gzip then chunked", ["Transfer-Encoding: gzip", "Transfer-Encoding: chunked"],
            RawRequest.chunkedBody),
        RawRequest(
            "HTTP/1.0 with Transfer-Encoding",
            "POST /a HTTP/1.0\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n" + RawRequest.chunkedBody),
        // §5.1: whitespace between a field name and its colon.
        .post("space before the colon", ["Content-Length : 2"], "\r\n{}"),
        .post("tab before the colon", ["X-A\t: b", "Content-Length: 2"], "\r\n{}"),
        .post("space inside a name", ["X A: b", "Content-Length: 2"], "\r\n{}"),
        RawRequest(
            "a first field line starting with a space",
            "POST /a HTTP/1.1\r\n X-A: b\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"),
        .post("a control character in a name", ["X\u{1}A: b", "Content-Length: 2"], "\r\n{}"),
        // §5.2 and RFC 9110 §5.5: NUL, bare CR, other controls in a value; obs-fold.
        .post("NUL in a value", ["X-A: a\0b", "Content-Length: 2"], "\r\n{}"),
        .post("NUL in Content-Length", ["Content-Length: 2\0 0"], "\r\n{}"),
        .post("bare CR in a value", ["X-A: a\rb", "Content-Length: 2"], "\r\n{}"),
        .post("CR before CRLF", ["X-A: ab\r", "Content-Length: 2"], "\r\n{}"),
        .post("SOH in a value", ["X-A: a\u{1}b", "Content-Length: 2"], "\r\n{}"),
        .post("ESC in a value", ["X-A: a\u{1B}b", "Content-Length: 2"], "\r\n{}"),
        .post("DEL in a value", ["X-A: a\u{7F}b", "Content-Length: 2"], "\r\n{}"),
        .post("obs-fold", ["X-A: a", " b", "Content-Length: 2"], "\r\n{}"),
        .post("obs-fold with a tab", ["X-A: a", "\tb", "Content-Length: 2"], "\r\n{}"),
        .post("obs-fold of spaces only", ["X-A: a", "   ", "Content-Length: 2"], "\r\n{}"),
        .post("obs-fold of Content-Length's value", ["Content-Length:", " 2"], "\r\n{}"),
        .post("obs-fold making a Content-Length", ["Content-Len: 2", " gth"], "\r\n{}"),
        // libmicrohttpd ends the head at an empty name and reads what follows as a request.
        .post("an empty field name", [": x"], RawRequest.hidden),
        // RFC 9112 §2.2: a bare LF ends no line here (a recipient MAY accept it; we do not).
        RawRequest("bare LF line ends", "POST /a HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 2\n\n{}"),
        .post("a bare LF ending one field", ["X-A: a\nX-B: b", "Content-Length: 2"], "\r\n{}"),
        // RFC 9112 §3.2 and RFC 9110 §5.3: HTTP's single fields repeated, even with one value.
        .post("two Host fields", ["Host: 127.0.0.1", "Content-Length: 2"], "\r\n{}"),
        .post(
            "two Content-Type fields",
            ["Content-Type: application/json", "Content-Type: text/plain", "Content-Length: 2"], "\r\n{}"),
        .post(
            "two Origin fields", ["Origin: http://127.0.0.1", "Origin: http://127.0.0.1", "Content-Length: 2"], "\r\n{}"
        ),
        .post("two Cookie fields", ["Cookie: a=1", "cookie: b=2", "Content-Length: 2"], "\r\n{}"),
        // RFC 9112 §3.2: HTTP/1.1 without Host (libmicrohttpd's strict mode).
        RawRequest("HTTP/1.1 without Host", "POST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"),
        // RFC 9112 §3.2.2: an absolute-form target naming another authority than Host.
        RawRequest(
            "an absolute-form target for another host",
            "POST http://evil.example/a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"),
    ]

    /// Each shape, with a request behind it on the same connection: 400, then the close, in
    /// well under the 10 s deadline, and no handler call (for either).
    @Test(arguments: refusedShapes)
    func aSmugglingShapeIs400AndClosedAtOnce(_ shape: RawRequest) throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: HTTPServerTests.echo(seen))
        let client = try HTTPTestConnection(port: loop.port)
        let started = ContinuousClock.now
        #expect(client.send(shape.bytes + Array(RawRequest.hidden.utf8)))
        let response = try client.readResponse(until: started + .seconds(3))
        #expect(response.status == 400, "\(response.status) \(response.text)")
        #expect(client.waitClosed(until: started + .seconds(3)), "the connection stayed open")
        #expect(started.duration(to: .now) < .seconds(3))
        #expect(try loop.sync { _ in true })
        #expect(seen.requests.isEmpty, "\(seen.requests.map(\.path))")
    }

    /// Over TLS libmicrohttpd parses the decrypted head in place the same way: a folded line is
    /// refused there too, and a correct request passes.
    @Test(.enabled(if: OpenSSLTLS.isInstalled, "openssl (Debian openssl, TEST_PACKAGES) is not installed"))
    func aFoldedLineOverTLSIs400() throws {
        let directory = makePrivateDirectory("eggtimer-tls-framing")
        defer { removeDirectory(directory) }
        let tls = try HTTPServerTLSTests.certificate(in: directory)
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings { $0.tls = tls }, handler: HTTPServerTests.echo(seen))
        let head = "GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        let (_, folded, log) = try OpenSSLTLS.exchange(head + "X-A: a\r\n b\r\n\r\n", port: loop.port, in: directory)
        #expect(folded.hasPrefix("HTTP/1.1 400"), "\(folded) \(log)")
        #expect(folded.contains("malformed header lines"), "\(folded)")
        let (_, plain, _) = try OpenSSLTLS.exchange(head + "X-A: a b\r\n\r\n", port: loop.port, in: directory)
        #expect(plain.hasPrefix("HTTP/1.1 200"), "\(plain)")
        #expect(seen.requests.map(\.path) == ["/a"])
    }

    static let acceptedShapes: [RawRequest] = [
        .post("Content-Length", ["Content-Length: 2"], "\r\n{}"),
        .post("chunked", ["Transfer-Encoding: chunked"], RawRequest.chunkedBody),
        .post(
            "Chunked in capitals (codings are case-insensitive)", ["Transfer-Encoding: CHUNKED"], RawRequest.chunkedBody
        ),
        .post("one Content-Length repeated", ["Content-Length: 2", "Content-Length: 2"], "\r\n{}"),
        .post(
            "no space, spaces and tabs around values",
            ["X-A:a", "X-B:   b  ", "X-C:\tc\t", "X-D:", "X-E: ", "Content-Length:2"], "\r\n{}"),
        .post(
            "tab, obs-text and a colon inside a value",
            ["X-A: a\tb", "X-B: caf\u{E9}", "X-C: a:b", "Content-Length: 2"], "\r\n{}"),
        .post(
            "many long fields",
            (1...60).map { "X-Field-\($0): " + String(repeating: "v", count: 200) } + ["Content-Length: 2"], "\r\n{}"),
        RawRequest("HTTP/1.0 without Host", "POST /a HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}"),
        RawRequest(
            "a percent-encoded target with a query",
            "POST /a%20b?c=%41&d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"),
        RawRequest(
            "an absolute-form target (RFC 9112 §3.2.2)",
            "POST HTTP://127.0.0.1:80/a?b HTTP/1.1\r\nHost: 127.0.0.1:80\r\nContent-Length: 2\r\n\r\n{}"),
    ]

    /// Correct requests still reach the handler, body whole; twice pipelined on one kept-alive
    /// connection (the second head read from behind the first request's bytes).
    @Test(arguments: acceptedShapes)
    func aCorrectRequestIsHandled(_ shape: RawRequest) throws {
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings(), handler: HTTPServerTests.echo(seen))
        let client = try HTTPTestConnection(port: loop.port)
        let rounds = shape.bytes.starts(with: Array("POST /a HTTP/1.0".utf8)) ? 1 : 2
        #expect(client.send(Array([[UInt8]](repeating: shape.bytes, count: rounds).joined())))
        let response = try client.readResponse(until: .now + .seconds(10))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.text.hasSuffix(" {}"), "\(response.text)")
        // The second answer is not read as a response (one per test connection): its bytes are
        // drained while the handler's count is looked at.
        let drain = { (until: ContinuousClock.Instant) in _ = client.readSome(until: until) }
        try eventually(
            "\(rounds) requests handled", deadline: .now + .seconds(10), meanwhile: drain,
            { seen.requests.count >= rounds })
        #expect(seen.requests.count == rounds)
        #expect(seen.requests.allSatisfy { $0.body == Array("{}".utf8) })
        #expect(seen.requests.allSatisfy { $0.path.hasPrefix("/a") }, "\(seen.requests.map(\.path))")
    }

    /// RFC 9112 §3.2.2's absolute form reaches the handlers as origin form; its authority must
    /// be the Host field's.
    @Test(
        arguments: [
            ("/a?b", "h", "/a?b", nil), ("*", "h", "*", nil), ("http://h/a?b", "h", "/a?b", nil),
            ("HTTPS://H:8443", "h:8443", "/", nil), ("http://h?x=1", "h", "/?x=1", nil), ("http://h/", "H", "/", nil),
            ("http://evil/a", "h", "http://evil/a", "a request target whose authority is not the Host header field"),
            ("http://h/a", nil, "http://h/a", "a request target whose authority is not the Host header field"),
            ("ftp://h/a", "h", "ftp://h/a", nil),
        ] as [(String, String?, String, String?)])
    func anAbsoluteFormTargetIsReadInOriginForm(target: String, host: String?, path: String, problem: String?) {
        let form = HTTPServer.originForm(of: target, host: host)
        #expect(form.target == path)
        #expect(form.problem == problem)
    }
}
