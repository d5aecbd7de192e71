/// One complete HTTP/1.1 request as the server read it: method, target, headers and body.
///
/// Made by ``HTTPServer`` once the whole body arrived (bounded by
/// ``HTTPServer/Settings/bodyLimit``); the bytes are as the client sent them, nothing decoded
/// but the header names (lower-cased). A plain value: any thread.
public struct HTTPRequest: Sendable, Equatable {
    /// The method as sent (`GET`, `POST`, …).
    public var method: String
    /// The request target's path, still percent-encoded, without the query (`/api/timers`).
    public var path: String
    /// The query after `?`, still percent-encoded; nil without one.
    public var query: String?
    /// The header fields in order, names lower-cased (`host`, `origin`, `cookie`, …).
    public var headers: [HTTPHeader]
    /// The body's bytes (empty for none).
    public var body: [UInt8]
    /// The peer's numeric address (`127.0.0.1`, `::1`), for the log and rate limits.
    public var peer: String
    /// Whether the connection is TLS.
    public var isTLS: Bool

    /// Creates a request.
    public init(
        method: String, path: String, query: String? = nil, headers: [HTTPHeader] = [], body: [UInt8] = [],
        peer: String = "127.0.0.1", isTLS: Bool = false
    ) {
        (self.method, self.path, self.query, self.headers) = (method, path, query, headers)
        (self.body, self.peer, self.isTLS) = (body, peer, isTLS)
    }

    /// The first field named `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }
}

/// One header field: its name (lower-cased in a request) and value.
public struct HTTPHeader: Sendable, Equatable {
    /// The field name.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a field.
    public init(_ name: String, _ value: String) { (self.name, self.value) = (name, value) }
}
