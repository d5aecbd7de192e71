import CMicrohttpd
import Glibc

// The framing rule (issue 43). A request that another HTTP parser could read differently (a proxy
// in front, a front end that shares the connection) is refused with 400 and its connection closed
// before any handler sees it, so nothing behind it on the connection is ever read as a request:
// RFC 9112 §6.3 (item 5), §6.1, §5.1, §5.2, §2.2, §3.2; RFC 9110 §5.5.
//
// What libmicrohttpd 0.9.75 does itself, measured with raw sockets:
// - With `MHD_OPTION_STRICT_FOR_CLIENT` 1 (``HTTPServer/strictness``) it refuses an HTTP/1.1
//   request without `Host` (400, connection closed) and closes one whose target holds a space.
//   At any strictness it refuses a line without a colon, a NUL in a name, a `Content-Length` it
//   cannot read as one decimal number (`2, 2`, `+2`) and HTTP/0.9 (400), and major versions
//   other than 1 (505).
// - Whitespace before a colon is refused only at strictness -1 (0.9.75 tests `-1 >=`, the option's
//   sign turned round; -1 also drops the `Host` rule): here a name with whitespace is checked in
//   Swift instead.
// - It accepts, and shows no trace of in the fields it gives: a NUL in a value (the value ends
//   there), obs-fold (the folded text is appended to the field's *name*, in memory of its own), a
//   line with an empty name (the head ends there and the lines after it are read as the next
//   request: a request hidden inside one), bare LF line ends. These are found by accounting for
//   the head's bytes (``headProblem(_:requestLine:size:)``).
// - It accepts control characters and bare CR in values, `Content-Length` with
//   `Transfer-Encoding`, any `Transfer-Encoding` value (for one that is not `chunked` it reads the
//   body until the client closes: such a request hung until the connection deadline), repeated
//   `Host` and other single fields: checked on the fields (``framingProblem(_:version:)``).
extension HTTPServer {
    /// libmicrohttpd's `MHD_OPTION_STRICT_FOR_CLIENT`: 1, strict (`Host` required in HTTP/1.1,
    /// no space in the request target).
    static let strictness = 1

    /// HTTP's own fields that a request may carry at most once, as written in refusals.
    ///
    /// `Host` (RFC 9112 §3.2: more than one is a 400), `Content-Type` (RFC 9110 §8.3, a singleton),
    /// `Origin` (RFC 6454 §7.3: a user agent sends one), `Cookie` (RFC 6265 §5.4: a user agent
    /// sends one over HTTP/1.1; HTTP/2's split cookies are joined into one before they reach HTTP/1.1).
    /// `Content-Length` has its own rule (one value, which may repeat).
    public static let singleFields = ["Host", "Content-Type", "Origin", "Cookie"]

    /// The one rule for fields that must be single: why `headers` are refused when they carry one
    /// of `names` more than once, even with one value twice; nil when none repeats.
    ///
    /// The server applies it to ``singleFields`` before any handler; an application applies it
    /// to those and its own single fields (the kitchen's request guard: `X-CSRF-Token`,
    /// `Idempotency-Key`), so no repeat is read first-wins anywhere. Names compare ASCII
    /// case-insensitively. Pure; any thread.
    /// - Parameters:
    ///   - headers: A request's fields.
    ///   - names: The names that must be single, as the refusal writes them.
    /// - Returns: `more than one Host header field`, naming the first of `names` that repeats; or nil.
    /// - Complexity: O(`headers` × `names`).
    public static func repeatedField(in headers: [HTTPHeader], among names: [String]) -> String? {
        for name in names {
            let wanted = asciiLowercased(name)
            if headers.lazy.filter({ asciiLowercased($0.name) == wanted }).count > 1 {
                return "more than one \(name) header field"
            }
        }
        return nil
    }

    /// One field line as libmicrohttpd left it after parsing the head in place in its read buffer.
    struct FieldLine: Equatable {
        /// The name's bytes, up to the NUL libmicrohttpd wrote over the colon (or an earlier NUL).
        var name: [UInt8]
        /// The value's bytes, after the whitespace that followed the colon, up to the first NUL.
        var value: [UInt8]
        /// Where the name starts: an address, only ever compared with the other lines'.
        var nameAddress: Int
        /// Where the value starts: an address, as ``nameAddress``.
        var valueAddress: Int
    }

    /// The 400 that ends `request` at its head when its framing is not one; nil when it is.
    ///
    /// Called from the access handler's first call, before any handler; the response carries
    /// `Connection: close`, so libmicrohttpd closes the connection after it and reads nothing
    /// more from it. Server thread.
    /// - Parameter request: A request whose head just came in (``Request/headers`` set).
    /// - Returns: The refusal, or nil. C: `MHD_get_connection_values`, `MHD_get_connection_info`.
    func framingRefusal(_ request: Request) -> HTTPResponse? {
        let size = CMicrohttpd_connection_header_size(library.connectionInfo, request.connection)
        let requestLine = [request.method, request.target, request.version].map(\.utf8.count).reduce(4, +)
        let host = request.headers.first { $0.name == "host" }?.value
        let target = Self.originForm(of: request.target, host: host)
        guard
            let problem = Self.headProblem(fieldLines(request.connection), requestLine: requestLine, size: size)
                ?? Self.framingProblem(request.headers, version: request.version) ?? target.problem
        else {
            request.target = target.target
            return nil
        }
        var refusal = Self.refusal(400, problem)
        refusal.headers.append(HTTPHeader("Connection", "close"))
        return refusal
    }

    /// A request target in origin form (`/path?query`), as every handler reads it.
    ///
    /// RFC 9112 §3.2.2: a server must accept the absolute form (`http://host:port/path?query`,
    /// the scheme in any case), which a client sends through a proxy; its path and query are the
    /// target (no path: `/`). Its authority must be the `Host` field (ASCII case-insensitively),
    /// which a proxy always sends alike: the RFC has the authority win, but the handlers' checks
    /// read `Host`, so two that differ are refused rather than one of them ignored. Any other
    /// form (origin form, `*`, a CONNECT's authority form) is left as it is. Pure.
    /// - Parameters:
    ///   - target: The request target as sent.
    ///   - host: The `Host` field's value, if any.
    /// - Returns: The target in origin form, or the problem in one line (a 400).
    static func originForm(of target: String, host: String?) -> (target: String, problem: String?) {
        let lowered = asciiLowercased(target)
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else { return (target, nil) }
        let rest = target.utf8.dropFirst(scheme.utf8.count)
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = String(decoding: rest[..<end], as: UTF8.self)
        let tail = String(decoding: rest[end...], as: UTF8.self)
        let path = tail.hasPrefix("/") ? tail : "/" + tail
        guard let host, asciiLowercased(authority) == asciiLowercased(host) else {
            return (target, "a request target whose authority is not the Host header field")
        }
        return (path, nil)
    }

    /// Why a head is refused, from its bytes as libmicrohttpd parsed them; nil when every byte is
    /// in a field the server sees and every field is well formed.
    ///
    /// libmicrohttpd 0.9.75 parses the head in place: each line's end (CRLF, or a bare LF) and
    /// each colon become NULs, and a field's name and value are pointers into those bytes. So a
    /// head is exactly: the request line and CRLF (`requestLine` bytes), each field line in order
    /// with nothing between (name, colon, the whitespace it skipped, value, CRLF), then CRLF; and
    /// `size` (`MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`) must be that sum. It is not when the
    /// parse left bytes out of the fields: a NUL in a value (the rest of the value), obs-fold (the
    /// name moved to memory of its own, the continuation line left behind), a line with an empty
    /// name, a bare LF (one byte short), anything else a later version might drop. Only
    /// addresses are compared; no byte outside the strings libmicrohttpd gives is read. A library
    /// that copied the strings elsewhere would fail this for every request with fields, a loud
    /// failure rather than a silent pass. What remains unseen: a NUL as the very last byte of a
    /// value before a bare LF (`a` NUL LF leaves two bytes after the value, as CRLF does).
    ///
    /// Then each name must be a token (RFC 9110 §5.6.2: whitespace before the colon is not,
    /// RFC 9112 §5.1), each value field content (RFC 9110 §5.5: no control character but
    /// horizontal tab; bytes from 0x80 are opaque data). Pure.
    /// - Parameters:
    ///   - lines: The field lines in the order libmicrohttpd gives them (the head's order).
    ///   - requestLine: The request line's length in bytes with its CRLF (method, target and
    ///     version as libmicrohttpd gave them, two spaces, CRLF).
    ///   - size: The head's length in bytes as libmicrohttpd counted it; 0 when unknown (refused).
    /// - Returns: The problem in one line, or nil.
    /// - Complexity: O(bytes of the fields).
    static func headProblem(_ lines: [FieldLine], requestLine: Int, size: Int) -> String? {
        let malformed =
            "malformed header lines: each must be a name, a colon, a value and CRLF "
            + "(no folded line, NUL, bare LF or empty name)"
        let start = lines.first?.nameAddress ?? 0
        var end = start
        for line in lines {
            guard line.nameAddress == end, line.valueAddress &- line.nameAddress > line.name.count else {
                return malformed
            }
            end = line.valueAddress &+ line.value.count &+ 2
        }
        guard size > 0, end &- start == size - requestLine - 2 else { return malformed }
        for line in lines {
            guard !line.name.isEmpty, line.name.allSatisfy(isTokenByte) else {
                return "a field name that is not a token (whitespace before its colon?)"
            }
            guard line.value.allSatisfy(isFieldContentByte) else {
                return "a control character in the value of \(String(decoding: line.name, as: UTF8.self))"
            }
        }
        return nil
    }

    /// Why a request's fields do not frame one body, or repeat a single field; nil when they are
    /// one framing.
    ///
    /// - `Transfer-Encoding` with `Content-Length` is refused (RFC 9112 §6.1 lets a server
    ///   refuse it; an intermediary could frame by either).
    /// - `Transfer-Encoding` is accepted only as one field whose value is `chunked` (any case:
    ///   RFC 9112 §7); anything else is 400, never 501 (one rule: the body's end cannot be known,
    ///   RFC 9112 §6.3 item 4), and so is any `Transfer-Encoding` in an HTTP/1.0 request (§6.1).
    /// - `Content-Length` fields that differ are refused (§6.3 item 5). libmicrohttpd 0.9.75
    ///   frames the body by the first and ignores the others, so `2` then `12` read a 2-byte body
    ///   and the rest as the next request, where a proxy that took the other saw one request.
    ///   Fields that repeat one decimal value (`2` and `2`, `2` and `02`) frame the same body
    ///   whichever is read, and RFC 9110 §8.6 lets a recipient take such a repeat as the one
    ///   value: accepted. A list in one field (`2, 2`) is refused by libmicrohttpd itself.
    /// - A repeat of one of ``singleFields`` (``repeatedField(in:among:)``).
    ///
    /// Pure.
    /// - Parameters:
    ///   - headers: The request's fields, names lower-cased.
    ///   - version: The request line's version (`HTTP/1.1`).
    /// - Returns: The problem in one line, or nil.
    static func framingProblem(_ headers: [HTTPHeader], version: String) -> String? {
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        let codings = headers.filter { $0.name == "transfer-encoding" }.map(\.value)
        if !codings.isEmpty {
            if !lengths.isEmpty { return "both Content-Length and Transfer-Encoding" }
            if version == "HTTP/1.0" { return "Transfer-Encoding in an HTTP/1.0 request" }
            guard codings.count == 1, asciiLowercased(codings[0]) == "chunked" else {
                return "a Transfer-Encoding other than one chunked"
            }
        }
        if lengths.count > 1 {
            let decimal = { (value: String) -> UInt64? in
                value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? UInt64(value) : nil
            }
            let values = lengths.map(decimal)
            if values.contains(nil) || Set(values).count > 1 { return "Content-Length fields that differ" }
        }
        return repeatedField(in: headers, among: singleFields)
    }

    /// The field lines of the request on `connection`, as libmicrohttpd parsed them.
    ///
    /// C: `MHD_get_connection_values`.
    private func fieldLines(_ connection: OpaquePointer) -> [FieldLine] {
        let iterator: MHD_KeyValueIterator = { slot, _, key, value in
            guard let slot, let key else { return .YES }
            let name = UnsafeRawBufferPointer(start: key, count: strlen(key))
            let bytes = value.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            slot.assumingMemoryBound(to: [FieldLine].self).pointee.append(
                FieldLine(
                    name: Array(name), value: bytes ?? [], nameAddress: Int(bitPattern: key),
                    valueAddress: value.map { Int(bitPattern: $0) } ?? Int.min))
            return .YES
        }
        var lines: [FieldLine] = []
        _ = withUnsafeMutablePointer(to: &lines) { library.connectionValues(connection, .HEADER_KIND, iterator, $0) }
        return lines
    }

    /// Whether `byte` may be in a field name: RFC 9110 §5.6.2's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Whether `byte` may be in a field value: RFC 9110 §5.5's field content (visible ASCII,
    /// space, horizontal tab, and obs-text from 0x80).
    private static func isFieldContentByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
    }

    /// `text` with ASCII letters lower-cased, nothing else changed (field names compare so:
    /// Unicode lower-casing would make the Kelvin sign a `k`).
    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
