import Glibc
import HouseBus
import KitchenWeb
import TestSupport
import Testing

@testable import eggtimer

/// Issue 29 end to end: the HTTP API of a real `eggtimer kitchen --http 127.0.0.1:0` with a plain
/// HTTP client (no browser), every route, and every refusal leaving the timer as it was.
@Suite struct KitchenWebEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    @Test func aPairedClientCanUseEveryRoute() throws {
        let web = try WebKitchen()
        let page = try web.request("GET", "/", session: false)
        #expect(page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true)
        let unpaired = try web.request("GET", "/api/session", session: false)
        #expect(unpaired.status == 200 && WebKitchen.json(unpaired)?["paired"] == .bool(false), "\(unpaired.text)")

        try web.pair()
        let session = try web.request("GET", "/api/session")
        #expect(WebKitchen.json(session)?["paired"] == .bool(true) && web.csrf.count == 64, "\(session.text)")
        let picture = try web.request("GET", "/api/timers")
        #expect(picture.status == 200 && picture.header("Content-Type") == "application/json")
        #expect(
            WebKitchen.json(picture)?["states"]?.arrayValue?.compactMap(\.stringValue) == KitchenAPI.stateWords,
            "\(picture.text)")
        #expect(WebKitchen.json(picture)?["presets"]?.arrayValue?.count == 3)

        let stream = try web.openStream()
        let first = try stream.events(until: soon())
        #expect(first.first?.event == "timers" && WebKitchen.json(first[0])?["node"]?.stringValue == web.node)

        try web.startTimer("pasta", seconds: 600)
        #expect(WebKitchen.awaitState("counting", of: "pasta", on: stream, until: soon()))
        let listed = try web.request("GET", "/api/timers")
        #expect(WebKitchen.state(of: "pasta", in: WebKitchen.json(listed)) == "counting", "\(listed.text)")

        // Each action answers the timer's new state, as its socket says it.
        for (action, body, state) in [
            ("pause", "{}", "paused"), ("resume", "{}", "counting"), ("add", "{\"seconds\":-60}", "counting"),
        ] {
            let done = try web.request("POST", web.actionPath("pasta", action), json: body)
            #expect(
                done.status == 200 && WebKitchen.json(done)?["state"]?.stringValue == state, "\(action): \(done.text)")
            #expect(web.state("pasta")?.rawValue == state, "\(action)")
        }
        let left = WebKitchen.json(try web.request("GET", "/api/timers"))?["timers"]?.arrayValue?.first?["remaining_s"]
        #expect((left?.numberValue ?? 0) < 541, "add -60 moved the deadline: \(String(describing: left))")
        let snooze = try web.request("POST", web.actionPath("pasta", "snooze"), json: "{}")
        #expect(snooze.status == 409, "a counting timer cannot snooze: \(snooze.text)")
        let none = try web.request("POST", "/api/ack-all", json: "{}")
        #expect(
            none.status == 200
                && none.text == #"{"acknowledged":0,"stopped":[],"silent":[],"message":null}"#, "\(none.text)")

        // A form post (the page without JavaScript) is answered 303 to the page.
        let form = try web.request("POST", web.actionPath("pasta", "cancel"), form: "csrf=\(web.csrf)", withCSRF: false)
        #expect(form.status == 303 && form.header("Location") == "/", "\(form.status) \(form.text)")
        #expect(web.state("pasta") == .cancelled || web.state("pasta") == nil)
        let gone = try web.request("POST", web.actionPath("nothing", "ack"), json: "{}")
        #expect(gone.status == 404, "\(gone.text)")

        let unpair = try web.request("POST", "/api/unpair", json: "{}")
        #expect(unpair.status == 200 && unpair.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try web.request("GET", "/api/timers").status == 401, "the token is forgotten")
    }

    @Test(arguments: [
        ("DELETE", "/api/timers", "GET, HEAD, POST"), ("GET", "/api/ack-all", "POST"),
        ("POST", "/api/events", "GET, HEAD"), ("PUT", "/", "GET, HEAD"), ("GET", "/api/pair", "POST"),
        ("GET", "/api/timers/n/pasta/ack", "POST"), ("HEAD", "/api/ack-all", "POST"),
    ])
    func aKnownPathWithAnotherMethodIs405(method: String, path: String, allow: String) throws {
        let web = try WebKitchen()
        try web.pair()
        let response = try web.request(method, path)
        #expect(response.status == 405 && response.header("Allow") == allow, "\(method) \(path): \(response.text)")
    }

    /// HEAD wherever GET: the GET's status and fields, no body; `/api/events` its head and no
    /// stream (issue 29).
    @Test func headIsAnsweredAsGetWithoutABody() throws {
        let web = try WebKitchen()
        try web.pair()
        for path in ["/", "/api/timers", "/api/events"] {
            let get = path == "/api/events" ? nil : try web.request("GET", path)
            let connection = try HTTPTestConnection(port: web.port)
            try connection.sendRequest(method: "HEAD", path: path, headers: [HTTPTestField("Cookie", web.cookie)])
            let head = try connection.readHead(until: .now + .seconds(10))
            #expect(head.status == 200, "HEAD \(path): \(head.status)")
            if let get {
                #expect(head.header("Content-Type") == get.header("Content-Type"), "HEAD \(path)")
                #expect(head.header("Content-Length") == String(get.body.count), "HEAD \(path)")
                #expect(!get.body.isEmpty)
            } else {
                #expect(head.header("Content-Type") == "text/event-stream")
            }
            #expect(head.header("Cache-Control") == "no-store", "HEAD \(path)")
            // Connection: close: the server closes after the head, with not one body byte.
            #expect(connection.bufferedBytes == 0, "HEAD \(path) sent a body")
            #expect(!connection.readSome(until: .now + .seconds(10)), "HEAD \(path) sent a body")
            #expect(connection.isClosed, "HEAD \(path) left open")
        }
    }

    @Test func unknownPathsAre404AndAnOversizedBodyIs413() throws {
        let web = try WebKitchen()
        try web.pair()
        for path in [
            "/api", "/api/timers/", "/etc/passwd", "/api/timers/a/b/explode", "/../api/timers", "//api/timers",
        ] {
            let response = try web.request("GET", path)
            #expect(response.status == 404, "\(path): \(response.status)")
        }
        let huge = "{\"start\":\"" + String(repeating: "x", count: 20_000) + "\"}"
        let refused = try web.request("POST", "/api/timers", json: huge)
        #expect(refused.status == 413, "\(refused.status) \(refused.text)")
        // The server's own refusal, worded as the API's (issue 29).
        #expect(refused.text == #"{"error":"body too large (at most \#(RequestGuard.bodyLimit) bytes)"}"#)
        #expect(refused.header("Content-Type") == "application/json")
        #expect(refused.header("Cache-Control") == "no-store")
        #expect(refused.header("X-Content-Type-Options") == "nosniff")
        #expect(web.kitchen.stdout.contains("started") == false, "nothing started")
    }

    /// Each bad request against a counting timer: its status, and the timer still counting.
    @Test func refusedRequestsChangeNothing() throws {
        let web = try WebKitchen()
        try web.pair()
        try web.startTimer("pasta", seconds: 600)
        let cancel = web.actionPath("pasta", "cancel")
        let cases: [(String, HTTPTestResponse)] = [
            ("no cookie", try web.request("POST", cancel, json: "{}", session: false)),
            (
                "a wrong token",
                try web.request(
                    "POST", cancel, json: "{}", session: false,
                    headers: [
                        HTTPTestField("Cookie", "eggtimer_session=" + String(repeating: "0", count: 64)),
                        HTTPTestField("X-CSRF-Token", web.csrf),
                    ])
            ),
            ("no CSRF token", try web.request("POST", cancel, json: "{}", withCSRF: false)),
            (
                "a wrong CSRF token",
                try web.request(
                    "POST", cancel, json: "{}", withCSRF: false,
                    headers: [HTTPTestField("X-CSRF-Token", String(repeating: "f", count: 64))])
            ),
            (
                "a foreign Origin",
                try web.request("POST", cancel, json: "{}", headers: [HTTPTestField("Origin", "http://evil.example")])
            ),
            (
                "a foreign Host",
                try web.request(
                    "POST", cancel, json: "{}", headers: [HTTPTestField("Host", "evil.example:\(web.port)")])
            ),
            ("ack-all without CSRF", try web.request("POST", "/api/ack-all", json: "{}", withCSRF: false)),
        ]
        let expected = [401, 401, 403, 403, 403, 403, 403]
        for ((name, response), status) in zip(cases, expected) {
            #expect(response.status == status, "\(name): \(response.status) \(response.text)")
            #expect(WebKitchen.json(response)?["error"]?.stringValue?.isEmpty == false, "\(name): \(response.text)")
            #expect(web.state("pasta") == .counting, "\(name) changed nothing")
        }
        let unpairedRead = try web.request("GET", "/api/timers", session: false)
        #expect(unpairedRead.status == 401 && !unpairedRead.text.contains("pasta"), "no picture for a stranger")
        let stranger = try web.request("GET", "/api/events", session: false)
        #expect(stranger.status == 401, "no stream for a stranger")
        let start = try web.request("POST", "/api/timers", json: "{\"start\":\"soft\"}", withCSRF: false)
        #expect(start.status == 403 && web.state("Soft") == nil, "no start without CSRF")
    }

    @Test(arguments: [
        ("{\"start\":\"soft --on-done x\"}", 400), ("{\"start\":\"-3m\"}", 400), ("{\"seconds\":0}", 400),
        ("{\"seconds\":99999999}", 400), ("{\"start\":\"soft\",\"seconds\":5}", 400), ("{}", 400),
        ("{\"start\":\"nonsense\"}", 400), ("{\"seconds\":60,\"label\":\"a/b\"}", 400),
    ])
    func aBadStartIsOneLine400AndStartsNothing(body: String, status: Int) throws {
        let web = try WebKitchen()
        try web.pair()
        let response = try web.request("POST", "/api/timers", json: body)
        #expect(response.status == status, "\(body): \(response.text)")
        let error = WebKitchen.json(response)?["error"]?.stringValue ?? ""
        #expect(!error.isEmpty && !error.contains("\n"), "\(body): \(response.text)")
        let picture = WebKitchen.json(try web.request("GET", "/api/timers"))
        #expect(picture?["timers"]?.arrayValue?.isEmpty == true, "\(body) started nothing")
    }

    @Test func aHostNamedByHTTPHostIsAllowedAndOthersAreNot() throws {
        let web = try WebKitchen(config: "http-host = kitchen.lan, eggs\n")
        try web.pair()
        for (host, status) in [
            ("kitchen.lan:\(web.port)", 200), ("EGGS:\(web.port)", 200), ("localhost:\(web.port)", 200),
            ("kitchen.lan", 403), ("kitchen.lan:1", 403), ("attacker.example:\(web.port)", 403),
        ] {
            let response = try web.request("GET", "/api/timers", headers: [HTTPTestField("Host", host)])
            #expect(response.status == status, "Host \(host): \(response.status) \(response.text)")
        }
    }

    @Test func formPostsWithoutJavaScriptAreAnswered303OrThePageWithTheError() throws {
        let web = try WebKitchen()
        let wrong = try web.request("POST", "/api/pair", form: "code=000000", session: false)
        #expect(wrong.status == 403 && wrong.header("Content-Type")?.hasPrefix("text/html") == true, "\(wrong.text)")
        try web.pair()
        let started = try web.request("POST", "/api/timers", form: "start=Soft&csrf=\(web.csrf)", withCSRF: false)
        #expect(started.status == 303 && started.header("Location") == "/", "\(started.status) \(started.text)")
        #expect(web.state("Soft") == .counting, "the egg button started Soft")
        let bad = try web.request("POST", "/api/timers", form: "start=nonsense&csrf=\(web.csrf)", withCSRF: false)
        #expect(bad.status == 400 && bad.header("Content-Type")?.hasPrefix("text/html") == true, "\(bad.text)")
        let taken = try web.request(
            "POST", "/api/timers", form: "start=5m&label=Soft&csrf=\(web.csrf)", withCSRF: false)
        #expect(taken.status == 409 && taken.header("Content-Type")?.hasPrefix("text/html") == true, "\(taken.text)")
        let acked = try web.request("POST", "/api/ack-all", form: "csrf=\(web.csrf)", withCSRF: false)
        #expect(acked.status == 303, "\(acked.text)")
        #expect(web.state("Soft") == .counting, "nothing rang, nothing changed")
    }

    @Test func aKitchenThatCannotServeExitsWithOneLine() throws {
        let house = House(config: "")
        writeFile(house.scratch + "/plain.txt", Array("not a certificate\n".utf8), mode: 0o600)
        let missing = house.scratch + "/missing.pem"
        // A named pipe with no writer: opened as a file it would wait for ever.
        let fifo = house.scratch + "/cert.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [([String], Int32, String)] = [
            (["--http-cert", missing], 64, "eggtimer: --http-cert needs --http-key\n"),
            (["--http-key", missing], 64, "eggtimer: --http-key needs --http-cert\n"),
            (
                ["--http-cert", missing, "--http-key", missing], 66,
                "eggtimer: --http-cert: cannot read '\(missing)': No such file or directory\n"
            ),
            (
                ["--http-cert", house.scratch + "/plain.txt", "--http-key", missing], 66,
                "eggtimer: --http-cert: '\(house.scratch)/plain.txt' is not PEM text\n"
            ),
            (
                ["--http-cert", fifo, "--http-key", missing], 66,
                "eggtimer: --http-cert: cannot read '\(fifo)': not a regular file (a named pipe)\n"
            ),
        ]
        for (extra, status, message) in cases {
            let run = house.command(["kitchen", "--keys", "none", "--http", "127.0.0.1:0"] + extra)
            #expect(run.termination == .exited(status), "\(extra): \(run.stderr)")
            #expect(run.stderr == message, "\(extra)")
        }
        // The port of a running kitchen (another house's) is taken: 69, one line.
        let web = try WebKitchen()
        let taken = house.command(["kitchen", "--keys", "none", "--http", "127.0.0.1:\(web.port)"])
        #expect(taken.termination == .exited(69), "\(taken.stderr)")
        #expect(
            taken.stderr.hasPrefix("eggtimer: kitchen: --http 127.0.0.1:\(web.port): ")
                && taken.stderr.split(separator: "\n").count == 1, "\(taken.stderr)")
    }
}
