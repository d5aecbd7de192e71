import TestSupport
import Testing
import WebServer

@testable import KitchenWeb

/// Issue 29: a stale session cookie (its device unpaired) is no session on the open routes and
/// counts nothing there, a wrong token still counts on the paired ones, and every answer to a
/// request with a stale cookie can clear it.
@Suite struct RequestGuardStaleCookieTests {
    let t0 = ContinuousClock.now
    let guardian = RequestGuard(address: "192.168.1.20", port: 8080, hostname: nil, names: [])
    let stale = "eggtimer_session=" + String(repeating: "f", count: 64)
    let clearing = "eggtimer_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"

    /// A pairing state with one device paired, and that device's session.
    func paired() throws -> (Pairing, Pairing.Session) {
        var pairing = Pairing(hash: fakeDigest, random: ScriptedRandom().bytes)
        let code = try pairing.newCode(at: t0)
        guard case .paired(let token) = pairing.pair(code: code, peer: "192.168.1.50", at: t0) else {
            throw TestFailure("not paired")
        }
        return (pairing, try #require(pairing.session(token: token)))
    }

    /// A request from the phone on the LAN.
    func request(
        _ method: String, cookie: String?, tls: Bool = false, origin: String? = nil, body: String = ""
    ) -> HTTPRequest {
        var headers = [HTTPHeader("host", "192.168.1.20:8080")]
        if let cookie { headers.append(HTTPHeader("cookie", cookie)) }
        if let origin { headers.append(HTTPHeader("origin", origin)) }
        if !body.isEmpty { headers.append(HTTPHeader("content-type", "application/json")) }
        return HTTPRequest(
            method: method, path: "/", headers: headers, body: Array(body.utf8), peer: "192.168.1.50", isTLS: tls)
    }

    @Test func aStaleCookieOnTheOpenRoutesCountsNothingSoAFreshCodeStillPairs() throws {
        var (pairing, session) = try paired()
        // A page load is five open requests; two loads, and more than the limit of wrong tokens.
        for _ in 0..<(2 * Pairing.failureLimit) {
            let verdict = guardian.check(request("GET", cookie: stale), needs: .open, pairing: &pairing, at: t0)
            #expect(verdict == .allowed(.init(session: nil, fields: .init(), isForm: false, staleCookie: true)))
        }
        let clean = guardian.check(request("GET", cookie: nil), needs: .open, pairing: &pairing, at: t0)
        #expect(clean == .allowed(.init(session: nil, fields: .init(), isForm: false, staleCookie: false)))
        let paired = guardian.check(
            request("GET", cookie: "eggtimer_session=\(session.token)"), needs: .paired, pairing: &pairing, at: t0)
        #expect(paired == .allowed(.init(session: session, fields: .init(), isForm: false, staleCookie: false)))
        let code = try pairing.newCode(at: t0)
        let pairs = guardian.check(
            request("POST", cookie: stale, body: #"{"code":"\#(code)"}"#), needs: .pairing, pairing: &pairing, at: t0)
        guard case .allowed(let allowed) = pairs else { throw TestFailure("refused: \(pairs)") }
        #expect(allowed.staleCookie && allowed.session == nil)
        guard case .paired = pairing.pair(code: code, peer: "192.168.1.50", at: t0) else {
            throw TestFailure("the fresh code did not pair")
        }
    }

    @Test func aStaleCookieOnAPairedRouteCountsAndItsRefusalsClearIt() throws {
        var (pairing, _) = try paired()
        for _ in 0..<Pairing.failureLimit {
            guard
                case .refused(let refused) = guardian.check(
                    request("GET", cookie: stale), needs: .paired, pairing: &pairing, at: t0)
            else { throw TestFailure("allowed") }
            #expect(refused.status == 401 && refused.headers.contains(HTTPHeader("Set-Cookie", clearing)))
        }
        guard
            case .refused(let limited) = guardian.check(
                request("GET", cookie: stale, tls: true), needs: .paired, pairing: &pairing, at: t0)
        else { throw TestFailure("allowed") }
        #expect(limited.status == 429)
        #expect(limited.headers.contains(HTTPHeader("Set-Cookie", clearing + "; Secure")))
        // A request without the cookie has nothing to clear.
        guard
            case .refused(let none) = guardian.check(
                request("GET", cookie: nil), needs: .paired, pairing: &pairing, at: t0)
        else { throw TestFailure("allowed") }
        #expect(none.status == 429 && !none.headers.contains { $0.name == "Set-Cookie" })
    }

    /// Issue 43: junk cookies from the household's address limit that address's junk, never a
    /// paired device behind it: its STOP (a POST with its CSRF token) passes the guard.
    @Test func junkFromTheHouseholdsAddressLeavesAPairedDevicesStopAllowed() throws {
        var (pairing, session) = try paired()
        for _ in 0..<(2 * Pairing.failureLimit) {
            _ = guardian.check(request("POST", cookie: stale, body: "{}"), needs: .change, pairing: &pairing, at: t0)
        }
        guard
            case .refused(let junk) = guardian.check(
                request("POST", cookie: stale, body: "{}"), needs: .change, pairing: &pairing, at: t0)
        else { throw TestFailure("junk allowed") }
        #expect(junk.status == 429, "the junk is still limited")
        var stop = request("POST", cookie: "eggtimer_session=\(session.token)", body: "{}")
        stop.headers.append(HTTPHeader("x-csrf-token", session.csrf))
        let verdict = guardian.check(stop, needs: .change, pairing: &pairing, at: t0 + .seconds(1))
        #expect(verdict == .allowed(.init(session: session, fields: .init(), isForm: false, staleCookie: false)))
    }

    @Test func anOpenRoutesRefusalOfAStaleCookieClearsItToo() throws {
        var (pairing, _) = try paired()
        let foreign = request("POST", cookie: stale, origin: "http://evil.example", body: #"{"code":"1"}"#)
        guard case .refused(let refused) = guardian.check(foreign, needs: .pairing, pairing: &pairing, at: t0) else {
            throw TestFailure("allowed")
        }
        #expect(refused.status == 403 && refused.headers.contains(HTTPHeader("Set-Cookie", clearing)))
    }

    @Test(arguments: [
        (false, "eggtimer_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"),
        (true, "eggtimer_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure"),
    ])
    func theClearingCookieIsSecureOnTLS(tls: Bool, value: String) {
        #expect(RequestGuard.clearingCookie(tls: tls) == HTTPHeader("Set-Cookie", value))
    }
}
