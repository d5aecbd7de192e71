// The routing of the kitchen's HTTP API: a method and a still-encoded path to a route, with the
// timer routes' NODE and LABEL segments decoded.

import HouseBus
import TextCoding

extension KitchenAPI {
    /// Resolves a request's method and path.
    ///
    /// The path is matched as sent, before any decoding: no `.`/`..` resolution, no trailing or
    /// doubled `/`, no query (the server split it off). In `/api/timers/NODE/LABEL/ACTION`, NODE
    /// and LABEL are decoded by ``name(ofSegment:)``; an empty segment, one that does not decode,
    /// or one that is or decodes to `.` or `..` is 404.
    /// `HEAD` resolves wherever `GET` does, to the same route (libmicrohttpd leaves the body out
    /// of its answer; the kitchen answers `HEAD /api/events` with the stream's head alone).
    /// - Parameters:
    ///   - method: The method as sent (`GET`, `HEAD`, `POST`; case-sensitive, as HTTP says).
    ///   - path: The request target's path, still percent-encoded.
    /// - Returns: The route, 404, or 405 with the methods the path takes (`GET, HEAD` together).
    package static func route(method: String, path: String) -> Resolution {
        let method = method == "HEAD" ? "GET" : method
        func allowed(_ methods: [String]) -> [String] { methods.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] } }
        func only(_ wanted: String, _ route: Route) -> Resolution {
            method == wanted ? .route(route) : .methodNotAllowed(allow: allowed([wanted]))
        }
        switch path {
        case "/": return only("GET", .page)
        case _ where assetPaths.contains(path): return only("GET", .asset(path))
        case "/api/session": return only("GET", .session)
        case "/api/pair": return only("POST", .pair)
        case "/api/unpair": return only("POST", .unpair)
        case "/api/ack-all": return only("POST", .acknowledgeAll)
        case "/api/events": return only("GET", .events)
        case "/api/timers":
            switch method {
            case "GET": return .route(.timers)
            case "POST": return .route(.start)
            default: return .methodNotAllowed(allow: allowed(["GET", "POST"]))
            }
        default: break
        }
        let prefix = "/api/timers/"
        guard path.hasPrefix(prefix) else { return .notFound }
        let segments = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 3, let node = name(ofSegment: segments[0]), let label = name(ofSegment: segments[1]),
            let action = Action(rawValue: String(segments[2]))
        else { return .notFound }
        return only("POST", .action(node: node, label: label, action))
    }

    /// The longest NODE or LABEL segment read, in bytes (a label is at most 64 bytes, a node
    /// name from MQTT has no limit: 256 bytes, each of them escaped, is plenty).
    static let segmentLimit = 768

    /// A NODE or LABEL segment decoded: every `%XX` (hex, either case) becomes its byte, every
    /// other byte stays; the bytes must be UTF-8.
    ///
    /// A superset of the MQTT topics' level encoding (HouseBus's `TimerTopics.level`, which
    /// escapes only `/`, `+`, `#`, `%` and control characters as upper-case `%XX`): the topic's
    /// form of a name and a browser's `encodeURIComponent` of it both decode to the name, so
    /// `%2F` in a label is a `/` inside it, never a path separator.
    /// - Parameter segment: One path segment, still encoded.
    /// - Returns: The name; nil when empty, over ``segmentLimit`` bytes, holding a `%` not followed
    ///   by two hex digits, not UTF-8 once decoded, or `.` or `..` (as sent or decoded).
    static func name(ofSegment segment: Substring) -> String? {
        let text = Array(segment.utf8)
        guard !text.isEmpty, text.count <= segmentLimit else { return nil }
        guard let bytes = PercentCoding.decoded(text) else { return nil }
        guard let name = String(validating: bytes, as: UTF8.self), name != ".", name != ".." else { return nil }
        return name
    }
}
