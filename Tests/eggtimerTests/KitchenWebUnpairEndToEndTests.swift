import Glibc
import TestSupport
import Testing

@testable import eggtimer

/// Issue 29 end to end, after an unpairing: a stale cookie's page loads lock nobody out and are
/// told to clear it, and the event streams of a revoked session end at once.
@Suite struct KitchenWebUnpairEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }
    private let clearing = "eggtimer_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"

    /// A pairing POST without a code in its body (the code sent in the URL's query instead) is a
    /// 400 that costs none of the code's five tries: after six of them the code still pairs.
    @Test func aCodeInTheURLIs400AndCostsNoTry() throws {
        let web = try WebKitchen()
        let code = try web.pairingCode()
        for _ in 0..<6 {
            let refused = try web.request("POST", "/api/pair?code=\(code)", json: "{}", session: false)
            #expect(refused.status == 400 && refused.text.contains("in the body"), "\(refused.status) \(refused.text)")
        }
        let paired = try web.request("POST", "/api/pair", json: "{\"code\":\"\(code)\"}", session: false)
        #expect(paired.status == 200, "\(paired.status) \(paired.text)")
    }

    /// A second device paired with a fresh code: its cookie (`eggtimer_session=…`) and CSRF token.
    private func pairAnother(_ web: WebKitchen) throws -> (cookie: String, csrf: String) {
        let code = try web.pairingCode()
        let paired = try web.request("POST", "/api/pair", json: "{\"code\":\"\(code)\"}", session: false)
        guard paired.status == 200, let token = paired.header("Set-Cookie")?.split(separator: ";").first,
            let csrf = WebKitchen.json(paired)?["csrf"]?.stringValue
        else { throw TestFailure("pairing failed: \(paired.status) \(paired.text)") }
        return (String(token), csrf)
    }

    /// `GET /api/events` with `cookie` on a connection of its own, its first event read.
    private func openStream(_ web: WebKitchen, cookie: String) throws -> HTTPTestConnection {
        let stream = try HTTPTestConnection(port: web.port)
        try stream.sendRequest(
            method: "GET", path: "/api/events",
            headers: [HTTPTestField("Cookie", cookie), HTTPTestField("Connection", "keep-alive")])
        let first = try stream.events(until: soon())
        guard first.first?.event == "timers" else { throw TestFailure("no first event: \(first)") }
        return stream
    }

    @Test func pageLoadsWithAStaleCookieLockNobodyOutAndClearIt() throws {
        let web = try WebKitchen()
        try web.pair()
        let unpair = web.house.command(["kitchen", "--unpair"])
        #expect(unpair.stdout == "unpaired 1 device\n", "\(unpair.stderr)")
        // One page load, twice: more than the five wrong tokens a minute allows.
        for _ in 0..<2 {
            for path in ["/", "/app.js", "/app.css", "/icon.svg", "/manifest.webmanifest"] {
                let load = try web.request("GET", path)
                #expect(load.status == 200, "\(path): \(load.status) \(load.text)")
                #expect(load.headers("Set-Cookie") == [clearing], "\(path)")
            }
        }
        let session = try web.request("GET", "/api/session")
        #expect(session.status == 200 && WebKitchen.json(session)?["paired"] == .bool(false), "\(session.text)")
        #expect(session.headers("Set-Cookie") == [clearing])
        let clean = try web.request("GET", "/api/session", session: false)
        #expect(clean.status == 200 && clean.header("Set-Cookie") == nil, "\(clean.status) \(clean.text)")
        // A fresh code pairs, the stale cookie still sent along: only the new cookie is set.
        let code = try web.pairingCode()
        let paired = try web.request("POST", "/api/pair", json: "{\"code\":\"\(code)\"}", withCSRF: false)
        #expect(paired.status == 200, "\(paired.status) \(paired.text)")
        #expect(paired.headers("Set-Cookie").count == 1 && paired.header("Set-Cookie")?.contains("Max-Age=0") == false)
        // A paired route still refuses the stale cookie, and clears it.
        let refused = try web.request("GET", "/api/timers")
        #expect(refused.status == 401 && refused.headers("Set-Cookie") == [clearing], "\(refused.text)")
    }

    @Test func unpairingEveryDeviceEndsTheOpenEventStreams() throws {
        let web = try WebKitchen()
        try web.pair()
        let stream = try openStream(web, cookie: web.cookie)
        let unpair = web.house.command(["kitchen", "--unpair"])
        #expect(unpair.termination == .exited(0), "\(unpair.stderr)")
        #expect(stream.waitClosed(until: soon()), "the stream goes on after --unpair")
    }

    @Test func aDeviceThatUnpairsItselfEndsItsStreamAndNoOther() throws {
        let web = try WebKitchen()
        try web.pair()
        let other = try pairAnother(web)
        let mine = try openStream(web, cookie: web.cookie)
        let theirs = try openStream(web, cookie: other.cookie)
        let unpair = try web.request("POST", "/api/unpair", json: "{}")
        #expect(unpair.status == 200, "\(unpair.text)")
        #expect(mine.waitClosed(until: soon()), "the unpaired device's stream goes on")
        let started = try web.request(
            "POST", "/api/timers", json: "{\"seconds\":600,\"label\":\"pasta\"}", session: false,
            headers: [HTTPTestField("Cookie", other.cookie), HTTPTestField("X-CSRF-Token", other.csrf)])
        #expect(started.status == 201, "\(started.text)")
        #expect(WebKitchen.awaitState("counting", of: "pasta", on: theirs, until: soon()), "the other stream ended")
    }
}
