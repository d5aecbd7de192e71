public import Glibc

/// A response as ``HTTPTestConnection`` read it.
///
/// The status, the header fields in order, and the body (de-chunked). A plain value.
public struct HTTPTestResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The header fields in order, names as sent.
    public var headers: [HTTPTestField]
    /// The body's bytes, after any chunked transfer coding was removed.
    public var body: [UInt8]

    /// The first field named `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every field named `name` (any case), in order (`Set-Cookie` may repeat).
    public func headers(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The body as UTF-8 text (invalid bytes repaired).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// One header field of a test request or response.
public struct HTTPTestField: Sendable, Equatable {
    /// The field name.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a field.
    public init(_ name: String, _ value: String) { (self.name, self.value) = (name, value) }
}

/// One Server-Sent Event as parsed from a stream.
///
/// The `event:` name (nil without one), the `data:` lines joined by newlines, and the comment lines (`: keepalive`, without the colon and
/// one space). A block of comments alone is reported too, with `event` nil and `data` empty, so a
/// test can see keepalives.
public struct SSEEvent: Sendable, Equatable {
    /// The `event:` field, or nil.
    public var event: String?
    /// The `data:` fields, joined with `\n`.
    public var data: String
    /// The comment lines of the block.
    public var comments: [String]

    /// Creates an event.
    public init(event: String?, data: String, comments: [String] = []) {
        (self.event, self.data, self.comments) = (event, data, comments)
    }
}

/// Plain HTTP/1.1 requests over loopback TCP for tests: one connection per request
/// (`Connection: close`), blocking with a deadline.
public enum HTTPTestClient {
    /// Sends one request and reads its whole response.
    /// - Parameters:
    ///   - method: `GET`, `POST`, ….
    ///   - path: The request target (`/api/timers`), as sent.
    ///   - headers: More fields; `Host` (`host:port`), `Content-Length` (with a body) and
    ///     `Connection: close` are added unless given.
    ///   - body: The body's bytes (none: no `Content-Length` for GET).
    ///   - host: The numeric address to connect to (`127.0.0.1`, `::1`).
    ///   - port: The TCP port.
    ///   - timeout: The longest the whole exchange may take.
    /// - Returns: The response.
    /// - Throws: ``TestFailure`` when the connection fails, closes before a whole response, or
    ///   the deadline passes. Blocks the calling thread; any thread.
    public static func request(
        method: String = "GET", path: String, headers: [HTTPTestField] = [], body: [UInt8] = [],
        host: String = "127.0.0.1", port: UInt16, timeout: Duration = .seconds(10)
    ) throws(TestFailure) -> HTTPTestResponse {
        let deadline = ContinuousClock.now + timeout
        let connection = try HTTPTestConnection(host: host, port: port)
        try connection.sendRequest(method: method, path: path, headers: headers, body: body, host: host)
        return try connection.readResponse(until: deadline)
    }
}

/// One TCP connection to a test server.
///
/// Sends bytes as they come (a slow client), reads a response or an event stream with bounded
/// waits. Close-on-exec from birth; closed at deinit.
///
/// Not thread-safe: one test thread owns it.
public final class HTTPTestConnection {
    /// The socket, or -1 once closed.
    public private(set) var descriptor: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false
    private var chunked = false
    private var bodyLeft: Int?  // Content-Length left of a non-chunked body; nil: to close
    private var chunkLeft = 0  // bytes of the current chunk still to come
    private var streamBytes: [UInt8] = []  // decoded event-stream bytes not yet parsed
    private var sentHEAD = false  // the last request sent was a HEAD: its answer has no body
    /// Opens `count` connections from `source`, each sending `line` (a request line it never
    /// finishes: an unpaired client sending slowly).
    /// - Throws: ``TestFailure`` when one cannot connect.
    /// - Returns: The connections, oldest first.
    public static func hold(
        _ count: Int, from source: String, port: UInt16, line: String = "GET / HTTP/1.1\r\n"
    ) throws(TestFailure) -> [HTTPTestConnection] {
        var held: [HTTPTestConnection] = []
        for _ in 0..<count {
            let connection = try HTTPTestConnection(port: port, source: source)
            connection.send(line)
            held.append(connection)
        }
        return held
    }

    /// The response head once ``readHead(until:)`` read it.
    public private(set) var head: HTTPTestResponse?
    /// The address the client's end was bound to (``init(host:port:receiveBuffer:source:)``).
    public let source: String?

    /// Connects (blocking; loopback answers at once).
    /// - Parameters:
    ///   - host: A numeric IPv4 or IPv6 address.
    ///   - port: The TCP port.
    ///   - receiveBuffer: `SO_RCVBUF` in bytes before connecting (a small one makes a client that
    ///     never reads fill up fast); nil: the kernel's default.
    ///   - source: A numeric IPv4 address to bind the client's end to before connecting
    ///     (`127.0.0.2`: loopback answers all of 127/8, so a test can be a second device); nil:
    ///     the kernel's choice.
    /// - Throws: ``TestFailure`` naming the address and the reason (`Connection refused`).
    public init(
        host: String = "127.0.0.1", port: UInt16, receiveBuffer: Int? = nil, source: String? = nil
    ) throws(TestFailure) {
        let isIPv6 = host.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        (descriptor, self.source) = (fd, source)
        if var size = receiveBuffer.map(Int32.init(clamping:)) {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard !isIPv6, inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
                throw TestFailure("bad source address \(source)")
            }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw TestFailure("bind to \(source): \(String(cString: strerror(errno)))") }
        }
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw TestFailure("bad address \(host)") }
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw TestFailure("bad address \(host)") }
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else { throw TestFailure("connect to \(host):\(port): \(String(cString: strerror(errno)))") }
    }

    deinit { close() }

    /// Closes the socket (once).
    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Sends `bytes` whole (blocking; no SIGPIPE).
    /// - Returns: false when the peer has gone (EPIPE, ECONNRESET) or the socket is closed.
    @discardableResult public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard descriptor >= 0 else { return false }
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends `text`'s UTF-8 bytes whole.
    @discardableResult public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends a request head (and body): `Host`, `Content-Length` and `Connection: close` added
    /// unless `headers` has them.
    ///
    /// The answer to a `HEAD` is then read as having no body.
    /// - Throws: ``TestFailure`` when the peer has gone.
    public func sendRequest(
        method: String, path: String, headers: [HTTPTestField] = [], body: [UInt8] = [], host: String = "127.0.0.1"
    ) throws(TestFailure) {
        func has(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name } }
        var text = "\(method) \(path) HTTP/1.1\r\n"
        sentHEAD = method == "HEAD"
        if !has("host") { text += "Host: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n" }
        if !has("content-length") && (!body.isEmpty || method == "POST") { text += "Content-Length: \(body.count)\r\n" }
        if !has("connection") { text += "Connection: close\r\n" }
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        guard send(Array(text.utf8) + body) else {
            throw TestFailure("\(method) \(path): the server closed the connection")
        }
    }

    /// The peer's port, for the `Host` field.
    private var port: UInt16 {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard result == 0 else { return 0 }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Reads once, waiting until `deadline` for bytes.
    /// - Returns: false at end of file (or reset) or once the deadline passed with nothing read.
    @discardableResult public func readSome(until deadline: ContinuousClock.Instant) -> Bool {
        guard descriptor >= 0, !atEnd else { return false }
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, pollTimeout(until: deadline))
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                atEnd = true
                return false
            }
            buffer += chunk[..<count]
            return true
        }
    }

    /// Waits until the server closes the connection (end of file or reset), discarding bytes.
    /// - Returns: Whether it closed before `deadline`.
    public func waitClosed(until deadline: ContinuousClock.Instant) -> Bool {
        while readSome(until: deadline) { buffer.removeAll() }
        return atEnd
    }

    /// Whether the server has closed the connection (seen by a read).
    public var isClosed: Bool { atEnd }

    /// How many bytes were read and not yet taken by a `read…` call (after ``readHead(until:)``:
    /// body bytes already here; a HEAD answer must leave none).
    public var bufferedBytes: Int { buffer.count }

    /// Reads the status line and header fields.
    /// - Returns: The head (with an empty body).
    /// - Throws: ``TestFailure`` on a close before the head, a malformed head, or the deadline.
    @discardableResult public func readHead(until deadline: ContinuousClock.Instant) throws(TestFailure)
        -> HTTPTestResponse
    {
        if let head { return head }
        let end: Int
        while true {
            if let found = Self.find([13, 10, 13, 10], in: buffer) {
                end = found
                break
            }
            guard readSome(until: deadline) else {
                throw TestFailure(atEnd ? "the server closed the connection before a response" : "no response in time")
            }
        }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).split(
            separator: "\r\n", omittingEmptySubsequences: false)
        buffer.removeFirst(end + 4)
        let statusWords = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/1."), let status = Int(statusWords[1]) else {
            throw TestFailure("malformed status line: \(lines.first ?? "")")
        }
        var fields: [HTTPTestField] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw TestFailure("malformed header line: \(line)") }
            fields.append(
                HTTPTestField(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        let response = HTTPTestResponse(status: status, headers: fields, body: [])
        chunked = response.header("transfer-encoding")?.lowercased().contains("chunked") ?? false
        bodyLeft = chunked ? nil : response.header("content-length").flatMap { Int($0) }
        if sentHEAD || status == 204 || status == 304 || (100..<200).contains(status) { bodyLeft = 0 }
        head = response
        return response
    }

    /// Reads a whole response: head, then the body by `Content-Length`, chunks, or to the close.
    /// - Throws: ``TestFailure`` on a close mid-response, a malformed response, or the deadline.
    public func readResponse(until deadline: ContinuousClock.Instant) throws(TestFailure) -> HTTPTestResponse {
        var response = try readHead(until: deadline)
        var body: [UInt8] = []
        while true {
            let (bytes, done) = try decodeBody()
            body += bytes
            if done { break }
            guard readSome(until: deadline) else {
                if atEnd && !chunked && bodyLeft == nil { break }
                throw TestFailure(atEnd ? "the server closed the connection mid-body" : "the body did not end in time")
            }
        }
        response.body = body
        return response
    }

    /// Takes the body bytes the buffer holds, de-chunked.
    /// - Returns: The bytes and whether the body is complete.
    private func decodeBody() throws(TestFailure) -> ([UInt8], Bool) {
        if !chunked {
            guard let left = bodyLeft else {
                defer { buffer.removeAll() }
                return (buffer, false)
            }
            let taken = Array(buffer.prefix(left))
            buffer.removeFirst(taken.count)
            bodyLeft = left - taken.count
            return (taken, bodyLeft == 0)
        }
        var out: [UInt8] = []
        while true {
            if chunkLeft > 0 {
                let taken = buffer.prefix(chunkLeft)
                out += taken
                buffer.removeFirst(taken.count)
                chunkLeft -= taken.count
                if chunkLeft > 0 { return (out, false) }
                chunkLeft = -2  // the CRLF after the chunk
            }
            if chunkLeft == -2 {
                guard buffer.count >= 2 else { return (out, false) }
                buffer.removeFirst(2)
                chunkLeft = 0
            }
            guard let lineEnd = Self.find([13, 10], in: buffer) else { return (out, false) }
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.filter { $0 != " " }, radix: 16), size >= 0 else {
                throw TestFailure("malformed chunk size: \(sizeText)")
            }
            buffer.removeFirst(lineEnd + 2)
            if size == 0 { return (out, true) }  // trailers are not read
            chunkLeft = size
        }
    }

    /// Reads Server-Sent Events (after the head, which it reads first) until `count` arrived, the
    /// stream ended, or `deadline`.
    /// - Parameters:
    ///   - deadline: When to stop waiting (`ContinuousClock`).
    ///   - count: How many events to wait for.
    /// - Returns: The events parsed (fewer than `count` when the stream ended or time ran out).
    /// - Throws: ``TestFailure`` when no head arrives or a chunk is malformed.
    public func events(until deadline: ContinuousClock.Instant, count: Int = 1) throws(TestFailure) -> [SSEEvent] {
        try readHead(until: deadline)
        var found: [SSEEvent] = []
        while true {
            let (bytes, done) = try decodeBody()
            streamBytes += bytes
            while found.count < count, let event = takeEvent() { found.append(event) }
            if found.count >= count || done { return found }
            guard readSome(until: deadline) else { return found }
        }
    }

    /// Parses one event block (up to a blank line) off the decoded stream bytes.
    private func takeEvent() -> SSEEvent? {
        guard let end = Self.find([10, 10], in: streamBytes) else { return nil }
        let block = String(decoding: streamBytes[..<end], as: UTF8.self)
        streamBytes.removeFirst(end + 2)
        var event = SSEEvent(event: nil, data: "")
        var data: [String] = []
        for line in block.split(separator: "\n") {
            if line.hasPrefix(":") {
                event.comments.append(String(line.dropFirst().drop { $0 == " " }))
                continue
            }
            let name = line.prefix { $0 != ":" }
            let value = String(line.dropFirst(name.count + 1).drop { $0 == " " })
            if name == "event" { event.event = value }
            if name == "data" { data.append(value) }
        }
        event.data = data.joined(separator: "\n")
        return event
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
