/// A whole response: status code, header fields and body.
///
/// The server adds `Content-Length` (and `Date`); the caller sets `Content-Type` and the security
/// headers. A plain value: any thread.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code (200, 204, 303, 400, 401, 403, 404, 405, 409, 413, 429, …).
    public var status: Int
    /// The header fields to send.
    public var headers: [HTTPHeader]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        (self.status, self.headers, self.body) = (status, headers, body)
    }
}

/// What a handler does with a request.
public enum HTTPReply: Sendable, Equatable {
    /// Answer now.
    case response(HTTPResponse)
    /// Answer later with ``HTTPServer/answer(_:with:)``: the connection is suspended meanwhile
    /// (it costs no polling); the server still drops it at its deadline.
    case later
    /// Start a Server-Sent Events stream (`200`, `text/event-stream`, these extra headers):
    /// bytes follow with ``HTTPServer/send(_:to:)`` until ``HTTPServer/finish(_:)`` or the
    /// client leaves. A stream has no total deadline.
    case events(headers: [HTTPHeader])
}

/// One request's exchange on the server: the handle a later answer or an event stream goes to.
///
/// Unique for the server's life.
public struct HTTPExchange: Hashable, Sendable {
    /// The number, from 1.
    public let id: UInt64

    /// Creates an exchange handle (the server makes them; tests may too).
    public init(id: UInt64) { self.id = id }
}
