import CMicrohttpd
import Glibc
import TextCoding

/// Responses, later answers and event streams.
extension HTTPServer {
    /// The fields of the server's own refusals: JSON, never cached, never sniffed (those of the
    /// kitchen's API).
    public static let refusalHeaders = [
        HTTPHeader("Content-Type", "application/json"), HTTPHeader("Cache-Control", "no-store"),
        HTTPHeader("X-Content-Type-Options", "nosniff"), HTTPHeader("Referrer-Policy", "no-referrer"),
    ]

    /// One of the server's own refusals (413, 431, 503): `{"error":"<text>"}` with
    /// ``refusalHeaders``.
    /// - Parameters:
    ///   - status: The status code, 400...599.
    ///   - text: One line of plain text (C0 control characters dropped; the rest escaped as
    ///     TextCoding's ``JSONText`` escapes strings).
    /// - Returns: The response. Pure; any thread.
    static func refusal(_ status: Int, _ text: String) -> HTTPResponse {
        var line = ""
        line.unicodeScalars.append(contentsOf: text.unicodeScalars.filter { $0.value >= 0x20 })
        var json = JSONText()
        json.object { json in
            json.key("error")
            json.string(line)
        }
        return HTTPResponse(status: status, headers: refusalHeaders, body: json.bytes)
    }

    /// Answers a request its handler answered with ``HTTPReply/later``.
    ///
    /// Nothing happens if it is gone or already answered. Called on the server's thread (inside the handler too: the answer
    /// is then sent when the handler returns).
    public func answer(_ exchange: HTTPExchange, with response: HTTPResponse) {
        guard let request = requests[exchange.id], request.phase == .waiting || request.phase == .handling,
            request.pendingAnswer == nil
        else { return }
        request.pendingAnswer = response
        wake(request)
    }

    /// Queues `bytes` on an event stream.
    ///
    /// The bytes go out as libmicrohttpd can write them; when more than
    /// ``streamBacklogLimit`` bytes would wait unsent, the stream is dropped instead (its
    /// connection closed; reported by ``takeClosed()``).
    /// - Parameters:
    ///   - bytes: Whole events.
    ///   - exchange: The stream's exchange.
    ///   - superseding: Whether `bytes` says all that a waiting `supersedable` send said (a whole
    ///     picture after another): that one is taken out of the queue if none of it was given to
    ///     libmicrohttpd yet, so a reader on a slow link gets the newest picture next, never a
    ///     backlog of stale ones (issue 43).
    ///   - supersedable: Whether a later superseding send may take `bytes` out while it waits
    ///     whole (false for a picture that carries what no later one will). At most one waits.
    /// - Returns: false when the stream is gone, finished, or dropped now or before.
    @discardableResult public func send(
        _ bytes: [UInt8], to exchange: HTTPExchange, superseding: Bool = false, supersedable: Bool = false
    ) -> Bool {
        guard let request = requests[exchange.id], request.phase == .streaming || request.phase == .handling,
            request.wasHeld || request.phase == .handling, !request.isDropped, !request.isFinished
        else { return false }
        let stale = superseding ? request.superseded : nil
        guard request.queue.count - (stale?.count ?? 0) + bytes.count <= Self.streamBacklogLimit else {
            // libmicrohttpd asks for more only when the socket takes it, which a client that
            // stopped reading never does: the socket is shut so the connection ends now.
            drop(request)
            return false
        }
        if let stale {
            request.queue.removeSubrange(stale)
            request.superseded = nil
        }
        if supersedable { request.superseded = request.queue.count..<request.queue.count + bytes.count }
        request.queue += bytes
        wake(request)
        return true
    }

    /// Ends an event stream after what is queued.
    public func finish(_ exchange: HTTPExchange) {
        guard let request = requests[exchange.id], request.phase == .streaming || request.phase == .handling else {
            return
        }
        request.isFinished = true
        wake(request)
    }

    /// Queues `response` on the request's connection.
    /// - Returns: What the access handler returns: `.NO` (close the connection) when
    ///   libmicrohttpd refused it.
    /// C: `MHD_create_response_from_buffer`, `MHD_add_response_header`, `MHD_queue_response`.
    func queue(_ response: HTTPResponse, for request: Request) -> MHD_Result {
        request.phase = .answered
        var body = response.body
        let made = body.withUnsafeMutableBytes {
            library.responseFromBuffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { library.destroyResponse(made) }
        var status = UInt32(clamping: response.status)
        if !(100...599).contains(status) || !addHeaders(response.headers, to: made) { status = 500 }
        return library.queueResponse(request.connection, status, made)
    }

    /// Adds the fields; false when libmicrohttpd refused one (a line break in it, …).
    private func addHeaders(_ headers: [HTTPHeader], to response: OpaquePointer) -> Bool {
        headers.allSatisfy { library.addResponseHeader(response, $0.name, $0.value) == .YES }
    }

    /// Starts an event stream.
    ///
    /// `200`, `text/event-stream`, the handler's fields, then the queued bytes as they come.
    /// C: `MHD_create_response_from_callback`.
    func startStream(_ request: Request, headers: [HTTPHeader]) -> MHD_Result {
        request.phase = .streaming
        connections[request.connection]?.isStreaming = true
        if let descriptor = connections[request.connection]?.descriptor, descriptor >= 0 {
            // The kernel takes at most this much unsent, so on a slow link the backlog waits in
            // the queue, where a newer picture supersedes it (``send(_:to:superseding:supersedable:)``),
            // not in a send buffer of up to megabytes that it cannot reach.
            var lowWater = Int32(Self.streamUnsentInKernel)
            _ = setsockopt(
                descriptor, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, &lowWater, socklen_t(MemoryLayout<Int32>.size))
        }
        let reader: MHD_ContentReaderCallback = { context, _, buffer, room in
            guard let context, let buffer else { return CMicrohttpd_end_with_error }
            let stream = Unmanaged<StreamContext>.fromOpaque(context).takeUnretainedValue()
            return stream.server.read(stream.id, into: buffer, room: room)
        }
        let release: MHD_ContentReaderFreeCallback = { context in
            guard let context else { return }
            Unmanaged<StreamContext>.fromOpaque(context).release()
        }
        let context = Unmanaged.passRetained(StreamContext(server: self, id: request.id)).toOpaque()
        guard let made = library.responseFromCallback(CMicrohttpd_size_unknown, 4096, reader, context, release) else {
            Unmanaged<StreamContext>.fromOpaque(context).release()
            return .NO
        }
        defer { library.destroyResponse(made) }
        let fields = [HTTPHeader("Content-Type", "text/event-stream")] + headers
        guard addHeaders(fields, to: made) else { return .NO }
        return library.queueResponse(request.connection, 200, made)
    }

    /// The content reader of a stream: gives libmicrohttpd what is queued, or suspends the
    /// connection until more comes.
    ///
    /// A dropped stream (its socket shut) ends as a finished one does, not with an error: the
    /// end's write then fails in libmicrohttpd's write handler, which closes the connection and
    /// frees it (its place among the address's) in the same round. libmicrohttpd 0.9.75 closes
    /// a connection whose reader reports an error inside its idle handler and leaves it to be
    /// freed by a later look at its timeouts, which stops at the oldest connection still open:
    /// with older connections from anywhere, the dropped one kept its place for as long as they
    /// lived (found with 15 idle connections from the stream's address: issue 43).
    /// - Returns: Bytes written to `buffer`; 0 after suspending; an end marker.
    func read(_ id: UInt64, into buffer: UnsafeMutablePointer<CChar>, room: Int) -> Int {
        guard let request = requests[id] else { return CMicrohttpd_end_with_error }
        guard !request.isDropped else { return CMicrohttpd_end_of_stream }
        guard !request.queue.isEmpty else {
            if request.isFinished { return CMicrohttpd_end_of_stream }
            _ = suspend(request)
            return 0
        }
        let count = min(room, request.queue.count)
        request.queue.withUnsafeBytes {
            UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: count)
        }
        request.queue.removeFirst(count)
        request.given += count
        // A superseding send partly given is sent whole; one wholly queued moves up.
        request.superseded = request.superseded.flatMap {
            $0.lowerBound < count ? nil : $0.lowerBound - count..<$0.upperBound - count
        }
        return count
    }
}
