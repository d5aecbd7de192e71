import ControlChannel
import EventLoop
import Glibc
import HouseBus
import KitchenWeb
import TimerEngine
import TimerModel
import WebServer

/// The kitchen's HTTP API (`--http`): its server as one more source of the kitchen's loop, the
/// request guard, the event streams, and the starts waiting for their timers.
///
/// The server calls ``handle(_:_:)`` inside its `run` on the loop's thread: the checks
/// (``RequestGuard``) and every route but a start answer there and then; a start is queued
/// (``pendingStarts``) and carried out by the kitchen after the round (``Kitchen/webRound()``),
/// outside the loop's own call, and answered when its outcome comes (``answer(_:_:form:)``).
/// Keepalives go to the streams every ``keepalive`` from ``nextCheck``: no thread. A session has
/// one stream at a time (its newest), a stream whose reader took nothing for a whole keepalive
/// interval is closed, and a stream whose reader closed its end frees its place at once (issue
/// 43). Owned by the main thread; not thread-safe.
package final class KitchenWebFront: LoopSource {
    /// The most event streams at once; one more is answered 503.
    ///
    /// A backstop: with one stream per session (``addStream(_:session:)``) and at most
    /// `Pairing.deviceLimit` (64) paired devices, the streams stay below it.
    static let streamLimit = 128
    /// How often an idle event stream gets `: keepalive` (``WebOptions/keepalive``, 15 s unless
    /// a test asks less); a stream whose bytes waited untaken for one is closed at the next.
    let keepalive: Duration
    /// The most bytes one event may take.
    ///
    /// What a stream may hold unsent (`HTTPServer.streamBacklogLimit`, 64 KiB): a larger event
    /// would close every stream it is sent to before it sent anything. The house's part is
    /// bounded by ``HousePicture``; this box's grows with `--max-timers` (said once when over).
    static let eventByteLimit = HTTPServer.streamBacklogLimit
    /// The last event a stream gets when a newer stream of its session replaces it: the page
    /// then waits to be shown again before it opens one more, so two tabs of one phone do not
    /// take the stream from each other in turn.
    static let replacedEvent = Array("event: replaced\ndata: {}\n\n".utf8)

    /// A start asked for and not yet handed to the kitchen.
    struct PendingStart {
        let exchange: HTTPExchange
        let request: StartRequestText
        let form: Bool
    }

    /// An action on this box's timers asked for and not yet handed to the kitchen: the core
    /// decides it after the round, and the exchange is answered once its timers replied.
    struct PendingAction {
        let exchange: HTTPExchange
        let action: KitchenCore.Action
        let form: Bool
    }

    /// The start word and label of `POST /api/timers`, as sent, and its asker's id.
    struct StartRequestText {
        let start: String
        let label: String?
        /// The `Idempotency-Key` (or the form's `id`); nil for none.
        var id: RequestID? = nil
    }

    unowned let kitchen: Kitchen
    /// The server; nil only while ``init(kitchen:)`` makes it.
    private(set) var server: HTTPServer!
    /// The checks, made once the port is known.
    var requestGuard: RequestGuard
    /// The open event streams, oldest first.
    private(set) var streams: [HTTPExchange] = []
    /// The session each open stream was opened with: its token's hash (as
    /// ``Pairing/deviceHashes`` keeps it), so that unpairing its device ends it.
    private var streamSessions: [HTTPExchange: String] = [:]
    /// Streams that have not had their first event yet.
    var unsent: [HTTPExchange] = []
    /// Starts queued by the handler.
    var pendingStarts: [PendingStart] = []
    /// Actions queued by the handler.
    var pendingActions: [PendingAction] = []
    /// How many house timers each `POST /api/ack-all` handed to the kitchen asked already.
    var houseAsked: [HTTPExchange: Int] = [:]
    /// Starts and actions handed to the kitchen, waiting for their outcome.
    var waiting: Set<HTTPExchange> = []
    /// The CSRF tokens of the form posts among the starts (their error page is drawn with it).
    var formCSRF: [HTTPExchange: String] = [:]
    /// This box's timers that ended since the last event, in their last state: the next event
    /// shows them once (`done`, `cancelled`, `missed`), so a stream sees how each ended.
    var ended: [WebTimer] = []
    /// The last picture the streams were sent, without the time left (what a change is).
    var sentKey: [UInt8] = []
    /// When the streams get their next keepalive.
    private var nextKeepalive: ContinuousClock.Instant
    /// The other nodes' timers from their retained MQTT states, by node and label (with
    /// `--mqtt`), within the bounds that keep one event below the stream's limit (issue 43).
    var house = HousePicture()
    /// Whether the kitchen said that the picture's event is larger than ``eventByteLimit``
    /// (said once until it fits again).
    var oversizeSaid = false
    /// Whether the kitchen said its first refusal of each kind (said once).
    var refusalsSaid: Set<Int> = []

    /// Starts the server on the settings' address.
    /// - Parameters:
    ///   - kitchen: The kitchen it serves (it owns this object).
    ///   - settings: The address, port and TLS.
    /// - Throws: ``HTTPServerError`` when the server cannot start.
    init(kitchen: Kitchen, settings: HTTPServer.Settings) throws(HTTPServerError) {
        self.kitchen = kitchen
        let web = kitchen.settings.web
        requestGuard = RequestGuard(
            address: settings.address, port: settings.port, hostname: RequestGuard.currentHostname(), names: web.names)
        keepalive = web.keepalive
        nextKeepalive = kitchen.clock.now() + web.keepalive
        server = try HTTPServer(
            settings: settings,
            vouch: { [unowned kitchen] head in RequestGuard.credential(of: head, pairing: kitchen.pairing) },
            handler: { [unowned self] request, exchange in handle(request, exchange) })
        requestGuard = RequestGuard(
            address: settings.address, port: server.port, hostname: RequestGuard.currentHostname(), names: web.names)
    }

    var pollRequests: [PollRequest] {
        guard server.pollDescriptor >= 0 else { return [] }
        return [PollRequest(descriptor: server.pollDescriptor, events: Int16(POLLIN))]
            + server.streamDescriptors.map { PollRequest(descriptor: $0, events: HTTPServer.peerClosedEvents) }
    }

    var nextCheck: ContinuousClock.Instant? {
        let now = kitchen.clock.now()
        if !pendingStarts.isEmpty || !pendingActions.isEmpty || !unsent.isEmpty { return now }
        return ([server.nextCheck(now: now)] + [streams.isEmpty ? nil : nextKeepalive]).compactMap { $0 }.min()
    }

    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        server.run(now: now)
        forgetClosed()
        if now >= nextKeepalive {
            nextKeepalive = now + keepalive
            reapStalledStreams()
            broadcast(Array(": keepalive\n\n".utf8))
        }
    }

    /// Closes the streams whose reader took nothing for a whole keepalive interval (a phone
    /// asleep, a reader stopped), with one line saying how many; called before each keepalive.
    ///
    /// Main thread. Never blocks.
    func reapStalledStreams() {
        let reaped = server.reapStalledStreams()
        guard !reaped.isEmpty else { return }
        let gone = Set(reaped)
        streams.removeAll { gone.contains($0) }
        unsent.removeAll { gone.contains($0) }
        for exchange in reaped { streamSessions[exchange] = nil }
        let seconds = keepalive.components.seconds
        kitchen.say(
            "HTTP: \(reaped.count) event stream\(reaped.count == 1 ? "" : "s") closed: "
                + "\(reaped.count == 1 ? "its reader" : "their readers") took nothing for \(seconds) s")
    }

    /// Drops the exchanges whose connection closed.
    func forgetClosed() {
        let closed = Set(server.takeClosed())
        guard !closed.isEmpty else { return }
        streams.removeAll { closed.contains($0) }
        for exchange in closed { streamSessions[exchange] = nil }
        unsent.removeAll { closed.contains($0) }
        waiting.subtract(closed)
        for exchange in closed { formCSRF[exchange] = nil }
        pendingStarts.removeAll { closed.contains($0.exchange) }
        pendingActions.removeAll { closed.contains($0.exchange) }
        for exchange in closed { houseAsked[exchange] = nil }
    }

    /// A form post's answer (the page without JavaScript): 303 to the page when `response`
    /// succeeded, else the page itself showing the error's line, under the error's status.
    /// - Parameters:
    ///   - response: The JSON answer the API gives.
    ///   - csrf: The session's CSRF token for the page's forms; nil when not paired.
    /// - Returns: The response to send.
    func formAnswer(_ response: HTTPResponse, csrf: String?) -> HTTPResponse {
        guard response.status >= 400 else { return KitchenAPI.seeThePage }
        let line = JSONValue.parse(response.body)?["error"]?.stringValue ?? "refused"
        let paired = csrf != nil
        var page = WebPage.page(
            WebPage.View(paired: paired, csrf: csrf, picture: paired ? kitchen.webPicture : nil, message: line))
        page.status = response.status
        page.headers += response.headers.filter { $0.name == "Retry-After" }
        return page
    }

    /// Adds an event stream opened by the session whose token hashes to `session`; false when
    /// ``streamLimit`` are open.
    ///
    /// It replaces the session's older streams (issue 43): a phone that slept, or reloaded its
    /// page, leaves streams its browser no longer reads, which would hold the address's
    /// connections. One whose reader takes what it is sent gets ``replacedEvent`` and ends after
    /// it; one that holds bytes untaken is dropped at once.
    /// - Parameters:
    ///   - exchange: The stream's exchange.
    ///   - session: The hex of the session token's SHA-256 (``Pairing/tokenHash(_:)``).
    /// - Returns: Whether it was added.
    func addStream(_ exchange: HTTPExchange, session: String) -> Bool {
        let older = streams.filter { streamSessions[$0] == session }
        if !older.isEmpty {
            let replaced = Set(older)
            streams.removeAll { replaced.contains($0) }
            unsent.removeAll { replaced.contains($0) }
            for old in older {
                streamSessions[old] = nil
                if server.backlog(of: old) == 0, server.send(Self.replacedEvent, to: old) {
                    server.finish(old)
                } else {
                    server.drop(old)
                }
            }
        }
        guard streams.count < Self.streamLimit else { return false }
        streams.append(exchange)
        unsent.append(exchange)
        streamSessions[exchange] = session
        return true
    }

    /// Ends at once every stream whose session is not in `paired` (its device was unpaired, or
    /// every device was): the server finishes it after what is queued and closes its
    /// connection, so the client sees end of file (issue 29).
    ///
    /// Main thread. Never blocks.
    /// - Parameter paired: The token hashes still paired (``Pairing/deviceHashes``).
    /// - Returns: How many streams were ended.
    @discardableResult
    func endStreams(notIn paired: Set<String>) -> Int {
        let revoked = streams.filter { streamSessions[$0].map { !paired.contains($0) } ?? true }
        guard !revoked.isEmpty else { return 0 }
        let ended = Set(revoked)
        streams.removeAll { ended.contains($0) }
        unsent.removeAll { ended.contains($0) }
        for exchange in revoked {
            streamSessions[exchange] = nil
            server.finish(exchange)
        }
        return revoked.count
    }

    /// Queues `bytes` on every stream; a stream that is gone or too far behind is dropped.
    /// - Parameters:
    ///   - bytes: Whole events.
    ///   - picture: Whether `bytes` is a picture, which takes out a picture still waiting whole
    ///     on a slow stream (``HTTPServer/send(_:to:superseding:supersedable:)``).
    ///   - lasting: Whether it carries ended timers (then nothing takes it out).
    func broadcast(_ bytes: [UInt8], picture: Bool = false, lasting: Bool = false) {
        streams.removeAll {
            !server.send(bytes, to: $0, superseding: picture, supersedable: picture && !lasting)
        }
    }

    /// Sends `picture` as one `timers` event to every stream when it changed since the last one
    /// (the time left of a counting or snoozed timer is no change: its deadline says it), and to the
    /// streams that have had none yet in any case; the timers that ended since are added to it
    /// in their last state, once.
    func publish(_ picture: WebPicture) {
        var picture = picture
        let lasting = !ended.isEmpty
        for timer in ended where !picture.timers.contains(where: { $0.isLocal && $0.label == timer.label }) {
            picture.timers.append(timer)
        }
        ended = []
        var steady = picture
        for index in steady.timers.indices where [.counting, .snoozed].contains(steady.timers[index].state) {
            steady.timers[index].remaining = .zero
        }
        let key = KitchenAPI.json(steady)
        let event = Self.event(picture)
        if event.count > Self.eventByteLimit, !oversizeSaid {
            kitchen.say(
                "HTTP: the picture's event is \(event.count) bytes, more than a stream holds (\(Self.eventByteLimit)): "
                    + "the streams close; run fewer timers at once (--max-timers)")
        }
        oversizeSaid = event.count > Self.eventByteLimit
        if key != sentKey {
            sentKey = key
            broadcast(event, picture: true, lasting: lasting)
            unsent = []
        } else if !unsent.isEmpty {
            for exchange in unsent where !server.send(event, to: exchange, superseding: true, supersedable: !lasting) {
                streams.removeAll { $0 == exchange }
            }
            unsent = []
        }
    }

    /// One Server-Sent Event `timers` carrying the picture's JSON (one `data:` line: JSON text
    /// holds no raw newline).
    static func event(_ picture: WebPicture) -> [UInt8] {
        Array("event: timers\ndata: ".utf8) + KitchenAPI.json(picture) + Array("\n\n".utf8)
    }

    /// Sends `bytes` to one stream, dropping it when it is gone.
    func send(_ bytes: [UInt8], to exchange: HTTPExchange) {
        if !server.send(bytes, to: exchange) { streams.removeAll { $0 == exchange } }
    }

    /// Runs the server once more (answers given outside its run go out now).
    func flush() {
        server.run(now: kitchen.clock.now())
        forgetClosed()
    }

    /// Stops listening and closes every connection.
    func close() { server.close() }
}
