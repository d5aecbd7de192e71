import AlarmAudio
import HouseBus
import TestSupport
import Testing
import TimerModel
import TimerText
import WebServer

@testable import KitchenWeb

/// Issue 30's page as bytes: the escaping of every string from a timer, the security headers of
/// every response, no inline script or style, the script's state table against `TimerState`.
@Suite struct WebPageTests {
    /// A picture with one timer of each kind, labels and node names hostile where the type allows.
    private func picture(_ timers: [WebTimer]) -> WebPicture {
        WebPicture(
            node: "kitchen-pi",
            presets: [
                .init(name: "Soft", seconds: 360), .init(name: "Medium", seconds: 480),
                .init(name: "Hard", seconds: 600),
            ],
            timers: timers)
    }

    private func timer(
        _ label: String, _ state: TimerState, node: String = "kitchen-pi", preset: String? = nil,
        kind: TimerSnapshot.Kind = .plain,
        deviceDown: Bool = false, isLocal: Bool = true
    ) -> WebTimer {
        WebTimer(
            node: node, label: label, state: state, remaining: .milliseconds(312_500), total: .seconds(360),
            deadlineUnixMilliseconds: 1_796_150_400_000, kind: preset.map { .egg($0) } ?? kind, deviceDown: deviceDown,
            isLocal: isLocal)
    }

    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    private func header(_ name: String, _ response: HTTPResponse) -> [String] {
        response.headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    @Test(arguments: [
        ("", ""), ("Soft", "Soft"), ("<b>x</b>", "&lt;b&gt;x&lt;/b&gt;"), ("a & b", "a &amp; b"),
        ("\"quoted\" 'single'", "&quot;quoted&quot; &#39;single&#39;"), ("&amp;", "&amp;amp;"),
        ("Küche ⏲", "Küche ⏲"), ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ])
    func htmlEscapingReplacesEveryMarkupCharacter(raw: String, escaped: String) {
        #expect(raw.htmlEscaped == escaped)
    }

    @Test func everyStringFromATimerIsEscapedOnThePage() {
        let hostile = timer("<b>x</b>", .ringing, node: "\"><img src=x>", preset: "<i>Soft</i>", isLocal: false)
        let view = WebPage.View(paired: true, csrf: "ab\"cd", picture: picture([hostile]), message: "<u>no</u>")
        let html = text(WebPage.page(view))
        for raw in ["<b>x</b>", "\"><img src=x>", "<i>Soft</i>", "<u>no</u>", "ab\"cd"] {
            #expect(!html.contains(raw), "\(raw) appears unescaped")
        }
        for escaped in [
            "&lt;b&gt;x&lt;/b&gt;", "&quot;&gt;&lt;img src=x&gt;", "&lt;i&gt;Soft&lt;/i&gt;", "&lt;u&gt;no&lt;/u&gt;",
        ] {
            #expect(html.contains(escaped), "\(escaped) missing")
        }
    }

    /// Every HTML response, paired or not, with or without timers, carries the contract's CSP.
    @Test(arguments: [false, true])
    func everyHTMLResponseCarriesTheStrictPolicy(paired: Bool) {
        let views = [
            WebPage.View(paired: paired, csrf: paired ? "00" : nil, picture: nil, message: nil),
            WebPage.View(
                paired: paired, csrf: "00", picture: picture([timer("Soft", .counting, preset: "Soft")]), message: "m"),
        ]
        for view in views {
            let response = WebPage.page(view)
            #expect(response.status == 200)
            #expect(header("Content-Type", response) == ["text/html; charset=utf-8"])
            #expect(
                header("Content-Security-Policy", response) == [
                    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; "
                        + "connect-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; "
                        + "frame-ancestors 'none'"
                ])
            #expect(header("X-Content-Type-Options", response) == ["nosniff"])
            #expect(header("Referrer-Policy", response) == ["same-origin"])
            #expect(header("Cache-Control", response) == ["no-store"])
        }
    }

    @Test(arguments: [
        ("/app.js", "text/javascript; charset=utf-8"), ("/app.css", "text/css; charset=utf-8"),
        ("/manifest.webmanifest", "application/manifest+json"), ("/icon.svg", "image/svg+xml"),
    ])
    func everyAssetHasItsTypeAndTheCommonHeaders(path: String, type: String) throws {
        let response = try #require(WebPage.asset(path: path))
        #expect(response.status == 200 && !response.body.isEmpty)
        #expect(header("Content-Type", response) == [type])
        #expect(header("X-Content-Type-Options", response) == ["nosniff"])
        #expect(header("Referrer-Policy", response) == ["same-origin"])
    }

    /// The form's start field takes what a start may be (``StartRequest/limit``: `1 hour 30
    /// minutes roast beef` is longer than the 40 characters it once took), and its hint shows a
    /// spaced duration, the one grammar's (issue 41).
    @Test func theStartFieldTakesAWholeStartRequest() {
        let html = text(WebPage.page(WebPage.View(paired: true, csrf: "00", picture: picture([]), message: nil)))
        let field = html.firstRange(of: "<input id=\"start\"").map { html[$0.lowerBound...].prefix { $0 != ">" } }
        #expect(field?.contains("maxlength=\"\(StartRequest.limit)\"") == true, "\(field ?? "no start field")")
        #expect(field?.contains("placeholder=\"5 min\"") == true, "\(field ?? "no start field")")
    }

    @Test(arguments: ["/", "/alarm.mp3", "/api/timers", "/app.js/", "/APP.JS", "/app.js?x", "/../app.js", ""])
    func otherPathsAreNoAsset(path: String) {
        #expect(WebPage.asset(path: path) == nil)
    }

    /// No inline script, no inline style, no event-handler attribute, no `javascript:` URL: the
    /// CSP would block them, so the page must not need them.
    @Test(arguments: [false, true])
    func thePageHasNoInlineScriptOrStyle(paired: Bool) {
        let timers = [
            timer("Soft", .ringing, preset: "Soft"), timer("focus", .counting, kind: .pomodoro(phase: "work")),
            timer("tea", .silent, deviceDown: true),
        ]
        let html = text(WebPage.page(WebPage.View(paired: paired, csrf: "00", picture: picture(timers), message: nil)))
        let lower = html.lowercased()
        var rest = Substring(lower)
        var scripts = 0
        while let open = rest.firstRange(of: "<script") {
            let tag = rest[open.lowerBound...].prefix { $0 != ">" }
            #expect(tag.contains("src=\"/app.js\""), "a script without src: \(tag)")
            rest = rest[open.upperBound...]
            #expect(rest.drop { $0 != ">" }.dropFirst().hasPrefix("</script>"), "a script with inline content")
            scripts += 1
        }
        #expect(scripts == 1)
        #expect(!lower.contains("<style"))
        #expect(!lower.contains(" style="))
        #expect(!lower.contains("javascript:"))
        #expect(!Self.hasHandlerAttribute(lower), "an inline event handler")
        let svg = text(WebPage.asset(path: "/icon.svg")!).lowercased()
        #expect(!svg.contains("<script") && !svg.contains(" style=") && !Self.hasHandlerAttribute(svg))
    }

    /// Whether `html` holds an attribute ` onSOMETHING=`.
    private static func hasHandlerAttribute(_ html: String) -> Bool {
        var rest = Substring(html)
        while let found = rest.firstRange(of: " on") {
            let name = rest[found.upperBound...].prefix { $0.isLetter }
            if !name.isEmpty, rest[found.upperBound...].dropFirst(name.count).hasPrefix("=") { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// The script's `NAME = …;` line, parsed as JSON.
    private func scriptTable(_ name: String) throws -> JSONValue {
        let line = try #require(WebPage.script.split(separator: "\n").first { $0.hasPrefix("const \(name) = ") })
        let value = line.dropFirst("const \(name) = ".count).dropLast()
        return try #require(JSONValue.parse(Array(value.utf8)), "\(line)")
    }

    /// The page keeps no second list of states: a row shows the `state` word of the API's JSON,
    /// and the script's tables are keyed by `TimerState`'s words.
    @Test func theScriptsTablesHaveExactlyTheAPIsStatesAndShowItsWord() throws {
        #expect(!WebPage.script.contains("STATE_TEXT"))
        #expect(WebPage.script.contains(#"field(row, "state").textContent = timer.state;"#))
        let ringing = try scriptTable("RINGING").arrayValue?.compactMap(\.stringValue)
        #expect(ringing == TimerState.allCases.filter(\.isRinging).map(\.rawValue))
        let final = try scriptTable("FINAL").arrayValue?.compactMap(\.stringValue)
        #expect(final == TimerState.allCases.filter(\.isFinal).map(\.rawValue))
        guard case .object(let actions) = try scriptTable("ACTIONS") else {
            Issue.record("ACTIONS is no object")
            return
        }
        #expect(actions.map(\.key) == TimerState.allCases.map(\.rawValue))
    }

    /// Without JavaScript a row says its state in the API's word, for every state.
    @Test(arguments: TimerState.allCases)
    func aServerRenderedRowSaysItsStateInTheAPIsWord(state: TimerState) {
        let view = WebPage.View(paired: true, csrf: "00", picture: picture([timer("pasta", state)]), message: nil)
        let html = text(WebPage.page(view))
        #expect(html.contains(#"data-field="state">\#(state.rawValue)</span>"#), "\(state)")
        #expect(html.contains(#"data-state="\#(state.rawValue)""#))
    }

    /// The script never writes markup: labels and messages go in with `textContent`.
    @Test func theScriptSetsTextNeverMarkup() {
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            #expect(!WebPage.script.contains(sink), "\(sink)")
        }
        #expect(WebPage.script.contains("textContent = timer.label"))
    }

    @Test func theTitleFollowsTheEggs() {
        #expect(WebPage.title(picture([])) == "How do you like your eggs?")
        #expect(WebPage.title(picture([timer("tea", .counting, kind: .plain)])) == "How do you like your eggs?")
        #expect(WebPage.title(picture([timer("Soft", .counting, preset: "Soft")])) == "So you like it Soft huh?")
        #expect(WebPage.title(picture([timer("Hard", .ringing, preset: "Hard")])) == "So you like it Hard huh?")
        #expect(WebPage.title(picture([timer("Soft", .done, preset: "Soft")])) == "Alright, don't choke on them!")
        #expect(WebPage.title(nil) == "How do you like your eggs?")
    }

    @Test func oneRingingTimerFillsTheScreenWithItsStopAndSnooze() {
        let html = text(
            WebPage.page(
                WebPage.View(
                    paired: true, csrf: "00", picture: picture([timer("Soft", .ringing, preset: "Soft")]), message: nil)
            ))
        #expect(
            html.contains(
                "<section id=\"ringing\" class=\"ringing\" role=\"alertdialog\" aria-labelledby=\"ring-title\">"))
        #expect(html.contains("action=\"/api/timers/kitchen-pi/Soft/ack\" id=\"ring-form\""))
        #expect(html.contains("formaction=\"/api/timers/kitchen-pi/Soft/snooze\">Snooze"))
        #expect(html.contains("<p id=\"ring-warning\" class=\"warning\" hidden>"))
        let two = text(
            WebPage.page(
                WebPage.View(
                    paired: true, csrf: "00", picture: picture([timer("a", .ringing), timer("b", .silent)]),
                    message: nil)))
        #expect(two.contains("action=\"/api/ack-all\" id=\"ring-form\""))
        #expect(two.contains("<p id=\"ring-warning\" class=\"warning\">"), "a silent ring warns")
        let none = text(
            WebPage.page(
                WebPage.View(paired: true, csrf: "00", picture: picture([timer("a", .counting)]), message: nil)))
        #expect(none.contains("aria-labelledby=\"ring-title\" hidden>"))
    }

    @Test func thePairingScreenComesFirstAndHoldsNoTimer() {
        let html = text(
            WebPage.page(WebPage.View(paired: false, csrf: nil, picture: nil, message: "wrong pairing code")))
        #expect(html.contains("<form method=\"post\" action=\"/api/pair\" id=\"pair-form\">"))
        #expect(html.contains(">wrong pairing code</p>"))
        #expect(!html.contains("id=\"kitchen\""))
        #expect(!html.contains("name=\"csrf\" value=\"") || html.contains("name=\"csrf\" value=\"\""))
    }

    @Test(arguments: ["Soft", "1:30", "pasta+2", "a_b.c-d", "kitchen-pi"])
    func aValidLabelsPathSegmentIsItsTopicLevel(label: String) {
        #expect(WebPage.pathSegment(label) == TimerTopics.level(label))
    }

    @Test(arguments: [
        ("a b", "a%20b"), ("x/y", "x%2Fy"), ("100%", "100%25"), ("Küche", "K%C3%BCche"), ("a?#", "a%3F%23"),
    ])
    func otherCharactersArePercentEncoded(name: String, segment: String) {
        #expect(WebPage.pathSegment(name) == segment)
    }

    @Test(arguments: [
        (0, "0:00"), (59, "0:59"), (360, "6:00"), (3599, "59:59"), (3600, "1:00:00"), (86_399, "23:59:59"),
        (-5, "0:00"),
    ])
    func clockTextIsMinutesAndSeconds(seconds: Int64, shown: String) {
        #expect(WebPage.clock(seconds: seconds) == shown)
    }

    @Test func theAlarmSoundIsTheFileByteForByte() throws {
        let path = repositoryRoot + "/Sounds/alarm_sound.mp3"
        let response = WebPage.alarmSound(path: path)
        #expect(response.status == 200)
        #expect(header("Content-Type", response) == ["audio/mpeg"])
        #expect(response.body == (try #require(readFile(path))))
        #expect(WebPage.alarmSound(path: repositoryRoot + "/Sounds/no-such.mp3").status == 404)
        #expect(WebPage.alarmSound(path: repositoryRoot + "/Sounds").status == 404, "a folder is no sound")
        let configured = SoundFilePath(repositoryRoot + "/Sounds/alarm_sound.mp3")
        #expect(WebPage.alarmSound(configured: configured).body == WebPage.alarmSound(path: path).body)
        #expect(WebPage.alarmSound(configured: SoundFilePath(bytes: Array("/tmp/x\0y".utf8))).status == 404)
    }

    @Test func theManifestIsJSONNamingTheIcon() throws {
        let manifest = try #require(JSONValue.parse(WebPage.asset(path: "/manifest.webmanifest")?.body ?? []))
        #expect(manifest["start_url"]?.stringValue == "/")
        #expect(manifest["display"]?.stringValue == "standalone")
        #expect(manifest["icons"]?.arrayValue?.first?["src"]?.stringValue == "/icon.svg")
    }
}
