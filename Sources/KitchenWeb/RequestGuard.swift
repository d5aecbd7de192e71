import Glibc
import SystemKit
package import WebServer

/// The checks every request of the kitchen's HTTP API passes before its route acts, in the order
/// of the man page's HTTP API section: no field that must be single repeated
/// (``singleFields``), the `Host` allowlist (against DNS rebinding), the session
/// cookie, for a POST the CSRF token and the `Origin`, then the body's size and type.
///
/// A request passes (``Verdict/allowed(_:)``: the session, if any, and its body's fields) or gets
/// its refusal, a whole JSON response `{"error":…}` (``Verdict/refused(_:)``); nothing else
/// happens for a refused request. The host list is built once from the configuration
/// (``init(address:port:hostname:names:)``). Pure but for ``Pairing``'s rate-limit counts, which
/// ``check(_:needs:pairing:at:)`` updates; no clock is read. A plain value: one owner.
package struct RequestGuard: Sendable {
    /// What a route needs of a request.
    package struct Needs: Equatable, Sendable {
        /// A paired device's cookie (else 401).
        var session: Bool
        /// For a POST: the session's CSRF token (else 403).
        ///
        /// The Origin is checked on every POST whatever this says.
        var csrf: Bool

        /// `GET /`, the assets, `GET /api/session`: nothing (a valid cookie still yields the session).
        package static let open = Needs(session: false, csrf: false)
        /// `POST /api/pair`: no session, no CSRF token (the client has none yet); the Origin check.
        package static let pairing = Needs(session: false, csrf: false)
        /// A paired `GET`.
        package static let paired = Needs(session: true, csrf: false)
        /// A paired `POST` that changes something.
        package static let change = Needs(session: true, csrf: true)
    }

    /// What the checks came to.
    package enum Verdict: Equatable, Sendable {
        /// The request may go on.
        case allowed(Allowed)
        /// Answer this and do nothing else.
        case refused(HTTPResponse)
    }

    /// A request that passed.
    package struct Allowed: Equatable, Sendable {
        /// The paired device's session; nil on an open route without a valid cookie.
        package var session: Pairing.Session?
        /// The body's fields (a JSON object or a form); empty for a `GET` or an empty body.
        package var fields: Fields
        /// Whether the body was a form (`application/x-www-form-urlencoded`): the page without
        /// JavaScript, answered 303 `Location: /` instead of JSON.
        package var isForm: Bool
        /// Whether the request carried a session cookie that is no paired device's (unpaired,
        /// forgotten): its answer clears it (``clearingCookie(tls:)``) unless it sets a new one.
        package var staleCookie = false
    }

    /// The session cookie's name.
    package static let cookieName = "eggtimer_session"
    /// The largest body accepted, in bytes: 16 KiB (HTTP 413 above).
    package static let bodyLimit = 16 * 1024
    /// The fields a request may carry at most once: HTTP's (``HTTPServer/singleFields``, which
    /// the server refuses repeated before any handler) and the API's own, `X-CSRF-Token` and
    /// `Idempotency-Key`; a repeat is 400 even with one value twice, so none is read first-wins.
    package static let singleFields = HTTPServer.singleFields + ["X-CSRF-Token", "Idempotency-Key"]
    /// The content type of JSON bodies.
    static let jsonType = "application/json"
    /// The content type of form bodies.
    static let formType = "application/x-www-form-urlencoded"

    /// The `Host` values accepted by name, lower-cased (`localhost:8080`, `[::1]:8080`, …);
    /// any IP literal with the right port is accepted as well (``isAllowed(host:)``).
    let allowedHosts: Set<String>
    /// The listening port (the port an IP-literal `Host` must carry).
    let port: UInt16

    /// A guard for a server on `address`:`port`.
    ///
    /// Accepted hosts: `ADDRESS:PORT` as configured (an IPv6 address in brackets), `localhost`,
    /// `127.0.0.1`, `[::1]`, `HOSTNAME`, `HOSTNAME.local` and each of `names`, all with `:PORT`;
    /// on port 80 or 443 each without it as well (browsers leave out a default port). Besides
    /// these, any IPv4 or bracketed IPv6 literal with the port: a phone that typed the box's
    /// address (DHCP gives it; the box cannot know every address it will have). DNS rebinding
    /// needs a name the attacker controls, so a literal cannot be rebound.
    /// - Parameters:
    ///   - address: The numeric listening address as configured (`0.0.0.0`, `192.168.1.20`, `::`).
    ///   - port: The port, 1…65535.
    ///   - hostname: This machine's name (`gethostname`); nil or empty when unknown.
    ///   - names: Config key `http-names`, each a host name (already split on commas).
    package init(address: String, port: UInt16, hostname: String?, names: [String]) {
        let configured = address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
        var bare = [configured, "localhost", "127.0.0.1", "[::1]"]
        if let hostname, !hostname.isEmpty { bare += [hostname, hostname + ".local"] }
        bare += names.map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        var hosts = Set(bare.map { $0.asciiLowercased + ":\(port)" })
        if port == 80 || port == 443 { hosts.formUnion(bare.map(\.asciiLowercased)) }
        allowedHosts = hosts
        self.port = port
    }

    /// Whether a `Host` value (or an Origin's host part) is accepted.
    ///
    /// A configured name, or an IP literal (`192.168.1.20:8080`, `[fe80::1]:8080`) with the
    /// listening port (on 80 or 443 without it too). Pure.
    func isAllowed(host: String) -> Bool {
        let lowered = host.asciiLowercased
        if allowedHosts.contains(lowered) { return true }
        var name = Substring(lowered)
        if let colon = lowered.lastIndex(of: ":"), !lowered[colon...].contains("]") {
            guard lowered[lowered.index(after: colon)...] == Substring("\(port)") else { return false }
            name = lowered[..<colon]
        } else if port != 80 && port != 443 {
            return false
        }
        return Self.isIPv4Literal(name) || Self.isIPv6Literal(name)
    }

    /// Whether `name` is a dotted-quad IPv4 address: four decimal parts of one to three digits,
    /// each 0…255.
    static func isIPv4Literal(_ name: Substring) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy { $0 >= "0" && $0 <= "9" }
                    && Int(part).map { $0 <= 255 } == true
            }
    }

    /// Whether `name` is a bracketed IPv6 address (`[` hex digits, colons and dots `]`, at least
    /// two colons, at most 47 characters inside).
    static func isIPv6Literal(_ name: Substring) -> Bool {
        guard name.hasPrefix("["), name.hasSuffix("]"), name.count >= 4, name.count <= 49 else { return false }
        let inside = name.dropFirst().dropLast()
        return inside.filter { $0 == ":" }.count >= 2
            && inside.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// This machine's name, or nil.
    ///
    /// C: `gethostname`.
    package static func currentHostname() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// Runs the checks on `request` for a route that needs `needs`.
    ///
    /// Only a route that needs a session counts a wrong token against the peer; on the others
    /// (the page, the assets, `GET /api/session`, `POST /api/pair`, unknown paths) a stale
    /// cookie is just no session, so a page load after an unpairing locks nobody out. Every
    /// refusal of a request with a stale cookie carries ``clearingCookie(tls:)``; an allowed one
    /// says so in ``Allowed/staleCookie`` (issue 29).
    /// - Parameters:
    ///   - request: The whole request.
    ///   - needs: What its route needs.
    ///   - pairing: The kitchen's pairing state: wrong tokens are counted against the peer.
    ///   - now: The boot clock now (the rate limit's).
    /// - Returns: The ``Verdict``.
    package func check(
        _ request: HTTPRequest, needs: Needs, pairing: inout Pairing, at now: ContinuousClock.Instant
    ) -> Verdict {
        // 1. No field that must be single given twice (one rule with the server's: RFC 9112 §3.2
        // for Host), then an allowed Host.
        if let problem = HTTPServer.repeatedField(in: request.headers, among: Self.singleFields) {
            // As the server's framing 400s: a request read two ways ends its connection.
            var refusal = Self.refusal(400, problem)
            refusal.headers.append(HTTPHeader("Connection", "close"))
            return .refused(refusal)
        }
        let host = request.header("host") ?? ""
        guard isAllowed(host: host) else {
            return .refused(Self.refusal(403, "host not allowed: \(Self.shortened(host))"))
        }
        // 2. The session cookie.
        let tokens = Self.cookies(named: Self.cookieName, in: request)
        var session: Pairing.Session?
        var stale = false
        func refused(_ response: HTTPResponse) -> Verdict {
            guard stale else { return .refused(response) }
            var cleared = response
            cleared.headers.append(Self.clearingCookie(tls: request.isTLS))
            return .refused(cleared)
        }
        if needs.session {
            switch pairing.authenticate(tokens: tokens, peer: request.peer, at: now) {
            case .paired(let found): session = found
            case .notPaired:
                stale = !tokens.isEmpty
                return refused(Self.refusal(401, "not paired"))
            case .rateLimited:
                // A paired token is never limited (issue 43): any cookie here is stale.
                stale = !tokens.isEmpty
                return refused(
                    Self.refusal(
                        429, "too many wrong codes or tokens: try again in a minute",
                        extra: [HTTPHeader("Retry-After", "60")]))
            }
        } else if !tokens.isEmpty {
            session = pairing.session(tokens: tokens)
            stale = session == nil
        }
        let type = Self.mediaType(request.header("content-type"))
        let isPost = request.method == "POST"
        // 3. CSRF and Origin, on every POST.
        if isPost {
            if needs.csrf {
                var candidate = request.header("x-csrf-token")
                if candidate == nil, type == Self.formType, request.body.count <= Self.bodyLimit {
                    candidate = Fields.form(request.body)?.string("csrf")
                }
                guard let session, pairing.checkCSRF(candidate, for: session) else {
                    return refused(Self.refusal(403, candidate == nil ? "missing CSRF token" : "wrong CSRF token"))
                }
            }
            if let origin = request.header("origin"), !isAllowed(origin: origin) {
                return refused(Self.refusal(403, "origin not allowed: \(Self.shortened(origin))"))
            }
        }
        // 4. The body.
        guard request.body.count <= Self.bodyLimit else {
            return refused(Self.refusal(413, "the body is larger than \(Self.bodyLimit) bytes"))
        }
        var fields = Fields()
        if !request.body.isEmpty || (isPost && type != nil) {
            switch type {
            case Self.jsonType?:
                guard let read = Fields.json(request.body) else {
                    return refused(Self.refusal(400, "the body is not a flat JSON object of strings and integers"))
                }
                fields = read
            case Self.formType?:
                guard let read = Fields.form(request.body) else {
                    return refused(Self.refusal(400, "the body is not a well-formed form"))
                }
                fields = read
            default:
                return refused(Self.refusal(415, "the body must be \(Self.jsonType) or \(Self.formType)"))
            }
        }
        return .allowed(Allowed(session: session, fields: fields, isForm: type == Self.formType, staleCookie: stale))
    }

    /// The `Set-Cookie` field that clears the session cookie.
    ///
    /// `eggtimer_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`, and `Secure` on TLS. Pure.
    /// - Parameter tls: Whether the request came over TLS.
    /// - Returns: The field.
    package static func clearingCookie(tls: Bool) -> HTTPHeader {
        HTTPHeader(
            "Set-Cookie", "\(cookieName)=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict" + (tls ? "; Secure" : ""))
    }

    /// Whether `origin` is `http://HOST` or `https://HOST` with HOST allowed.
    func isAllowed(origin: String) -> Bool {
        let lowered = origin.asciiLowercased
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            return isAllowed(host: String(lowered.dropFirst(scheme.count)))
        }
        return false
    }

    /// The paired device's token the request's session cookie carries, or nil: the server's
    /// ``HTTPServer/Vouch`` (a connection that showed one is never closed to make room for
    /// unpaired ones, issue 43).
    ///
    /// Pure: no try is counted against the peer (the route's check does that).
    /// - Parameters:
    ///   - request: The request's head.
    ///   - pairing: The paired devices.
    /// - Returns: The token, or nil.
    package static func credential(of request: HTTPRequest, pairing: Pairing) -> String? {
        pairing.session(tokens: cookies(named: cookieName, in: request))?.token
    }

    /// The values of every cookie named `name` in the request's `Cookie` fields, in order.
    ///
    /// `a=1; eggtimer_session=…; b=2`: spaces around each pair are dropped, a quoted value
    /// loses its quotes. Pure.
    /// - Parameters:
    ///   - name: The cookie's name.
    ///   - request: The request.
    /// - Returns: The values.
    static func cookies(named name: String, in request: HTTPRequest) -> [String] {
        var values: [String] = []
        for field in request.headers where field.name == "cookie" {
            for pair in field.value.split(separator: ";") {
                let trimmed = String(pair).trimmingSpaces
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
                var value = String(trimmed[trimmed.index(after: equals)...])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                values.append(value)
            }
        }
        return values
    }

    /// The media type of a `Content-Type` value, lower-cased, without parameters
    /// (`application/json; charset=utf-8` → `application/json`); nil for none.
    static func mediaType(_ value: String?) -> String? {
        guard let value else { return nil }
        let type =
            value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return type.trimmingSpaces.asciiLowercased
    }

    /// A refusal: `status`, `{"error":"<text>"}` as JSON with the API's headers
    /// (``KitchenAPI/error(_:_:extra:)``).
    /// - Parameters:
    ///   - status: The status code.
    ///   - text: The error's text (JSON-escaped there).
    ///   - extra: More header fields (`Retry-After`).
    /// - Returns: The response.
    static func refusal(_ status: Int, _ text: String, extra: [HTTPHeader] = []) -> HTTPResponse {
        KitchenAPI.error(status, text, extra: extra)
    }

    /// A value from the client cut to 100 characters for an error text.
    private static func shortened(_ text: String) -> String { text.count > 100 ? String(text.prefix(100)) + "…" : text }
}

extension String {
    /// The text with ASCII letters lower-cased (others as they are; no locale).
    fileprivate var asciiLowercased: String {
        String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
