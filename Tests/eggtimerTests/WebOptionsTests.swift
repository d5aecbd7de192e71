import KitchenWeb
import Testing
import TimerModel
import TimerText

@testable import Kitchen
@testable import eggtimer

/// The kitchen's `--http…` options (issue 29), and the man page's HTTP API section pinned to the
/// routes and states KitchenWeb's API answers.
@Suite struct WebOptionsTests {
    @Test(
        arguments: [
            ("127.0.0.1:8080", "127.0.0.1", 8080), ("0.0.0.0:0", "0.0.0.0", 0), ("localhost:65535", "127.0.0.1", 65535),
            ("[::]:80", "::", 80), ("[::1]:8080", "::1", 8080),
        ] as [(String, String, UInt16)])
    func aListenAddressIsNumericWithAPort(text: String, address: String, port: UInt16) {
        let parsed = WebOptions.parseListen(text)
        #expect(parsed?.address == address && parsed?.port == port, "\(text)")
    }

    @Test(arguments: [
        "", "8080", ":8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80",
        "kitchen.lan:8080", "::1:8080", "[::1]", "[127.0.0.1]:80", "127.0.0.1:8080x", "1.2.3:80", "127.0.0.1:000080",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(WebOptions.parseListen(text) == nil, "\(text)")
    }

    @Test(arguments: [
        (["kitchen", "--http", "nope"], "option '--http' needs a numeric address"),
        (["kitchen", "--http-host", "a b"], "option '--http-host' needs a host name"),
        (["kitchen", "--http-host", "a,,b"], "option '--http-host' needs a host name"),
        (["--http", "127.0.0.1:80"], "option '--http' does not work with the egg menu"),
    ])
    func badHTTPOptionsAreOneLineNamingTheToken(arguments: [String], message: String) {
        do throws(UsageError) {
            _ = try Options.parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func httpHostRepeatsAndSplitsOnCommas() throws {
        let options = try Options.parse(["kitchen", "--http-host", "kitchen.lan, eggs", "--http-host", "eggs,pi.local"])
        #expect(options.web.names == ["kitchen.lan", "eggs", "pi.local"])
    }

    @Test func theManPageDocumentsEveryRouteActionAndState() throws {
        let page = Options.manPage
        let start = try #require(page.firstRange(of: "\n.SH HTTP API\n"))
        let section = String(page[start.upperBound...].split(separator: "\n.SH ").first ?? "")
        // Each route's `.TP` heading, `.B GET\ /api/timers`, is a route the API answers.
        let routes = section.split(separator: "\n").filter { $0.hasPrefix(".B GET\\ ") || $0.hasPrefix(".B POST\\ ") }
        #expect(routes.count >= 9, "\(routes)")
        for line in routes {
            let parts = line.dropFirst(3).replacing("\\-", with: "-").split(separator: "\\ ")
            let path = String(parts[1]).replacingOccurrences("NODE/LABEL/ACTION", with: "n/l/ack")
            guard case .route = KitchenAPI.route(method: String(parts[0]), path: path) else {
                Issue.record("the man page's \(line) is no route")
                continue
            }
        }
        for action in KitchenAPI.Action.allCases {
            #expect(section.contains("\\fB\(action.rawValue)\\fR"), "the man page lacks the action \(action)")
        }
        for state in TimerState.allCases {
            #expect(section.contains("\\fB\(state.rawValue)\\fR"), "the man page lacks the state \(state)")
        }
        for path in KitchenAPI.assetPaths { #expect(section.contains("\\fB\(path)\\fR"), "\(path)") }
    }
}

extension String {
    /// The text with every `target` replaced by `replacement` (no Foundation).
    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}
