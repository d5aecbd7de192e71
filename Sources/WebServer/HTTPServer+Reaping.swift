import Glibc
import SystemKit

/// Event streams whose reader is gone or stopped reading, ended so that their connections free
/// their places at once (issue 43): a phone asleep, a tab closed, a page opened again.
///
/// On the server's thread, like the server.
extension HTTPServer {
    /// The `poll` events to ask for on each of ``streamDescriptors``: the peer closed its end or
    /// its writing half (`POLLRDHUP`; `POLLHUP` and `POLLERR` come whatever is asked).
    public static let peerClosedEvents = pollPeerClosed

    /// The open event streams' sockets, for the caller to poll for ``peerClosedEvents`` beside
    /// ``pollDescriptor``.
    ///
    /// libmicrohttpd does not watch a suspended connection (an idle stream's), so a reader that
    /// closes its end would hold its place (one of the address's and of all) until the next
    /// write found it gone; with these in its poll set the caller's loop wakes, and the next
    /// ``run(now:)`` ends such a stream at once. A socket already being ended is left out (it
    /// would poll ready until libmicrohttpd closes it).
    public var streamDescriptors: [Int32] {
        connections.values.filter { $0.isStreaming && !$0.isShut && $0.descriptor >= 0 }.map(\.descriptor)
    }

    /// Bytes of an event stream its reader has not taken: those queued here and those its socket
    /// holds unsent or unacknowledged (``unreadBytes(on:)``).
    /// - Parameter exchange: The stream.
    /// - Returns: The count; nil when the stream is gone or being ended.
    /// C: `ioctl(SIOCOUTQ)`.
    public func backlog(of exchange: HTTPExchange) -> Int? {
        guard let request = requests[exchange.id], request.phase == .streaming, !request.isDropped,
            let connection = connections[request.connection], !connection.isShut
        else { return nil }
        return request.queue.count + ((try? unreadBytes(on: connection.descriptor)) ?? 0)
    }

    /// Ends an event stream at once, dropping what is queued: its socket is shut, so that a
    /// reader that stopped reading cannot hold the connection; reported by ``takeClosed()``.
    ///
    /// Nothing happens if it is gone. C: `shutdown`.
    public func drop(_ exchange: HTTPExchange) {
        guard let request = requests[exchange.id], request.phase == .streaming || request.phase == .handling else {
            return
        }
        drop(request)
    }

    /// Ends every event stream (finished ones too) that had bytes its reader had not taken at the
    /// previous call and has some now, its reader having taken none in between; notes which ones
    /// have bytes not taken now, and how far each reader got.
    ///
    /// The caller calls it once per keepalive interval, before writing the keepalive: a stream
    /// is then ended when its reader took nothing for a whole interval while bytes waited, at most
    /// two intervals after it stopped. A reader whose host still acknowledges (its receive buffer
    /// not yet full) counts as reading, and so does a slow one that always has a backlog (a phone
    /// on a slow link while the house publishes faster than it reads) as long as it takes some.
    /// What a reader took is the bytes given to libmicrohttpd less those its socket still holds
    /// (libmicrohttpd's own buffer, at most a block, moves only when the socket takes it).
    /// C: `ioctl(SIOCOUTQ)`, `shutdown`.
    /// - Returns: The streams ended now (each reported again by ``takeClosed()``).
    public func reapStalledStreams() -> [HTTPExchange] {
        var reaped: [HTTPExchange] = []
        for request in requests.values.sorted(by: { $0.id < $1.id }) where request.phase == .streaming {
            guard let backlog = backlog(of: HTTPExchange(id: request.id)),
                let connection = connections[request.connection]
            else { continue }
            let taken = request.given - ((try? unreadBytes(on: connection.descriptor)) ?? 0)
            defer { request.taken = taken }
            if backlog > 0, connection.isStalled, taken <= request.taken {
                drop(request)
                reaped.append(HTTPExchange(id: request.id))
            } else {
                connections[request.connection]?.isStalled = backlog > 0
            }
        }
        return reaped
    }

    /// Ends the streams whose reader closed its end, or its writing half.
    ///
    /// Their sockets are polled without waiting; each found is dropped (``drop(_:)``). Called at
    /// the start of ``run(now:)``. C: `poll`.
    func endClosedStreams() {
        let watched = connections.filter { $0.value.isStreaming && !$0.value.isShut && $0.value.descriptor >= 0 }
        guard !watched.isEmpty else { return }
        var entries = watched.map { pollfd(fd: $0.value.descriptor, events: Self.peerClosedEvents, revents: 0) }
        guard (try? pollDescriptors(&entries, timeout: .zero)) ?? 0 > 0 else { return }
        let closedEvents = Self.peerClosedEvents | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)
        for (entry, (_, connection)) in zip(entries, watched) where entry.revents & closedEvents != 0 {
            guard let id = connection.request, let request = requests[id], request.phase == .streaming else { continue }
            drop(request)
        }
    }

    /// Ends `request`'s stream at once.
    ///
    /// It is marked dropped (its content reader ends with an error), its socket shut so that
    /// the connection ends even if its reader never reads again, and resumed for libmicrohttpd
    /// to close. C: `shutdown`.
    func drop(_ request: Request) {
        (request.isDropped, request.queue, request.superseded) = (true, [], nil)
        if let connection = connections[request.connection], !connection.isShut {
            connections[request.connection]?.isShut = true
            _ = shutdown(connection.descriptor, Int32(SHUT_RDWR))
        }
        wake(request)
        needsRun = true
    }
}
