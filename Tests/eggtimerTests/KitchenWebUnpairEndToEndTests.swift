import Glibc
import TestSupport
import Testing

@testable import eggtimer

/// Issue 29 end to end, after an unpairing: a stale cookie's page loads lock nobody out and are
/// told to clear it.
@Suite struct KitchenWebUnpairEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }
    private let clearing = "eggtimer_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"

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
}
