/// What the server keeps per connection and per request, between libmicrohttpd's callbacks.
///
/// Confined to the server's thread, like the server.
extension HTTPServer {
    /// One accepted connection.
    struct Connection {
        /// When its deadline counts from: the accept, or the end of the previous response on a
        /// kept-alive connection (boot clock).
        var since: ContinuousClock.Instant
        /// Its socket (libmicrohttpd's; shut down, never closed, here).
        let descriptor: Int32
        /// The peer's numeric address.
        let peer: String
        /// The address the budgets count it against (``HTTPServer/origin(of:loopbackIsOne:)``).
        let origin: String
        /// Its place in the order of accepts (the oldest has the smallest).
        let serial: UInt64
        /// The ``HTTPServer/runNumber`` of the run that accepted it.
        let acceptedInRun: UInt64
        /// Whether a request head was read on it (its credential, if any, was asked for).
        var showedHead = false
        /// The credential a request on it showed (``HTTPServer/Vouch``); nil: unvouched.
        var credential: String?
        /// Whether an event stream started on it (then no deadline applies).
        var isStreaming = false
        /// Whether its socket was shut (the deadline, a stream dropped).
        var isShut = false
        /// Whether its event stream had bytes its reader had not taken at the last
        /// ``HTTPServer/reapStalledStreams()``.
        var isStalled = false
        /// The request being read or answered on it, if any.
        var request: UInt64?
    }

    /// One request, from its request line to its completion.
    final class Request {
        /// Its exchange number.
        let id: UInt64
        /// The connection it came on.
        let connection: OpaquePointer
        /// The request target (path and query, still percent-encoded): as sent, then in origin
        /// form once its head is in (``HTTPServer/originForm(of:host:)``).
        var target: String
        /// Where it is.
        var phase = Phase.receiving
        /// Whether the access handler saw its headers.
        var started = false
        /// The method, the HTTP version (`HTTP/1.1`), the header fields, the body so far.
        var method = ""
        var version = ""
        var headers: [HTTPHeader] = []
        var body: [UInt8] = []
        /// Whether the body went over the limit (the rest is discarded, then 413).
        var isTooLarge = false
        /// Whether libmicrohttpd holds it suspended (on our call).
        var isSuspended = false
        /// The answer given to a `later` request, waiting for the access handler's next call.
        var pendingAnswer: HTTPResponse?
        /// The event stream's bytes not yet given to libmicrohttpd.
        var queue: [UInt8] = []
        /// How many bytes of the event stream were given to libmicrohttpd.
        var given = 0
        /// How many of them its reader had taken at the last ``HTTPServer/reapStalledStreams()``.
        var taken = 0
        /// Where in ``queue`` the last supersedable send waits, while none of it was given to
        /// libmicrohttpd (``HTTPServer/send(_:to:superseding:supersedable:)``).
        var superseded: Range<Int>?
        /// Whether ``HTTPServer/finish(_:)`` ended the stream.
        var isFinished = false
        /// Whether the stream was dropped (over the unsent limit): it ends with an error.
        var isDropped = false

        enum Phase {
            /// Headers and body coming in.
            case receiving
            /// In the handler now (an ``HTTPServer/answer(_:with:)`` is kept for when it returns).
            case handling
            /// Answered ``HTTPReply/later``: waiting for ``HTTPServer/answer(_:with:)``.
            case waiting
            /// An event stream.
            case streaming
            /// A response is queued.
            case answered
        }

        init(id: UInt64, connection: OpaquePointer, target: String) {
            (self.id, self.connection, self.target) = (id, connection, target)
        }

        /// Whether the caller holds this exchange (a later answer or an event stream), so its end
        /// is reported by ``HTTPServer/takeClosed()``.
        var isHeldByCaller: Bool { phase == .waiting || phase == .streaming || wasHeld }
        /// Set once the request became a later answer or a stream.
        var wasHeld = false
    }

    /// What a stream response's callbacks are given: the server and the exchange.
    ///
    /// Retained by the response, released by its free callback.
    final class StreamContext {
        unowned(unsafe) let server: HTTPServer
        let id: UInt64

        init(server: HTTPServer, id: UInt64) { (self.server, self.id) = (server, id) }
    }
}
