import CMicrohttpd
import Glibc

/// An HTTP/1.1 server on libmicrohttpd (loaded with dlopen) in its external-poll mode, driven by
/// the caller's event loop: no thread of its own, no thread per connection.
///
/// The caller polls ``pollDescriptor`` (libmicrohttpd's epoll descriptor, `POLLIN`) and the
/// ``streamDescriptors`` (for ``peerClosedEvents``) and looks again at ``nextCheck(now:)``, then
/// calls ``run(now:)``; inside it, the handler is called on
/// the caller's thread once per complete request. The server enforces the ``Settings`` limits
/// (body size, header count, the connection budgets of ``enforceBudgets()``, a total deadline per
/// connection counted from its accept: libmicrohttpd's own timeout counts only idle time) by
/// shutting the socket.
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
        /// The most connections open at once from one peer address that have not shown a
        /// credential (``Vouch``) (positive; above the unvouched budget it is that): a new one
        /// past it closes the address's oldest such connection, so that a device holding sockets
        /// open can neither take the others' room nor keep its own address's next request out.
        public var perAddressLimit: Int = 16
        /// Whether every loopback address counts as one address in the budgets.
        ///
        /// All are this machine's: a local user binding to 127.0.0.0/8's many is one user. Tests
        /// that play many devices with loopback aliases turn it off.
        public var loopbackIsOneAddress = true
        /// How many of ``connectionLimit`` only connections that showed a credential may hold
        /// (not negative; above ``connectionLimit`` − 1 it is that; nil: a quarter, 64 of 256):
        /// unvouched connections, from any number of addresses, are at most ``connectionLimit``
        /// minus this many; a new one past that closes the oldest unvouched connection (issue 43).
        public var reservedConnections: Int?
        /// The longest a connection may take from its accept to its response's last byte.
        ///
        /// Event streams once they started are exempt; on a kept-alive connection it counts
        /// again from the end of the previous response. Past it the socket is shut down.
        public var connectionDeadline: Duration = .seconds(10)
        /// The most unvouched connections open at once, from all addresses: ``connectionLimit``
        /// less ``reservedConnections`` (192 of 256 by default), at least 1.
        public var unvouchedLimit: Int {
            let reserved = min(max(reservedConnections ?? connectionLimit / 4, 0), connectionLimit - 1)
            return max(1, connectionLimit - reserved)
        }
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
    /// Called once per request's head (headers in, body still empty) on a connection that has
    /// not shown a credential yet, on the thread that calls ``run(now:)``: the credential the
    /// request carries (any text naming it, such as a session token), or nil for none.
    ///
    /// A connection that showed one is *vouched* for the rest of its life: it is never closed to
    /// make room for others and does not count against ``Settings/perAddressLimit``; at most
    /// ``Settings/perAddressLimit`` connections are vouched by one credential (more stay
    /// unvouched). It must be quick and must not block.
    public typealias Vouch = (HTTPRequest) -> String?

    /// The most bytes an event stream may hold unsent before it is dropped.
    public static let streamBacklogLimit = 64 * 1024
    /// The most bytes of an event stream the kernel holds not yet sent (`TCP_NOTSENT_LOWAT`, tcp(7):
    /// a write waits while more are), so that the rest of a slow reader's backlog stays in the
    /// server's queue, where a newer picture supersedes it.
    static let streamUnsentInKernel = 16 * 1024
    /// How long a connection may stay idle (no byte either way) before libmicrohttpd closes it,
    /// in seconds; longer than the API's 15 s keepalive (suspended connections do not count).
    static let idleTimeoutSeconds = 60

    let library: MicrohttpdLibrary
    let settings: Settings
    let handler: Handler
    /// Tells a request's credential; nil: no connection is ever vouched.
    let vouch: Vouch?
    /// The last accept's serial number (``Connection/serial``).
    var lastSerial: UInt64 = 0
    /// How many ``run(now:)`` calls began (``Connection/acceptedInRun``).
    var runNumber: UInt64 = 0
    /// The daemon, until ``close()``.
    var daemon: OpaquePointer?
    /// The `now` of the current ``run(now:)`` (callbacks come only from inside it, or ``close()``).
    var clock: ContinuousClock.Instant
    /// The last exchange number given out.
    var lastID: UInt64 = 0
    /// The open connections, by libmicrohttpd's connection pointer.
    var connections: [OpaquePointer: Connection] = [:]
    /// The addresses that showed a credential lately (``KnownAddresses``): an hour, 64 of them.
    var knownAddresses = KnownAddresses(memory: .seconds(3600), capacity: 64)
    /// The requests from their request line to their completion, by exchange number.
    var requests: [UInt64: Request] = [:]
    /// Held exchanges that ended since the last ``takeClosed()``.
    var closed: [HTTPExchange] = []
    /// Whether a connection was resumed since the last ``run(now:)``.
    var needsRun = false
    /// The PEM texts, kept (malloc'd, NUL-terminated) for the daemon's life.
    private var tlsTexts: [UnsafeMutablePointer<CChar>] = []
    /// The bound port.
    public let port: UInt16

    /// Starts listening.
    /// - Parameters:
    ///   - settings: The address and limits.
    ///   - vouch: Tells a request's credential (``Vouch``); nil: none is ever vouched.
    ///   - handler: The request handler.
    /// - Throws: ``HTTPServerError``: the library is missing, TLS is asked for and it has none,
    ///   or the address cannot be bound (the reason in one line).
    public convenience init(settings: Settings, vouch: Vouch? = nil, handler: @escaping Handler)
        throws(HTTPServerError)
    {
        let name = getenv(MicrohttpdLibrary.fileNameVariable).map { String(cString: $0) }
        try self.init(
            settings: settings, libraryName: name ?? MicrohttpdLibrary.fileName, vouch: vouch, handler: handler)
    }

    /// Starts listening with the shared object `libraryName` (tests name a missing one).
    /// - Throws: ``HTTPServerError`` as ``init(settings:handler:)``.
    /// C: `MHD_start_daemon`, `socket`, `bind`, `listen`.
    init(
        settings: Settings, libraryName: String, now: ContinuousClock.Instant = .now, vouch: Vouch? = nil,
        handler: @escaping Handler
    ) throws(HTTPServerError) {
        // Bounded so that no deadline arithmetic can overflow, whatever a caller passes.
        guard settings.bodyLimit >= 0, settings.headerLimit >= 0, settings.connectionLimit > 0,
            settings.perAddressLimit > 0, settings.reservedConnections ?? 0 >= 0,
            settings.connectionDeadline > .zero, settings.connectionDeadline <= .seconds(86_400)
        else {
            throw HTTPServerError(
                description: "the HTTP server's limits must be positive (the connection deadline at most a day)")
        }
        switch MicrohttpdLibrary.load(libraryName) {
        case .success(let loaded): library = loaded
        case .failure(let error): throw error
        }
        (self.settings, self.handler, self.vouch, self.clock) = (settings, handler, vouch, now)
        var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if settings.tls != nil {
            guard library.featureSupported(.FEATURE_TLS) == .YES else {
                throw HTTPServerError(description: "libmicrohttpd here has no TLS")
            }
            flags |= MHD_USE_TLS.rawValue
        }
        let isIPv6 = settings.address.contains(":")
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let (listener, bound) = try Self.listen(address: settings.address, port: settings.port)
        port = bound
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listener), ptr_value: nil),
            // libmicrohttpd's own limit is only the descriptors' ceiling: the budgets are the
            // server's (``enforceBudgets()``); connections not judged yet, and those closed for
            // room whose close libmicrohttpd has not seen, count in its headroom.
            MHD_OptionItem(
                option: .CONNECTION_LIMIT, value: settings.connectionLimit + Self.closingHeadroom, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Self.idleTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: Self.strictness, ptr_value: nil),
        ]
        let context = Unmanaged.passUnretained(self).toOpaque()
        options += Self.callbackOptions(context: context)
        if let tls = settings.tls {
            tlsTexts = [strdup(tls.certificate), strdup(tls.key)].compactMap { $0 }
            guard tlsTexts.count == 2 else {
                Glibc.close(listener)
                throw HTTPServerError(description: "out of memory for the TLS certificate")
            }
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: tlsTexts[0]))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: tlsTexts[1]))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let started = options.withUnsafeBufferPointer {
            CMicrohttpd_start(library.startDaemon, flags, 0, Self.accessCallback, context, $0.baseAddress)
        }
        guard let started else {
            if fcntl(listener, F_GETFD) >= 0 { Glibc.close(listener) }
            for text in tlsTexts { free(text) }
            let reason = settings.tls == nil ? "" : " (is the TLS certificate and key valid PEM?)"
            throw HTTPServerError(description: "libmicrohttpd could not start on \(settings.address):\(port)\(reason)")
        }
        daemon = started
    }

    deinit { close() }

    /// The descriptor to poll for `POLLIN`: libmicrohttpd's epoll descriptor.
    ///
    /// -1 after ``close()``. C: `MHD_get_daemon_info` (`MHD_DAEMON_INFO_EPOLL_FD`).
    public var pollDescriptor: Int32 {
        guard let daemon else { return -1 }
        return CMicrohttpd_epoll_descriptor(library.daemonInfo, daemon)
    }

    /// When ``run(now:)`` must be called even if nothing is ready (boot clock); nil: only then.
    ///
    /// The earliest of libmicrohttpd's own timeout, the next connection deadline, and `now` when
    /// a connection was resumed (``answer(_:with:)``, ``send(_:to:)``, ``finish(_:)``) since the
    /// last run. C: `MHD_get_timeout`.
    public func nextCheck(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let daemon else { return nil }
        if needsRun { return now }
        var next: ContinuousClock.Instant?
        var milliseconds: UInt64 = 0
        if library.timeout(daemon, &milliseconds) == .YES {
            next = now + .milliseconds(Int64(clamping: min(milliseconds, 86_400_000)))
        }
        for connection in connections.values where !connection.isStreaming && !connection.isShut {
            let deadline = connection.since + settings.connectionDeadline
            next = min(next ?? deadline, deadline)
        }
        return next
    }

    /// Does the ready work: accepts, reads, calls the handler, writes, drops connections.
    ///
    /// Connections past their deadline are shut first, and event streams whose reader closed its
    /// end are ended (``streamDescriptors``). Never blocks (every socket is non-blocking; the
    /// handler must not block).
    /// - Parameter now: The boot clock now: accept instants and deadlines are read against it.
    /// C: `MHD_run`, `shutdown`.
    public func run(now: ContinuousClock.Instant) {
        guard let daemon else { return }
        clock = now
        needsRun = false
        runNumber += 1
        enforceDeadlines()
        endClosedStreams()
        _ = library.run(daemon)
        enforceBudgets()
    }

    /// The exchanges (later answers and event streams) whose connection closed since the last
    /// call, for the caller to forget.
    ///
    /// Each exchange the handler answered ``HTTPReply/later`` or ``HTTPReply/events(headers:)``
    /// is reported exactly once, when its request ended (answered and sent, dropped, finished,
    /// or the client left).
    public func takeClosed() -> [HTTPExchange] {
        defer { closed.removeAll() }
        return closed
    }

    /// Stops listening and closes every connection.
    ///
    /// Their held exchanges are then reported by ``takeClosed()``. C: `MHD_stop_daemon`.
    public func close() {
        guard let daemon else { return }
        // libmicrohttpd must not be stopped while it holds connections suspended: resume them
        // (marked dropped, so a stream's reader ends) and let the stop close them all.
        for request in requests.values where request.isSuspended {
            (request.isSuspended, request.isDropped) = (false, true)
            library.resume(request.connection)
        }
        library.stopDaemon(daemon)
        self.daemon = nil
        for id in requests.keys.sorted() { requestEnded(id) }
        connections.removeAll()
        for text in tlsTexts { free(text) }
        tlsTexts = []
    }

    /// Shuts the socket of every connection past its deadline that carries no event stream; a
    /// request waiting for a later answer gets a 503 so libmicrohttpd lets it go.
    private func enforceDeadlines() {
        for (pointer, connection) in connections where !connection.isStreaming && !connection.isShut {
            guard connection.since + settings.connectionDeadline <= clock else { continue }
            shut(pointer, "no answer in time")
        }
    }

    /// Shuts a connection's socket so that libmicrohttpd closes it at its next look.
    ///
    /// Whatever its peer does: a request waiting for a later answer gets a 503 saying `reason`,
    /// an event stream is dropped (``drop(_:)``). C: `shutdown`.
    func shut(_ pointer: OpaquePointer, _ reason: String) {
        guard let connection = connections[pointer], !connection.isShut else { return }
        if let id = connection.request, let request = requests[id], request.phase == .streaming {
            drop(request)
            return
        }
        connections[pointer]?.isShut = true
        _ = shutdown(connection.descriptor, Int32(SHUT_RDWR))
        if let id = connection.request, let request = requests[id], request.phase == .waiting {
            answer(HTTPExchange(id: id), with: Self.refusal(503, reason))
        }
    }
}

/// Why the server could not start: one line.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line.
    public let description: String

    /// Creates an error.
    public init(description: String) { self.description = description }
}
