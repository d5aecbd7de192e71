import TestSupport
import Testing
import WebServer

@testable import KitchenWeb

@Suite struct RequestGuardTests {
    let t0 = ContinuousClock.now
    let guardian = RequestGuard(
        address: "192.168.1.20", port: 8080, hostname: "kitchen-pi", names: [" eggs.example ", ""])

    /// A pairing state with one device paired: the state and the device's session.
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
        _ method: String = "POST", host: String = "192.168.1.20:8080", cookie: String? = nil, csrf: String? = nil,
        origin: String? = nil, type: String? = "application/json", body: String = "{}"
    ) -> HTTPRequest {
        var headers = [HTTPHeader("host", host)]
        if let cookie { headers.append(HTTPHeader("cookie", cookie)) }
        if let csrf { headers.append(HTTPHeader("x-csrf-token", csrf)) }
        if let origin { headers.append(HTTPHeader("origin", origin)) }
        if let type { headers.append(HTTPHeader("content-type", type)) }
        return HTTPRequest(
            method: method, path: "/api/timers", headers: headers, body: Array(body.utf8), peer: "192.168.1.50")
    }

    /// The status and error text of a refusal; nil when allowed.
    func refusal(_ verdict: RequestGuard.Verdict) -> (Int, String)? {
        guard case .refused(let response) = verdict else { return nil }
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test(arguments: [
        "192.168.1.20:8080", "localhost:8080", "127.0.0.1:8080", "[::1]:8080", "kitchen-pi:8080",
        "kitchen-pi.local:8080", "KITCHEN-PI.LOCAL:8080", "eggs.example:8080",
        // IP literals with the port (the address a phone typed; a literal cannot be rebound).
        "10.0.0.7:8080", "[fe80::1]:8080", "[2001:DB8::2]:8080", "[::ffff:10.0.0.7]:8080",
    ])
    func allowedHostsPass(_ host: String) throws {
        var (pairing, session) = try paired()
        let verdict = guardian.check(
            request(host: host, cookie: "eggtimer_session=\(session.token)", csrf: session.csrf), needs: .change,
            pairing: &pairing, at: t0)
        #expect(refusal(verdict) == nil, "\(verdict)")
    }

    @Test(arguments: [
        "evil.example:8080", "192.168.1.20", "192.168.1.20:80", "localhost", "kitchen-pi.local.evil:8080",
        "192.168.1.20:8080.evil", "", ":8080",
        "10.0.0.7:8081", "10.0.0.7", "256.1.1.1:8080", "1.2.3:8080", "1.2.3.4.5:8080", "0x7f.0.0.1:8080",
        "1..2.3:8080", "1234.1.1.1:8080", "[evil]:8080", "[::1]:8081", "[:]:8080", "10.0.0.7:08080",
    ])
    func aForeignHostIs403AndNothingElseHappens(_ host: String) throws {
        var (pairing, _) = try paired()
        let verdict = guardian.check(
            request(host: host, cookie: "eggtimer_session=" + String(repeating: "0", count: 64)), needs: .change,
            pairing: &pairing, at: t0)
        #expect(refusal(verdict)?.0 == 403)
        #expect(refusal(verdict)?.1.hasPrefix(#"{"error":"host not allowed: "#) == true)
        #expect(
            pairing.takeLines().filter { $0.contains("not paired") }.isEmpty, "the wrong token was not even looked at")
    }

    @Test func aMissingHostIsRefused() throws {
        var (pairing, session) = try paired()
        var noHost = request(cookie: "eggtimer_session=\(session.token)", csrf: session.csrf)
        noHost.headers.removeAll { $0.name == "host" }
        #expect(refusal(guardian.check(noHost, needs: .change, pairing: &pairing, at: t0))?.0 == 403)
    }

    /// RFC 9112 §3.2: a request with more than one Host field is a 400, even when the first is
    /// allowed (an intermediary may have read the other).
    @Test func twoHostFieldsAre400() throws {
        var (pairing, session) = try paired()
        var twice = request(cookie: "eggtimer_session=\(session.token)", csrf: session.csrf)
        twice.headers.append(HTTPHeader("Host", "evil.example"))
        #expect(refusal(guardian.check(twice, needs: .change, pairing: &pairing, at: t0))?.0 == 400)
        twice.headers.removeLast()
        #expect(refusal(guardian.check(twice, needs: .change, pairing: &pairing, at: t0)) == nil)
    }

    /// Issue 43, one rule for single fields: each of HTTP's and the API's own (the CSRF token,
    /// the request id) given twice is 400 before anything else is looked at, one value twice
    /// too, so neither copy is read first-wins.
    @Test(arguments: ["Host", "Content-Type", "Origin", "Cookie", "X-CSRF-Token", "Idempotency-Key"])
    func aSingleFieldGivenTwiceIs400(_ name: String) throws {
        #expect(RequestGuard.singleFields.contains(name))
        var (pairing, session) = try paired()
        var good = request(
            cookie: "eggtimer_session=\(session.token)", csrf: session.csrf, origin: "http://192.168.1.20:8080")
        good.headers.append(HTTPHeader("idempotency-key", "k1"))
        #expect(refusal(guardian.check(good, needs: .change, pairing: &pairing, at: t0)) == nil)
        _ = pairing.takeLines()
        var twice = good
        let copy = try #require(good.headers.first { $0.name == name.lowercased() })
        twice.headers.append(HTTPHeader(name, copy.value))
        let verdict = guardian.check(twice, needs: .change, pairing: &pairing, at: t0)
        #expect(refusal(verdict)?.0 == 400)
        #expect(refusal(verdict)?.1 == #"{"error":"more than one \#(name) header field"}"#)
        guard case .refused(let response) = verdict else { return }
        #expect(response.headers.contains(HTTPHeader("Connection", "close")), "its connection ends with it")
        #expect(pairing.takeLines().isEmpty, "nothing was looked at")
    }

    @Test func theHostIsCheckedFirstAndTheBodyLast() throws {
        var (pairing, _) = try paired()
        let everythingWrong = request(
            host: "evil:1", origin: "http://evil", type: "text/plain",
            body: String(repeating: "x", count: RequestGuard.bodyLimit + 1))
        #expect(refusal(guardian.check(everythingWrong, needs: .change, pairing: &pairing, at: t0))?.0 == 403)
        var good = everythingWrong
        good.headers[0] = HTTPHeader("host", "localhost:8080")
        #expect(refusal(guardian.check(good, needs: .change, pairing: &pairing, at: t0))?.0 == 401)
    }

    @Test func noCookieIs401OnAPairedRouteAndNoSessionOnAnOpenOne() throws {
        var (pairing, _) = try paired()
        let verdict = guardian.check(request(), needs: .change, pairing: &pairing, at: t0)
        #expect(refusal(verdict)?.0 == 401)
        #expect(refusal(verdict)?.1 == #"{"error":"not paired"}"#)
        let open = guardian.check(request("GET", type: nil, body: ""), needs: .open, pairing: &pairing, at: t0)
        #expect(open == .allowed(.init(session: nil, fields: .init(), isForm: false)))
    }

    @Test func aWrongTokenIs401AndFiveAMinuteAre429() throws {
        var (pairing, _) = try paired()
        let wrong = request(cookie: "eggtimer_session=" + String(repeating: "f", count: 64), csrf: "x")
        for _ in 0..<5 { #expect(refusal(guardian.check(wrong, needs: .change, pairing: &pairing, at: t0))?.0 == 401) }
        guard case .refused(let limited) = guardian.check(wrong, needs: .change, pairing: &pairing, at: t0) else {
            Issue.record("not limited")
            return
        }
        #expect(limited.status == 429)
        #expect(limited.headers.contains(HTTPHeader("Retry-After", "60")))
    }

    @Test(arguments: [
        "eggtimer_session=TOKEN", "a=1; eggtimer_session=TOKEN; b=2", "a=1;eggtimer_session=TOKEN",
        "eggtimer_session=\(String(repeating: "0", count: 64)); eggtimer_session=TOKEN",
        "  eggtimer_session=TOKEN  ;x=y",
        "eggtimer_session=\"TOKEN\"",
    ])
    func theSessionCookieIsFoundAmongSeveral(_ cookie: String) throws {
        var (pairing, session) = try paired()
        let header = cookie.replacing("TOKEN", with: session.token)
        let verdict = guardian.check(
            request(cookie: header, csrf: session.csrf), needs: .change, pairing: &pairing, at: t0)
        #expect(verdict == .allowed(.init(session: session, fields: .init(), isForm: false)), "\(header)")
    }

    @Test(arguments: ["xeggtimer_session=TOKEN", "eggtimer_sessio=TOKEN", "eggtimer_session =TOKEN", "TOKEN"])
    func aCookieOfAnotherNameIsNoSession(_ cookie: String) throws {
        var (pairing, session) = try paired()
        let header = cookie.replacing("TOKEN", with: session.token)
        let verdict = guardian.check(
            request(cookie: header, csrf: session.csrf), needs: .change, pairing: &pairing, at: t0)
        #expect(refusal(verdict)?.0 == 401, "\(header)")
    }

    @Test func aMissingOrWrongCSRFTokenIs403() throws {
        var (pairing, session) = try paired()
        let cookie = "eggtimer_session=\(session.token)"
        let missing = guardian.check(request(cookie: cookie), needs: .change, pairing: &pairing, at: t0)
        #expect(refusal(missing)?.0 == 403)
        #expect(refusal(missing)?.1 == #"{"error":"missing CSRF token"}"#)
        let wrong = guardian.check(
            request(cookie: cookie, csrf: String(repeating: "0", count: 64)), needs: .change, pairing: &pairing, at: t0)
        #expect(refusal(wrong)?.1 == #"{"error":"wrong CSRF token"}"#)
        let token = guardian.check(
            request(cookie: cookie, csrf: session.token), needs: .change, pairing: &pairing, at: t0)
        #expect(refusal(token)?.0 == 403, "the session token is not the CSRF token")
        // A GET needs none.
        let get = guardian.check(
            request("GET", cookie: cookie, type: nil, body: ""), needs: .paired, pairing: &pairing, at: t0)
        #expect(refusal(get) == nil)
    }

    @Test func aFormPostCarriesItsCSRFTokenAsAField() throws {
        var (pairing, session) = try paired()
        let form = request(
            cookie: "eggtimer_session=\(session.token)", type: "application/x-www-form-urlencoded; charset=UTF-8",
            body: "start=3m40&label=Pasta+al+dente&csrf=\(session.csrf)")
        guard case .allowed(let allowed) = guardian.check(form, needs: .change, pairing: &pairing, at: t0) else {
            Issue.record("refused")
            return
        }
        #expect(allowed.isForm && allowed.session == session)
        #expect(allowed.fields.string("start") == "3m40" && allowed.fields.string("label") == "Pasta al dente")
        var wrong = form
        wrong.body = Array("start=soft&csrf=00".utf8)
        #expect(refusal(guardian.check(wrong, needs: .change, pairing: &pairing, at: t0))?.0 == 403)
    }

    @Test(arguments: [
        ("http://192.168.1.20:8080", true), ("https://kitchen-pi.local:8080", true), ("http://localhost:8080", true),
        ("http://evil.example", false), ("http://192.168.1.20:8080.evil.example", false), ("null", false),
        ("http://10.0.0.7:8080", true), ("http://[fe80::1]:8080", true), ("http://10.0.0.7:8081", false),
        ("http://192.168.1.20:8081", false), ("ftp://localhost:8080", false), ("http://localhost:8080/", false),
    ])
    func aForeignOriginIs403OnEveryPostPairingIncluded(_ origin: String, _ allowed: Bool) throws {
        var (pairing, session) = try paired()
        let change = request(cookie: "eggtimer_session=\(session.token)", csrf: session.csrf, origin: origin)
        #expect((refusal(guardian.check(change, needs: .change, pairing: &pairing, at: t0)) == nil) == allowed)
        let pair = request(origin: origin, body: #"{"code":"123456"}"#)
        let verdict = guardian.check(pair, needs: .pairing, pairing: &pairing, at: t0)
        #expect((refusal(verdict) == nil) == allowed, "\(verdict)")
        if !allowed { #expect(refusal(verdict)?.1.hasPrefix(#"{"error":"origin not allowed: "#) == true) }
    }

    @Test func pairingNeedsNoCookieNorCSRFToken() throws {
        var (pairing, _) = try paired()
        let verdict = guardian.check(request(body: #"{"code":"004217"}"#), needs: .pairing, pairing: &pairing, at: t0)
        guard case .allowed(let allowed) = verdict else {
            Issue.record("refused: \(verdict)")
            return
        }
        #expect(allowed.fields.string("code") == "004217" && allowed.session == nil)
    }

    @Test func aBodyTooLargeIs413AndOfAnotherTypeIs415() throws {
        var (pairing, session) = try paired()
        let cookie = "eggtimer_session=\(session.token)"
        let large = request(
            cookie: cookie, csrf: session.csrf,
            body: #"{"label":""# + String(repeating: "x", count: RequestGuard.bodyLimit) + #""}"#)
        #expect(refusal(guardian.check(large, needs: .change, pairing: &pairing, at: t0))?.0 == 413)
        let plain = request(cookie: cookie, csrf: session.csrf, type: "text/plain", body: "start=soft")
        #expect(refusal(guardian.check(plain, needs: .change, pairing: &pairing, at: t0))?.0 == 415)
        let untyped = request(cookie: cookie, csrf: session.csrf, type: nil, body: "start=soft")
        #expect(refusal(guardian.check(untyped, needs: .change, pairing: &pairing, at: t0))?.0 == 415)
        let nested = request(cookie: cookie, csrf: session.csrf, body: #"{"start":{"a":1}}"#)
        #expect(refusal(guardian.check(nested, needs: .change, pairing: &pairing, at: t0))?.0 == 400)
        let empty = request(cookie: cookie, csrf: session.csrf, type: nil, body: "")
        #expect(refusal(guardian.check(empty, needs: .change, pairing: &pairing, at: t0)) == nil)
    }

    @Test func refusalsAreJSONWithTheAPIHeadersAndTheHostEscaped() throws {
        var (pairing, _) = try paired()
        guard
            case .refused(let response) = guardian.check(
                request(host: "<b>\"x\"</b>"), needs: .change, pairing: &pairing, at: t0)
        else {
            Issue.record("allowed")
            return
        }
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"host not allowed: <b>\"x\"</b>"}"#)
        for header in ["Content-Type", "Cache-Control", "X-Content-Type-Options", "Referrer-Policy"] {
            #expect(response.headers.contains { $0.name == header }, "\(header)")
        }
    }

    @Test func anIPv6AddressIsAllowedInBracketsAndDefaultPortsWithout() {
        let six = RequestGuard(address: "::", port: 8080, hostname: nil, names: [])
        #expect(six.allowedHosts.contains("[::]:8080") && !six.allowedHosts.contains(":::8080"))
        let web = RequestGuard(address: "0.0.0.0", port: 80, hostname: "pi", names: ["eggs"])
        #expect(["pi", "pi.local", "eggs", "localhost", "pi:80"].allSatisfy(web.allowedHosts.contains))
        #expect(!six.allowedHosts.contains("localhost"))
    }
}
