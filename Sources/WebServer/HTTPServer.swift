/// An HTTP/1.1 server on libmicrohttpd (loaded with dlopen) in its external-poll mode, driven by
/// the caller's event loop: no thread of its own, no thread per connection.
///
/// The caller polls ``pollDescriptor`` (libmicrohttpd's epoll descriptor, `POLLIN`) and looks
/// again at ``nextCheck(now:)``, then calls ``run(now:)``; inside it, the handler is called on
/// the caller's thread once per complete request. The server enforces the ``Settings`` limits
/// (body size, header count, connections, a total deadline per connection counted from its
/// accept: libmicrohttpd's own timeout counts only idle time) by shutting the socket.
/// Owned by one thread (the loop's); not thread-safe.
public final class HTTPServer {
    /// The limits and the address.
    public struct Settings: Sendable, Equatable {
        /// The numeric address to listen on (`127.0.0.1`, `0.0.0.0`, `::`).
        public var address: String
        /// The TCP port (0: any free one; ``port`` tells which).
        public var port: UInt16
        /// The largest body accepted, in bytes; a longer one is answered 413.
        public var bodyLimit: Int = 16 * 1024
        /// The most header fields accepted; more is answered 431.
        public var headerLimit: Int = 64
        /// The most connections open at once (event streams included).
        public var connectionLimit: Int = 256
        /// The longest a connection may take from its accept to its response's last byte (event
        /// streams once they started are exempt).
        public var connectionDeadline: Duration = .seconds(10)
        /// TLS: the certificate chain and the private key; nil for plain HTTP.
        public var tls: TLS?

        /// Creates settings with the default limits.
        public init(address: String, port: UInt16) { (self.address, self.port) = (address, port) }
    }

    /// A certificate chain and its private key, PEM text (read by the caller from the files).
    public struct TLS: Sendable, Equatable {
        /// The certificate chain, PEM.
        public var certificate: String
        /// The private key, PEM.
        public var key: String

        /// Creates a pair.
        public init(certificate: String, key: String) { (self.certificate, self.key) = (certificate, key) }
    }

    /// Called once per complete request, on the thread that calls ``run(now:)``.
    public typealias Handler = (HTTPRequest, HTTPExchange) -> HTTPReply

    /// Starts listening.
    /// - Parameters:
    ///   - settings: The address and limits.
    ///   - handler: The request handler.
    /// - Throws: ``HTTPServerError``: the library is missing, TLS is asked for and it has none,
    ///   or the address cannot be bound (the reason in one line).
    public init(settings: Settings, handler: @escaping Handler) throws(HTTPServerError) {
        throw HTTPServerError(description: "libmicrohttpd: not built yet")
    }

    /// The bound port.
    public var port: UInt16 { 0 }
    /// The descriptor to poll for `POLLIN`.
    public var pollDescriptor: Int32 { -1 }
    /// When ``run(now:)`` must be called even if nothing is ready (boot clock); nil: only then.
    public func nextCheck(now: ContinuousClock.Instant) -> ContinuousClock.Instant? { nil }
    /// Does the ready work: accepts, reads, calls the handler, writes, drops connections past
    /// their deadline. Never blocks.
    public func run(now: ContinuousClock.Instant) {}
    /// Answers a request its handler answered with ``HTTPReply/later``; nothing if it is gone.
    public func answer(_ exchange: HTTPExchange, with response: HTTPResponse) {}
    /// Queues `bytes` on an event stream.
    /// - Returns: false when the stream is gone, or dropped because over 64 KiB waited unsent.
    @discardableResult public func send(_ bytes: [UInt8], to exchange: HTTPExchange) -> Bool { false }
    /// Ends an event stream after what is queued.
    public func finish(_ exchange: HTTPExchange) {}
    /// The exchanges (later answers and event streams) whose connection closed since the last
    /// call, for the caller to forget.
    public func takeClosed() -> [HTTPExchange] { [] }
    /// Stops listening and closes every connection.
    public func close() {}
}

/// Why the server could not start: one line.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line.
    public let description: String

    /// Creates an error.
    public init(description: String) { self.description = description }
}

/// SHA-256 through GnuTLS (`gnutls_hash_fast`, the TLS library libmicrohttpd itself loads), for
/// the pairing tokens the kitchen keeps only as hashes.
public enum TokenDigest {
    /// The SHA-256 digest of `bytes` (32 bytes), or nil when GnuTLS cannot be loaded.
    /// Any thread. C: `gnutls_hash_fast`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8]? { nil }
}
