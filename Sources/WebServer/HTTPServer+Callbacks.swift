import CMicrohttpd
import Glibc

/// libmicrohttpd's callbacks: C functions that find the server from their context pointer (the
/// server, unretained: it stops the daemon before it goes) and the request from its exchange
/// number, kept as libmicrohttpd's per-request pointer. All are called inside `MHD_run` or
/// `MHD_stop_daemon`, on the server's thread.
extension HTTPServer {
    /// The server behind a callback's context pointer.
    static func server(_ context: UnsafeMutableRawPointer?) -> HTTPServer {
        Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The exchange number kept in libmicrohttpd's per-request pointer.
    static func exchangeNumber(_ pointer: UnsafeMutableRawPointer?) -> UInt64? {
        pointer.map { UInt64(UInt(bitPattern: $0)) }
    }

    /// The access handler: called for each request's headers, each piece of its body, and once
    /// more at its end (and again after a resume).
    static let accessCallback: MHD_AccessHandlerCallback = {
        context, connection, _, method, version, data, size, requestSlot in
        guard let connection, let size, let requestSlot else { return .NO }
        return HTTPServer.server(context).access(
            connection, method: method, version: version, data: data, size: size, slot: requestSlot)
    }

    /// The options that install the callbacks, each with `context` (the server).
    static func callbackOptions(context: UnsafeMutableRawPointer) -> [MHD_OptionItem] {
        let uriLog:
            @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? =
                {
                    context, uri, connection in
                    guard let connection else { return nil }
                    return HTTPServer.server(context).requestBegan(
                        connection, target: uri.map { String(cString: $0) } ?? "/")
                }
        let completed: MHD_RequestCompletedCallback = { context, _, requestSlot, _ in
            guard let id = HTTPServer.exchangeNumber(requestSlot?.pointee) else { return }
            HTTPServer.server(context).requestEnded(id)
        }
        let notify: MHD_NotifyConnectionCallback = { context, connection, _, code in
            guard let connection else { return }
            HTTPServer.server(context).connectionChanged(connection, opened: code == .CONNECTION_NOTIFY_STARTED)
        }
        func item(_ option: MHD_OPTION, _ function: UnsafeRawPointer) -> MHD_OptionItem {
            MHD_OptionItem(option: option, value: Int(bitPattern: function), ptr_value: context)
        }
        return [
            item(.URI_LOG_CALLBACK, unsafeBitCast(uriLog, to: UnsafeRawPointer.self)),
            item(.NOTIFY_COMPLETED, unsafeBitCast(completed, to: UnsafeRawPointer.self)),
            item(.NOTIFY_CONNECTION, unsafeBitCast(notify, to: UnsafeRawPointer.self)),
        ]
    }

    /// A connection was accepted or closed.
    func connectionChanged(_ connection: OpaquePointer, opened: Bool) {
        if opened {
            let descriptor = CMicrohttpd_connection_descriptor(library.connectionInfo, connection)
            let peer = Self.numericText(CMicrohttpd_connection_peer(library.connectionInfo, connection))
            lastSerial += 1
            connections[connection] = Connection(
                since: clock, descriptor: descriptor, peer: peer,
                origin: Self.origin(of: peer, loopbackIsOne: settings.loopbackIsOneAddress), serial: lastSerial,
                acceptedInRun: runNumber)
            return
        }
        if let id = connections.removeValue(forKey: connection)?.request { requestEnded(id) }
    }

    /// A request line arrived: a new exchange.
    /// - Returns: Its number as libmicrohttpd's per-request pointer (never null: numbers start at 1).
    func requestBegan(_ connection: OpaquePointer, target: String) -> UnsafeMutableRawPointer? {
        lastID += 1
        requests[lastID] = Request(id: lastID, connection: connection, target: target)
        connections[connection]?.request = lastID
        return UnsafeMutableRawPointer(bitPattern: UInt(lastID))
    }

    /// A request ended (completed, failed, or its connection closed); reported once if held.
    func requestEnded(_ id: UInt64) {
        guard let request = requests.removeValue(forKey: id) else { return }
        if connections[request.connection]?.request == id {
            connections[request.connection]?.request = nil
            connections[request.connection]?.since = clock
        }
        if request.wasHeld { closed.append(HTTPExchange(id: id)) }
    }

    /// One call of the access handler for the request in `slot`.
    func access(
        _ connection: OpaquePointer, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        data: UnsafePointer<CChar>?,
        size: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let id = Self.exchangeNumber(slot.pointee), let request = requests[id] else { return .NO }
        switch request.phase {
        case .receiving:
            if !request.started {
                request.started = true
                request.method = method.map { String(cString: $0) } ?? ""
                request.version = version.map { String(cString: $0) } ?? ""
                return begin(request)
            }
            if size.pointee > 0 {
                if let data, !request.isTooLarge {
                    if request.body.count + size.pointee > settings.bodyLimit {
                        (request.isTooLarge, request.body) = (true, [])
                    } else {
                        data.withMemoryRebound(to: UInt8.self, capacity: size.pointee) {
                            request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size.pointee))
                        }
                    }
                }
                size.pointee = 0
                return .YES
            }
            if request.isTooLarge { return queue(tooLarge, for: request) }
            return handle(request)
        case .waiting:
            guard let answer = request.pendingAnswer else { return suspend(request) }
            return queue(answer, for: request)
        case .handling, .streaming, .answered:
            return .YES
        }
    }

    /// The headers are in: checks the header count and the announced body length.
    private func begin(_ request: Request) -> MHD_Result {
        let count = library.connectionValues(request.connection, .HEADER_KIND, nil, nil)
        if count > settings.headerLimit {
            return queue(Self.refusal(431, "too many header fields (at most \(settings.headerLimit))"), for: request)
        }
        let iterator: MHD_KeyValueIterator = { slot, _, key, value in
            guard let slot, let key else { return .YES }
            let name = String(cString: key).lowercased()
            slot.assumingMemoryBound(to: [HTTPHeader].self).pointee.append(
                HTTPHeader(name, value.map { String(cString: $0) } ?? ""))
            return .YES
        }
        var headers: [HTTPHeader] = []
        _ = withUnsafeMutablePointer(to: &headers) {
            library.connectionValues(request.connection, .HEADER_KIND, iterator, $0)
        }
        request.headers = headers
        if let refusal = framingRefusal(request) { return queue(refusal, for: request) }
        showCredential(of: request)
        // Closed for room (just now, or before libmicrohttpd read what was already sent): never
        // acted on unanswered.
        if connections[request.connection]?.isShut ?? true { return .NO }
        if let length = headers.first(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }),
            length > settings.bodyLimit
        {
            return queue(tooLarge, for: request)
        }
        return .YES
    }

    /// The 413 of a body over ``Settings/bodyLimit``.
    private var tooLarge: HTTPResponse { Self.refusal(413, "body too large (at most \(settings.bodyLimit) bytes)") }

    /// The whole request is in: asks the handler.
    private func handle(_ request: Request) -> MHD_Result {
        if connections[request.connection]?.isShut ?? true { return .NO }
        let (path, query) = Self.split(request.target)
        let peer = connections[request.connection]?.peer ?? ""
        let value = HTTPRequest(
            method: request.method, path: path, query: query, headers: request.headers, body: request.body,
            peer: peer, isTLS: settings.tls != nil)
        request.body = []
        request.phase = .handling
        switch handler(value, HTTPExchange(id: request.id)) {
        case .response(let response):
            return queue(response, for: request)
        case .later:
            request.phase = .waiting
            request.wasHeld = true
            if let answer = request.pendingAnswer { return queue(answer, for: request) }
            return suspend(request)
        case .events(let headers):
            request.wasHeld = true
            return startStream(request, headers: headers)
        }
    }

    /// Suspends the request's connection until a resume.
    func suspend(_ request: Request) -> MHD_Result {
        if !request.isSuspended {
            library.suspend(request.connection)
            request.isSuspended = true
        }
        return .YES
    }

    /// Resumes the request's connection if it is suspended; the next ``run(now:)`` serves it.
    func wake(_ request: Request) {
        guard request.isSuspended else { return }
        request.isSuspended = false
        library.resume(request.connection)
        needsRun = true
    }

    /// The path and the query of a request target (`/a?b` → `/a`, `b`).
    static func split(_ target: String) -> (String, String?) {
        guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }
}
