import ControlChannel
import HouseBus
import KitchenWeb
import SystemKit
import TimerModel
import TimerText
import WebServer

// The routes of the kitchen's HTTP API carried out: every request through the guard, then its
// route; a start queued for the kitchen, every other route answered at once.

extension KitchenWebFront {
    /// The server's handler: the guard's checks, then the route.
    ///
    /// Called inside the server's `run`, on the loop's thread. Never blocks: a start or an action
    /// on this box's timers is queued for the kitchen and answered later.
    func handle(_ request: HTTPRequest, _ exchange: HTTPExchange) -> HTTPReply {
        let now = kitchen.clock.now()
        let resolution = KitchenAPI.route(method: request.method, path: request.path)
        var needs = RequestGuard.Needs.open
        if case .route(let route) = resolution {
            if route == .pair {
                needs = .pairing
            } else if route.needsSession {
                needs = route.changesState ? .change : .paired
            }
        }
        let verdict = requestGuard.check(request, needs: needs, pairing: &kitchen.pairing, at: now)
        defer { kitchen.savePairing() }
        guard case .allowed(let allowed) = verdict else {
            if case .refused(let response) = verdict { return .response(refused(response, request)) }
            return .response(KitchenAPI.error(500, "no verdict"))
        }
        let reply: HTTPReply
        if case .route(let route) = resolution {
            reply = routeReply(route, request, exchange, allowed)
        } else {
            reply = .response(KitchenAPI.response(to: resolution) ?? KitchenAPI.error(404, "no such path"))
        }
        // A stale cookie is cleared by every answer but one that sets a new cookie (a pairing).
        guard allowed.staleCookie, case .response(var response) = reply,
            !response.headers.contains(where: { $0.name == "Set-Cookie" })
        else { return reply }
        response.headers.append(RequestGuard.clearingCookie(tls: request.isTLS))
        return .response(response)
    }

    /// The answer of `route` to a request the guard allowed.
    ///
    /// On the loop's thread, inside the server's `run`; never blocks.
    private func routeReply(
        _ route: KitchenAPI.Route, _ request: HTTPRequest, _ exchange: HTTPExchange, _ allowed: RequestGuard.Allowed
    ) -> HTTPReply {
        let now = kitchen.clock.now()
        switch route {
        case .page:
            let paired = allowed.session != nil
            return .response(
                WebPage.page(
                    WebPage.View(
                        paired: paired, csrf: allowed.session?.csrf, picture: paired ? kitchen.webPicture : nil,
                        message: nil, startID: Self.newStartID())))
        case .asset("/alarm.mp3"):
            return .response(WebPage.alarmSound(configured: kitchen.settings.soundPath))
        case .asset(let path):
            return .response(WebPage.asset(path: path) ?? KitchenAPI.error(404, "no such path"))
        case .session:
            guard let session = allowed.session else {
                return .response(KitchenAPI.json(200, KitchenAPI.object([("paired", .bool(false))])))
            }
            return .response(
                KitchenAPI.json(
                    200,
                    KitchenAPI.object([
                        ("paired", .bool(true)), ("csrf", .string(session.csrf)),
                        ("node", .string(kitchen.settings.bus.nodeName)),
                    ])))
        case .pair:
            let response = pair(request, allowed, at: now)
            return .response(allowed.isForm && response.status >= 400 ? formAnswer(response, csrf: nil) : response)
        case .unpair:
            if let session = allowed.session { _ = kitchen.pairing.unpair(token: session.token) }
            let clear = RequestGuard.clearingCookie(tls: request.isTLS)
            return .response(
                allowed.isForm
                    ? HTTPResponse(status: 303, headers: KitchenAPI.seeThePage.headers + [clear])
                    : KitchenAPI.json(200, KitchenAPI.object([("paired", .bool(false))]), extra: [clear]))
        case .timers: return .response(KitchenAPI.json(200, KitchenAPI.json(kitchen.webPicture)))
        case .events:
            // HEAD: the stream's head alone (no stream is held open for a request with no body).
            if request.method == "HEAD" {
                let fields = [HTTPHeader("Content-Type", "text/event-stream")] + KitchenAPI.securityHeaders
                return .response(HTTPResponse(status: 200, headers: fields))
            }
            guard let hash = allowed.session.flatMap({ kitchen.pairing.tokenHash($0.token) }) else {
                return .response(KitchenAPI.error(503, "SHA-256 is not available: no event stream"))
            }
            guard addStream(exchange, session: hash) else {
                return .response(
                    KitchenAPI.error(
                        503, "too many event streams (\(Self.streamLimit))", extra: [HTTPHeader("Retry-After", "5")]))
            }
            // Closed when it ends (its device unpaired): the client sees end of file.
            return .events(headers: KitchenAPI.securityHeaders + [HTTPHeader("Connection", "close")])
        case .start:
            let csrf = allowed.isForm ? allowed.session?.csrf : nil
            switch startText(allowed.fields, keys: request.headers.filter { $0.name == "idempotency-key" }.map(\.value))
            {
            case .failure(let problem):
                let response = KitchenAPI.error(400, problem.text)
                return .response(allowed.isForm ? formAnswer(response, csrf: csrf) : response)
            case .success(let text):
                if let csrf { formCSRF[exchange] = csrf }
                pendingStarts.append(PendingStart(exchange: exchange, request: text, form: allowed.isForm))
                return .later
            }
        case .action(let node, let label, let action):
            guard let response = act(action, node: node, label: label, fields: allowed.fields, exchange, allowed)
            else { return .later }
            return .response(allowed.isForm ? formAnswer(response, csrf: allowed.session?.csrf) : response)
        case .acknowledgeAll:
            let asked = askHouseToAcknowledge()
            if asked > 0 { houseAsked[exchange] = asked }
            queue(.acknowledgeAll, exchange, allowed)
            return .later
        }
    }

    /// Queues an action on this box's timers for the kitchen's core, after the round (a form
    /// post's CSRF token kept for its error page).
    private func queue(_ action: KitchenCore.Action, _ exchange: HTTPExchange, _ allowed: RequestGuard.Allowed) {
        if allowed.isForm, let csrf = allowed.session?.csrf { formCSRF[exchange] = csrf }
        pendingActions.append(PendingAction(exchange: exchange, action: action, form: allowed.isForm))
    }

    /// The start text and label of `POST /api/timers`' fields (``KitchenAPI/startWord(start:seconds:secondsGiven:)``),
    /// words as any start's: the kitchen parses them by the one grammar (`StartRequest.parse`, the label given
    /// apart), which refuses an option anywhere.
    ///
    /// Its id (issue 42) is the `Idempotency-Key` header's, else the field `id`'s (the page's
    /// forms without JavaScript); an empty field is none. Two different ids (two header fields,
    /// or a header and a field) are refused: either could be the one a retry sends.
    /// - Parameters:
    ///   - fields: The request's fields.
    ///   - keys: The `Idempotency-Key` header fields' values, as sent.
    /// - Returns: The text, or the problem (one line naming the bad field or word).
    private func startText(_ fields: RequestGuard.Fields, keys: [String]) -> Result<
        StartRequestText, KitchenAPI.Problem
    > {
        let field = fields.string("id").flatMap { $0.isEmpty ? nil : $0 }
        guard Set(keys + (field.map { [$0] } ?? [])).count <= 1 else {
            return .failure(KitchenAPI.Problem(text: "two different request ids (Idempotency-Key, id): give one"))
        }
        let key = keys.first
        var id: RequestID?
        if let given = key ?? field {
            guard let checked = RequestID(given) else {
                return .failure(
                    KitchenAPI.Problem(
                        text: "\(key == nil ? "id" : "Idempotency-Key") '\(given.controlCharactersAsQuestionMarks())': "
                            + "give 1 to \(RequestID.limit) letters, digits, '-', '_', '.' or ':'"))
            }
            id = checked
        }
        let start: String
        switch KitchenAPI.startWord(
            start: fields.string("start"), seconds: fields.integer("seconds"),
            secondsGiven: fields.values["seconds"] != nil)
        {
        case .success(let word): start = word
        case .failure(let problem): return .failure(problem)
        }
        let label = fields.string("label").flatMap { $0.isEmpty ? nil : $0 }
        return .success(StartRequestText(start: start, label: label, id: id))
    }

    /// A fresh id for the page's start forms (16 random bytes, 32 hex digits); nil when
    /// `getrandom` fails (the forms then carry none).
    static func newStartID() -> String? { (try? randomBytes(16)).map { RequestID(randomBytes: $0).text } }

    /// A refusal of the guard, logged once per status for the kitchen's life.
    private func refused(_ response: HTTPResponse, _ request: HTTPRequest) -> HTTPResponse {
        if refusalsSaid.insert(response.status).inserted {
            let text = String(decoding: response.body, as: UTF8.self)
            kitchen.say(
                "HTTP: refused \(request.method) \(request.path.controlCharactersAsQuestionMarks()) from \(request.peer): "
                    + "\(response.status) \(text) (said once)")
        }
        return response
    }

    /// `POST /api/pair`.
    private func pair(_ request: HTTPRequest, _ allowed: RequestGuard.Allowed, at now: ContinuousClock.Instant)
        -> HTTPResponse
    {
        // No code in the body (one sent in the URL's query, which is never read, or none): a
        // mistake of the client's, not a guess, so it costs none of the code's five tries.
        guard let code = allowed.fields.string("code"), !code.isEmpty else {
            return KitchenAPI.error(400, "send the pairing code in the body (code=NNNNNN), never in the URL")
        }
        switch kitchen.pairing.pair(code: code, peer: request.peer, at: now) {
        case .paired(let token):
            var cookie = "\(RequestGuard.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
            if request.isTLS { cookie += "; Secure" }
            let set = HTTPHeader("Set-Cookie", cookie)
            if allowed.isForm { return HTTPResponse(status: 303, headers: KitchenAPI.seeThePage.headers + [set]) }
            let csrf = kitchen.pairing.csrf(token: token) ?? ""
            return KitchenAPI.json(
                200, KitchenAPI.object([("paired", .bool(true)), ("csrf", .string(csrf))]), extra: [set])
        case .wrong(let triesLeft): return KitchenAPI.wrongCode(triesLeft: triesLeft)
        case .noValidCode: return KitchenAPI.error(403, "no pairing code is valid: run eggtimer kitchen --pair")
        case .rateLimited:
            return KitchenAPI.error(
                429, "too many wrong codes or tokens: try again in a minute", extra: [HTTPHeader("Retry-After", "60")])
        case .failed(let text): return KitchenAPI.error(503, text)
        }
    }

    /// `POST /api/timers/NODE/LABEL/ACTION`: a local timer through the kitchen (queued: nil, the
    /// exchange answered once the timer replied), another node's on its MQTT command topic.
    private func act(
        _ action: KitchenAPI.Action, node: String, label: String, fields: RequestGuard.Fields,
        _ exchange: HTTPExchange, _ allowed: RequestGuard.Allowed
    ) -> HTTPResponse? {
        let command: Command
        switch KitchenAPI.command(action, seconds: fields.integer("seconds"), given: fields.values["seconds"] != nil) {
        case .success(let made): command = made
        case .failure(let problem): return KitchenAPI.error(400, problem.text)
        }
        let myNode = kitchen.settings.bus.nodeName
        if node == myNode, kitchen.core.isLocal(label: label) {
            queue(.command(command, label: label), exchange, allowed)
            return nil
        }
        if let bus = kitchen.bus, house[HousePicture.Key(node: node, label: label)] != nil {
            let topics = TimerTopics(prefix: kitchen.settings.bus.prefix, node: node, label: label)
            bus.client.publish(BusMessage(topic: topics.command, text: command.text))
            kitchen.say(
                "HTTP: \(command.text) sent to \(node.controlCharactersAsQuestionMarks())/\(label.controlCharactersAsQuestionMarks())"
            )
            return KitchenAPI.json(202, KitchenAPI.object([("sent", .bool(true))]))
        }
        return KitchenAPI.error(404, "no timer \(node)/\(label)")
    }

    /// Answers a start the kitchen carried out: 201 with the timer, or the refusal's status (busy
    /// 503 with `Retry-After: 5`, a label in use 409, a failure 502); a form post 303 either way.
    func answer(_ exchange: HTTPExchange, _ outcome: KitchenCore.Outcome, form: Bool) {
        guard waiting.remove(exchange) != nil else { return }
        let response: HTTPResponse
        switch outcome {
        case .started(let status):
            response = KitchenAPI.json(
                201, KitchenAPI.json(KitchenAPI.timer(status, node: kitchen.settings.bus.nodeName)))
        case .refused(let refusal):
            switch refusal.kind {
            case .busy: response = KitchenAPI.error(503, refusal.text, extra: [HTTPHeader("Retry-After", "5")])
            case .usage: response = KitchenAPI.error(409, refusal.text)
            case .unavailable, .failed, .configuration, .noInput, .dataError, .system:
                response = KitchenAPI.error(502, refusal.text)
            }
        }
        let csrf = formCSRF.removeValue(forKey: exchange)
        server.answer(exchange, with: form ? formAnswer(response, csrf: csrf) : response)
    }

    /// With `--mqtt`, asks every house timer (another node's) that "acknowledge all" covers
    /// (``TimerState/isCoveredByAcknowledgeAll``) to acknowledge, on its command topic.
    /// - Returns: How many were asked.
    func askHouseToAcknowledge() -> Int {
        guard let bus = kitchen.bus else { return 0 }
        var count = 0
        for (key, timer) in house.entries.sorted(by: { ($0.key.node, $0.key.label) < ($1.key.node, $1.key.label) })
        where timer.timer.state.isCoveredByAcknowledgeAll {
            let topics = TimerTopics(prefix: kitchen.settings.bus.prefix, node: key.node, label: key.label)
            bus.client.publish(BusMessage(topic: topics.command, text: Command.acknowledge.text))
            count += 1
        }
        return count
    }

    /// Answers an action the kitchen carried out on this box's timers.
    ///
    /// One timer's command: 200 with its new state (an acknowledgement adds the page's message,
    /// naming what it stopped and whether it was ever heard), 409 with its refusal or silence,
    /// 404 when it is gone. `POST /api/ack-all`: how many were acknowledged (with the house's
    /// asked), this box's timers stopped and those never heard, the log's `ack-all` line; 409
    /// with their lines when none was and a ringing timer did not answer. A form post gets 303
    /// (or its error page).
    func answerAction(
        _ exchange: HTTPExchange, _ answer: KitchenCore.ActionAnswer, _ outcomes: [Kitchen.TouchedOutcome], form: Bool
    ) {
        guard waiting.remove(exchange) != nil else { return }
        let asked = houseAsked.removeValue(forKey: exchange) ?? 0
        let csrf = formCSRF.removeValue(forKey: exchange)
        let response: HTTPResponse
        switch answer.action {
        case .acknowledgeAll:
            let stopped = zip(answer.touched, outcomes).compactMap { touched, outcome in
                outcome.reply.map { KitchenCore.stopped(label: outcome.label, before: touched.before, reply: $0) }
            }
            let text = KitchenCore.stoppedText(stopped)
            if let text { kitchen.say("HTTP: ack-all: " + text) }
            let count = stopped.count + asked
            // A ringing timer that did not answer is not "nothing rings" (its line is logged).
            let failed = outcomes.filter { $0.reply == nil }
            if count == 0, failed.isEmpty { kitchen.say("HTTP: ack-all: nothing rings") }
            if count == 0, !failed.isEmpty {
                response = KitchenAPI.error(409, failed.map(\.line).joined(separator: "; "))
                break
            }
            let body = KitchenAPI.acknowledged(
                count, stopped: stopped.map(\.label), silent: stopped.filter(\.silent).map(\.label), message: text)
            response = KitchenAPI.json(200, body)
        case .command(let command, let label):
            guard let touched = answer.touched.first, let outcome = outcomes.first else {
                response = KitchenAPI.error(404, "no timer \(kitchen.settings.bus.nodeName)/\(label)")
                break
            }
            guard let reply = outcome.reply else {
                response = KitchenAPI.error(409, outcome.line)
                break
            }
            guard let status = TimerStatus(line: reply) else {
                response = KitchenAPI.json(200, KitchenAPI.object([("done", .bool(true))]))
                break
            }
            var timer = KitchenAPI.value(KitchenAPI.timer(status, node: kitchen.settings.bus.nodeName))
            if command == .acknowledge, case .object(let members) = timer {
                let stopped = KitchenCore.stopped(label: label, before: touched.before, reply: reply)
                timer = .object(members + [JSONMember("message", .string(KitchenCore.stoppedText([stopped]) ?? ""))])
            }
            response = KitchenAPI.json(200, timer.json())
        case .snoozeRinging, .addToNewest, .cancelNewest:
            response = KitchenAPI.error(500, "not an action of the HTTP API")
        }
        server.answer(exchange, with: form ? formAnswer(response, csrf: csrf) : response)
    }
}
