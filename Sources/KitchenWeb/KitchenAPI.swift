import TimerCore
package import TimerModel
package import WebServer

/// The kitchen's HTTP API as pure functions: a request's method and path to a ``Route``, and the
/// JSON responses of the man page's HTTP API section.
///
/// Fixed routes only: anything else is 404, a known path with another method 405 with `Allow`
/// (``route(method:path:)``). The checks (Host, cookie, CSRF, Origin, body) are RequestGuard's;
/// the kitchen (the executable's Kitchen+Web.swift) carries the routes out. Pure; any thread.
package enum KitchenAPI {
    /// One of the fixed routes, its path segments decoded.
    package enum Route: Equatable, Sendable {
        /// `GET /`: the page.
        case page
        /// `GET /app.js`, `/app.css`, `/manifest.webmanifest`, `/icon.svg`, `/alarm.mp3`: a
        /// static asset (its path).
        case asset(String)
        /// `GET /api/session`: whether this device is paired, and its CSRF token.
        case session
        /// `POST /api/pair`: a pairing code for a session cookie.
        case pair
        /// `POST /api/unpair`: forget this device's token.
        case unpair
        /// `GET /api/timers`: the picture.
        case timers
        /// `POST /api/timers`: start a timer.
        case start
        /// `POST /api/timers/NODE/LABEL/ACTION`: act on one timer (node and label decoded).
        case action(node: String, label: String, Action)
        /// `POST /api/ack-all`: acknowledge every ringing timer.
        case acknowledgeAll
        /// `GET /api/events`: the event stream of the picture.
        case events

        /// Whether the route needs a paired session (all but the page, its assets other than
        /// the alarm sound, pairing and the session's question).
        package var needsSession: Bool {
            switch self {
            case .page, .session, .pair: false
            case .asset(let path): path == "/alarm.mp3"
            default: true
            }
        }

        /// Whether the route changes state (a POST: CSRF and Origin are checked).
        package var changesState: Bool {
            switch self {
            case .pair, .unpair, .start, .action, .acknowledgeAll: true
            case .page, .asset, .session, .timers, .events: false
            }
        }
    }

    /// What a request may do to one timer: the last segment of `/api/timers/NODE/LABEL/ACTION`.
    package enum Action: String, Equatable, Sendable, CaseIterable {
        /// Stop its alarm.
        case ack
        /// Silence it and ring again (`seconds` 1...3596400, optional).
        case snooze
        /// End it.
        case cancel
        /// Freeze its time left.
        case pause
        /// Count on.
        case resume
        /// Move its deadline (`seconds` -86400...86400, required).
        case add
    }

    /// How a method and path resolve.
    package enum Resolution: Equatable, Sendable {
        /// A route.
        case route(Route)
        /// No such path: 404.
        case notFound
        /// A known path, another method: 405 with `Allow` (the methods it takes).
        case methodNotAllowed(allow: [String])
    }

    /// The static assets' paths (served by `WebPage.asset(path:)`).
    package static let assetPaths = ["/app.js", "/app.css", "/manifest.webmanifest", "/icon.svg", "/alarm.mp3"]

    /// The headers on every API response: `Cache-Control: no-store`, `X-Content-Type-Options:
    /// nosniff`, `Referrer-Policy: no-referrer`.
    package static let securityHeaders = [
        HTTPHeader("Cache-Control", "no-store"), HTTPHeader("X-Content-Type-Options", "nosniff"),
        HTTPHeader("Referrer-Policy", "no-referrer"),
    ]

    /// A JSON response: `status`, `application/json`, the security headers and `extra`.
    /// - Parameters:
    ///   - status: The status code.
    ///   - body: The JSON text, UTF-8.
    ///   - extra: More header fields (`Allow`, `Retry-After`, `Set-Cookie`).
    /// - Returns: The response.
    package static func json(_ status: Int, _ body: [UInt8], extra: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPHeader("Content-Type", "application/json")] + securityHeaders + extra,
            body: body)
    }

    /// An error response: `{"error":"<text>"}` (the text JSON-escaped).
    /// - Parameters:
    ///   - status: The status code (4xx, 5xx).
    ///   - text: One line, no final full stop.
    ///   - extra: More header fields.
    /// - Returns: The response.
    package static func error(_ status: Int, _ text: String, extra: [HTTPHeader] = []) -> HTTPResponse {
        json(status, errorBody(text), extra: extra)
    }

    /// The answer to a wrong pairing code: 403 with the error saying the tries the code has left
    /// (the pairing screen shows it as it is) and `tries_left`, the number.
    ///
    /// `wrong pairing code: 4 tries left`, `…: 1 try left`; at 0 the code is gone and the words
    /// say how to get a new one. Pure.
    /// - Parameter triesLeft: The tries the code has left, 0 to `Pairing.codeTries` - 1
    ///   (`Pairing.Outcome.wrong(triesLeft:)`).
    /// - Returns: The response.
    package static func wrongCode(triesLeft: Int) -> HTTPResponse {
        let words =
            switch triesLeft {
            case ...0:
                "wrong pairing code, and that was its last try: get a new code on the kitchen's box"
            case 1: "wrong pairing code: 1 try left"
            default: "wrong pairing code: \(triesLeft) tries left"
            }
        return json(
            403, object([("error", .string(words)), ("tries_left", .number(Double(max(0, triesLeft))))]))
    }

    /// The body of an error response, `{"error":"<text>"}` (the text JSON-escaped).
    /// - Parameter text: One line, no final full stop.
    /// - Returns: The JSON text, UTF-8.
    package static func errorBody(_ text: String) -> [UInt8] { object([("error", .string(text))]) }

    /// The response to a path that resolved to no route: 404 `{"error":"no such path"}`, or 405
    /// `{"error":"method not allowed"}` with `Allow`.
    package static func response(to resolution: Resolution) -> HTTPResponse? {
        switch resolution {
        case .route: nil
        case .notFound: error(404, "no such path")
        case .methodNotAllowed(let allow):
            error(405, "method not allowed", extra: [HTTPHeader("Allow", allow.joined(separator: ", "))])
        }
    }

    /// A form post's answer: 303 to `/` (the page shows the outcome).
    package static let seeThePage = HTTPResponse(
        status: 303, headers: [HTTPHeader("Location", "/")] + securityHeaders, body: [])
}

extension KitchenAPI {
    /// Why an action's `seconds` was refused: one line.
    package struct Problem: Error, Equatable {
        /// The line.
        package let text: String

        /// The problem `text`.
        package init(text: String) { self.text = text }
    }

    /// The command of `action` with its `seconds`, range-checked before any arithmetic.
    /// - Parameters:
    ///   - action: The action.
    ///   - seconds: The `seconds` field as an integer; nil when absent or not an integer.
    ///   - given: Whether a `seconds` field was sent at all (to tell a bad one from none).
    /// - Returns: The command, or the problem: `add` needs -86400...86400, `snooze` takes
    ///   1...3596400 or nothing, the others take none. `add` of 0 is refused here as the
    ///   command line refuses it (the timer's socket would answer a protocol error).
    package static func command(_ action: Action, seconds: Int64?, given: Bool) -> Result<Command, Problem> {
        let addLimit = Command.addLimit.components.seconds
        let snoozeLimit = Command.snoozeLimit.components.seconds
        switch action {
        case .add:
            guard let seconds, (-addLimit...addLimit).contains(seconds), seconds != 0 else {
                return .failure(Problem(text: "add needs seconds from -\(addLimit) to \(addLimit), not 0"))
            }
            return .success(.add(.seconds(seconds)))
        case .snooze:
            guard given else { return .success(.snooze(nil)) }
            guard let seconds, (1...snoozeLimit).contains(seconds) else {
                return .failure(Problem(text: "snooze takes seconds from 1 to \(snoozeLimit)"))
            }
            return .success(.snooze(.seconds(seconds)))
        case .ack, .cancel, .pause, .resume:
            guard !given else { return .failure(Problem(text: "\(action.rawValue) takes no seconds")) }
            return .success(
                action == .ack ? .acknowledge : action == .cancel ? .cancel : action == .pause ? .pause : .resume)
        }
    }
}

extension KitchenAPI {
    /// The longest `seconds` of a start: the longest countdown (`DurationParser.maximum`).
    package static let startSecondsLimit = DurationParser.maximum.components.seconds

    /// The first word of a start request from `POST /api/timers`' fields: `start` (a preset
    /// name or a one-word duration, as the kitchen's `start` takes it) or `seconds`, not both.
    /// - Parameters:
    ///   - start: The `start` field; nil when absent.
    ///   - seconds: The `seconds` field as an integer; nil when absent or not an integer.
    ///   - secondsGiven: Whether a `seconds` field was sent at all.
    /// - Returns: The word (`soft`, `3m40`, `225s`), or the problem: neither or both given,
    ///   `seconds` outside 1...``startSecondsLimit``, a `start` with a space or tab in it.
    package static func startWord(start: String?, seconds: Int64?, secondsGiven: Bool) -> Result<String, Problem> {
        let start = start.flatMap { $0.isEmpty ? nil : $0 }
        switch (start, secondsGiven) {
        case (nil, false):
            return .failure(Problem(text: "no start: send start=soft, or seconds=225 (or start=3m45) with label=pasta"))
        case (_?, true): return .failure(Problem(text: "send start or seconds, not both"))
        case (nil, true):
            guard let seconds, (1...startSecondsLimit).contains(seconds) else {
                return .failure(Problem(text: "seconds needs a whole number from 1 to \(startSecondsLimit)"))
            }
            return .success("\(seconds)s")
        case (let word?, false):
            return .success(word)
        }
    }
}
