import HouseBus
import Testing

@testable import KitchenWeb

/// The kitchen's HTTP API routing (issue 29): every fixed route, the methods each takes, unknown
/// paths, and the decoding of NODE and LABEL in the timer routes, without a server.
@Suite struct KitchenAPIRouteTests {
    typealias Route = KitchenAPI.Route

    static let routes: [(String, String, KitchenAPI.Resolution)] = [
        ("GET", "/", .route(.page)),
        ("GET", "/app.js", .route(.asset("/app.js"))),
        ("GET", "/app.css", .route(.asset("/app.css"))),
        ("GET", "/manifest.webmanifest", .route(.asset("/manifest.webmanifest"))),
        ("GET", "/icon.svg", .route(.asset("/icon.svg"))),
        ("GET", "/alarm.mp3", .route(.asset("/alarm.mp3"))),
        ("GET", "/api/session", .route(.session)),
        ("POST", "/api/pair", .route(.pair)),
        ("POST", "/api/unpair", .route(.unpair)),
        ("GET", "/api/timers", .route(.timers)),
        ("POST", "/api/timers", .route(.start)),
        ("POST", "/api/ack-all", .route(.acknowledgeAll)),
        ("GET", "/api/events", .route(.events)),
        ("POST", "/api/timers/kitchen-pi/Soft/ack", .route(.action(node: "kitchen-pi", label: "Soft", .ack))),
        ("POST", "/api/timers/n/1:30/snooze", .route(.action(node: "n", label: "1:30", .snooze))),
        ("POST", "/api/timers/n/pasta/cancel", .route(.action(node: "n", label: "pasta", .cancel))),
        ("POST", "/api/timers/n/pasta/pause", .route(.action(node: "n", label: "pasta", .pause))),
        ("POST", "/api/timers/n/pasta/resume", .route(.action(node: "n", label: "pasta", .resume))),
        ("POST", "/api/timers/n/pasta/add", .route(.action(node: "n", label: "pasta", .add))),
    ]

    @Test(arguments: routes)
    func everyFixedRouteResolves(method: String, path: String, resolution: KitchenAPI.Resolution) {
        #expect(KitchenAPI.route(method: method, path: path) == resolution)
    }

    /// HEAD goes wherever GET goes, to the same route (issue 29).
    static let headRoutes: [(String, KitchenAPI.Resolution)] = [
        ("/", .route(.page)), ("/app.js", .route(.asset("/app.js"))), ("/alarm.mp3", .route(.asset("/alarm.mp3"))),
        ("/api/session", .route(.session)), ("/api/timers", .route(.timers)), ("/api/events", .route(.events)),
    ]

    @Test(arguments: headRoutes)
    func headResolvesAsGet(path: String, resolution: KitchenAPI.Resolution) {
        #expect(KitchenAPI.route(method: "HEAD", path: path) == resolution)
        #expect(KitchenAPI.route(method: "GET", path: path) == resolution)
    }

    static let wrongMethods: [(String, String, [String])] = [
        ("POST", "/", ["GET", "HEAD"]), ("DELETE", "/app.js", ["GET", "HEAD"]),
        ("POST", "/api/session", ["GET", "HEAD"]), ("GET", "/api/pair", ["POST"]), ("HEAD", "/api/pair", ["POST"]),
        ("GET", "/api/unpair", ["POST"]), ("GET", "/api/ack-all", ["POST"]), ("HEAD", "/api/ack-all", ["POST"]),
        ("POST", "/api/events", ["GET", "HEAD"]), ("PUT", "/api/timers", ["GET", "HEAD", "POST"]),
        ("DELETE", "/api/timers", ["GET", "HEAD", "POST"]), ("GET", "/api/timers/n/pasta/ack", ["POST"]),
        ("HEAD", "/api/timers/n/pasta/ack", ["POST"]), ("get", "/api/timers", ["GET", "HEAD", "POST"]),
        ("head", "/api/events", ["GET", "HEAD"]),
    ]

    @Test(arguments: wrongMethods)
    func aKnownPathWithAnotherMethodIs405WithAllow(method: String, path: String, allow: [String]) throws {
        let resolution = KitchenAPI.route(method: method, path: path)
        #expect(resolution == .methodNotAllowed(allow: allow))
        let response = try #require(KitchenAPI.response(to: resolution))
        #expect(response.status == 405)
        #expect(response.headers.contains(.init("Allow", allow.joined(separator: ", "))))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"method not allowed"}"#)
    }

    static let unknownPaths = [
        "", "//", "/index.html", "/api", "/api/", "/api/timers/", "/api/timers//", "/api/timer",
        "/api/timers/n", "/api/timers/n/pasta", "/api/timers/n/pasta/", "/api/timers/n/pasta/ack/",
        "/api/timers/n/pasta/ack/more", "/api/timers/n/pasta/explode", "/api/timers/n/pasta/ACK",
        "/api/timers//pasta/ack", "/api/timers/n//ack", "/api/timers/../../ack", "/api/timers/n/../ack",
        "/api/timers/n/./ack", "/api/timers/n/%2E%2E/ack", "/api/timers/%2e/pasta/ack", "/api/timers/n/%/ack",
        "/api/timers/n/%4/ack", "/api/timers/n/%zz/ack", "/api/timers/n/%FF/ack", "/api/timers/n/%C3/ack",
        "/app.js/", "/APP.JS", "/api/../app.js", "/./", "/api/timers/../../../etc/passwd",
        "/api/timers/n/" + String(repeating: "a", count: KitchenAPI.segmentLimit + 1) + "/ack",
    ]

    @Test(arguments: unknownPaths)
    func anythingElseIs404(path: String) throws {
        for method in ["GET", "POST"] {
            let resolution = KitchenAPI.route(method: method, path: path)
            #expect(resolution == .notFound)
            let response = try #require(KitchenAPI.response(to: resolution))
            #expect(response.status == 404)
            #expect(response.headers.contains(.init("Cache-Control", "no-store")))
        }
    }

    static let encodings: [(String, String, String)] = [
        ("kitchen%2Fpi", "tea", "kitchen/pi"), ("n", "a%2Fb", "a/b"), ("n", "a%2fb", "a/b"),
        ("n", "1%3A30", "1:30"), ("n", "a%2Bb", "a+b"), ("k%C3%BCche", "x", "küche"), ("n", "100%25", "100%"),
        ("n%20two", "x", "n two"), ("n", "%2E%2E%2F", "../"), ("n", "a%23b", "a#b"),
    ]

    @Test(arguments: encodings)
    func nodeAndLabelArePercentDecoded(node: String, label: String, decoded: String) {
        let resolution = KitchenAPI.route(method: "POST", path: "/api/timers/\(node)/\(label)/ack")
        guard case .route(.action(let gotNode, let gotLabel, .ack)) = resolution else {
            Issue.record("\(node)/\(label) did not resolve: \(resolution)")
            return
        }
        #expect(gotNode == decoded || gotLabel == decoded)
    }

    @Test(arguments: ["kitchen/pi", "1:30", "a+b#c%d", "küche", "tab\there", "x\u{7F}", "Soft-2"])
    func aNamesMQTTTopicLevelDecodesToTheName(name: String) {
        let level = TimerTopics.level(name)
        #expect(
            KitchenAPI.route(method: "POST", path: "/api/timers/\(level)/\(level)/pause")
                == .route(.action(node: name, label: name, .pause)))
    }

    @Test func onlyThePageItsAssetsPairingAndTheSessionNeedNoSession() {
        let open = Self.routes.compactMap { route -> Route? in
            guard case .route(let route) = route.2, !route.needsSession else { return nil }
            return route
        }
        #expect(
            open == [
                .page, .asset("/app.js"), .asset("/app.css"), .asset("/manifest.webmanifest"), .asset("/icon.svg"),
                .session, .pair,
            ])
    }

    @Test func everyPOSTRouteChangesStateAndNoGETRouteDoes() {
        for (method, _, resolution) in Self.routes {
            guard case .route(let route) = resolution else { continue }
            #expect(route.changesState == (method == "POST"))
        }
    }
}
