import ControlChannel
import Glibc
import HouseBus
import TestSupport
import TimerModel

@testable import TimerEngine
@testable import eggtimer

/// A real `eggtimer kitchen --http 127.0.0.1:0` in a private house (runtime folder, state folder,
/// config file with a file PCM: the kitchen harness, ``House``), its port read from its log, and a
/// paired client's cookie and CSRF token once ``pair()`` ran.
///
/// Not thread-safe: one test thread owns it (the clients it makes may run on others).
final class WebKitchen {
    let house: House
    let kitchen: PipedChild
    /// The port the kitchen's server took.
    let port: UInt16
    /// `eggtimer_session=…` once paired; empty before.
    private(set) var cookie = ""
    /// The session's CSRF token once paired; empty before.
    private(set) var csrf = ""
    /// The kitchen's node name (from `GET /api/session` once paired).
    private(set) var node = ""

    /// Starts the kitchen and waits for its listening line.
    /// - Parameters:
    ///   - config: More config file lines (`soft = 2s`).
    ///   - arguments: More kitchen arguments (`--http-cert`, `--http-key`), made from the house's
    ///     scratch folder.
    /// - Throws: `TestFailure` when it does not come up or says no port.
    init(config: String = "", arguments: (House) -> [String] = { _ in [] }) throws(TestFailure) {
        house = House(config: config)
        kitchen = house.kitchen(["--keys", "none", "--http", "127.0.0.1:0"] + arguments(house))
        guard kitchen.expect("kitchen: listening on", until: .now + .seconds(20)) else {
            throw TestFailure("the kitchen did not start: \(kitchen.stdout)")
        }
        let prefix = "kitchen: HTTP API on http"
        let line = kitchen.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }
        let digits = line?.split(separator: ":").last?.prefix { $0.isNumber }
        guard let digits, let port = UInt16(digits), port > 0 else {
            throw TestFailure("the kitchen said no HTTP port: \(kitchen.stdout)")
        }
        self.port = port
    }

    deinit {
        kill(kitchen.pid, SIGTERM)
        _ = kitchen.finish()
    }

    /// The `Host` field the kitchen accepts.
    var host: String { "127.0.0.1:\(port)" }

    /// One request, with the session's cookie and CSRF token unless told otherwise.
    /// - Parameters:
    ///   - method: `GET`, `POST`, ….
    ///   - path: The target.
    ///   - json: A JSON body (`Content-Type: application/json`); nil for none.
    ///   - form: A form body instead; nil for none.
    ///   - session: Whether to send the cookie.
    ///   - withCSRF: Whether to send `X-CSRF-Token` (a POST with a session).
    ///   - headers: More fields (`Origin`, a foreign `Host`).
    /// - Returns: The response.
    /// - Throws: `TestFailure` from the client.
    func request(
        _ method: String, _ path: String, json: String? = nil, form: String? = nil, session: Bool = true,
        withCSRF: Bool = true, headers: [HTTPTestField] = []
    ) throws(TestFailure) -> HTTPTestResponse {
        var fields = headers
        if session, !cookie.isEmpty { fields.append(HTTPTestField("Cookie", cookie)) }
        if session, withCSRF, method == "POST", !csrf.isEmpty { fields.append(HTTPTestField("X-CSRF-Token", csrf)) }
        var body: [UInt8] = []
        if let json {
            fields.append(HTTPTestField("Content-Type", "application/json"))
            body = Array(json.utf8)
        } else if let form {
            fields.append(HTTPTestField("Content-Type", "application/x-www-form-urlencoded"))
            body = Array(form.utf8)
        }
        return try HTTPTestClient.request(method: method, path: path, headers: fields, body: body, port: port)
    }

    /// A fresh code from `eggtimer kitchen --pair`.
    /// - Throws: `TestFailure` when it prints none.
    func pairingCode() throws(TestFailure) -> String {
        let printed = house.command(["kitchen", "--pair"])
        let words = printed.stdout.split(separator: " ")
        guard printed.stdout.hasPrefix("pairing code "), words.count > 2 else {
            throw TestFailure("kitchen --pair printed no code: \(printed.stdout) \(printed.stderr)")
        }
        return String(words[2].dropLast())
    }

    /// Pairs this client: a code from `--pair`, `POST /api/pair`, the cookie and CSRF token kept,
    /// the node read from `GET /api/session`.
    /// - Throws: `TestFailure` when any step fails.
    func pair() throws(TestFailure) {
        (cookie, csrf) = try pairDevice()
        let session = try request("GET", "/api/session")
        guard let node = Self.json(session)?["node"]?.stringValue else {
            throw TestFailure("no node in the session: \(session.text)")
        }
        self.node = node
    }

    /// Pairs one more device (another phone) without making it this client's.
    /// - Returns: Its `Cookie` value (`eggtimer_session=…`) and CSRF token.
    /// - Throws: `TestFailure` when any step fails.
    func pairDevice() throws(TestFailure) -> (cookie: String, csrf: String) {
        let code = try pairingCode()
        let paired = try request("POST", "/api/pair", json: "{\"code\":\"\(code)\"}", session: false)
        guard paired.status == 200, let set = paired.header("Set-Cookie"),
            let token = set.split(separator: ";").first, let csrf = Self.json(paired)?["csrf"]?.stringValue
        else { throw TestFailure("pairing failed: \(paired.status) \(paired.text)") }
        return (String(token), csrf)
    }

    /// The path of `action` on this box's timer `label`.
    func actionPath(_ label: String, _ action: String) -> String {
        "/api/timers/\(TimerTopics.level(node))/\(TimerTopics.level(label))/\(action)"
    }

    /// The state of timer `label` from its own control socket (not through the API).
    func state(_ label: String) -> TimerState? {
        (try? ControlClient.exchange(
            ControlRequest.status.line, label: ControlServer.socketName(for: label), folder: house.sockets))
            .flatMap(TimerStatus.init(line:))?.state
    }

    /// Starts timer `label` for `seconds` through the API and checks it counts.
    /// - Throws: `TestFailure` when it is not answered 201 counting.
    func startTimer(_ label: String, seconds: Int) throws(TestFailure) {
        let started = try request("POST", "/api/timers", json: "{\"seconds\":\(seconds),\"label\":\"\(label)\"}")
        guard started.status == 201, Self.json(started)?["state"]?.stringValue == "counting" else {
            throw TestFailure("start \(label): \(started.status) \(started.text)")
        }
    }

    /// The body as JSON, or nil.
    static func json(_ response: HTTPTestResponse) -> JSONValue? { JSONValue.parse(response.body) }

    /// The body of a `timers` event as JSON, or nil.
    static func json(_ event: SSEEvent) -> JSONValue? { JSONValue.parse(Array(event.data.utf8)) }

    /// The state of timer `label` in a picture (`GET /api/timers`, an event), or nil.
    static func state(of label: String, in picture: JSONValue?) -> String? {
        picture?["timers"]?.arrayValue?.first { $0["label"]?.stringValue == label }?["state"]?.stringValue
    }

    /// Reads `stream`'s events until one shows timer `label` in `state`.
    /// - Returns: Whether one did before `deadline`.
    static func awaitState(
        _ state: String, of label: String, on stream: HTTPTestConnection, until deadline: ContinuousClock.Instant
    ) -> Bool {
        while ContinuousClock.now < deadline {
            guard let events = try? stream.events(until: deadline), !events.isEmpty else { return false }
            for event in events where event.event == "timers" {
                if Self.state(of: label, in: json(event)) == state { return true }
            }
        }
        return false
    }

    /// Opens `GET /api/events` with the session's cookie on a connection of its own.
    /// - Parameters:
    ///   - source: The client's own address (`127.0.1.7`: another device, as the server takes at
    ///     most 16 connections from one address); nil: 127.0.0.1.
    ///   - cookie: Another device's `Cookie` value (``pairDevice()``); nil: this client's.
    ///   - receiveBuffer: `SO_RCVBUF` in bytes (small: a reader that stops fills it soon); nil:
    ///     the kernel's default.
    /// - Returns: The connection, its request sent.
    /// - Throws: `TestFailure` when it cannot connect or send.
    func openStream(
        from source: String? = nil, cookie: String? = nil, receiveBuffer: Int? = nil
    ) throws(TestFailure) -> HTTPTestConnection {
        let stream = try HTTPTestConnection(port: port, receiveBuffer: receiveBuffer, source: source)
        try stream.sendRequest(
            method: "GET", path: "/api/events",
            headers: [HTTPTestField("Cookie", cookie ?? self.cookie), HTTPTestField("Connection", "keep-alive")])
        return stream
    }

    /// One request from the client address `source` (another device behind its own address),
    /// with the session's cookie and CSRF token.
    /// - Returns: The response.
    /// - Throws: `TestFailure` when it cannot connect, or no whole response comes within 10 s.
    func request(_ method: String, _ path: String, json: String, from source: String) throws(TestFailure)
        -> HTTPTestResponse
    {
        let connection = try HTTPTestConnection(port: port, source: source)
        try connection.sendRequest(
            method: method, path: path,
            headers: [
                HTTPTestField("Cookie", cookie), HTTPTestField("X-CSRF-Token", csrf),
                HTTPTestField("Content-Type", "application/json"),
            ], body: Array(json.utf8))
        return try connection.readResponse(until: .now + .seconds(10))
    }
}
