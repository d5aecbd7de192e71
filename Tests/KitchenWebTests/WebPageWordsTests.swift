import HouseBus
import TestSupport
import Testing
import TimerModel
import WebServer

@testable import KitchenWeb

/// Issue 44's words as a household reads them: a snoozed card says when it rings again, a wrong
/// pairing code says the tries left, the keypad's pairing key is named alike on the page, in the
/// README and in the man page, and the locked-sound notice is the script's to show.
@Suite struct WebPageWordsTests {
    private func picture(_ timers: [WebTimer]) -> WebPicture {
        WebPicture(node: "kitchen-pi", presets: [.init(name: "Soft", seconds: 360)], timers: timers)
    }

    private func timer(_ label: String, _ state: TimerState) -> WebTimer {
        WebTimer(
            node: "kitchen-pi", label: label, state: state, remaining: .seconds(598), total: .seconds(360),
            deadlineUnixMilliseconds: 1_796_150_400_000, kind: .egg("Soft"), deviceDown: false, isLocal: true)
    }

    private func page(_ timers: [WebTimer]) -> String {
        String(
            decoding: WebPage.page(WebPage.View(paired: true, csrf: "00", picture: picture(timers), message: nil)).body,
            as: UTF8.self)
    }

    /// The server's rows of `html` (not the script's template, which comes after `</main>`).
    private func rows(_ html: String) -> Substring {
        let main = html.firstRange(of: "<main>").map { html[$0.upperBound...] } ?? html[...]
        return main.firstRange(of: "</main>").map { main[..<$0.lowerBound] } ?? main
    }

    /// A snoozed card reads "rings again in 9:58", never a bare time that could be a time of day;
    /// every other card hides those words, and so does the script's template (the script shows
    /// them for a snoozed timer).
    @Test(arguments: TimerState.allCases)
    func onlyASnoozedCardSaysItRingsAgain(state: TimerState) {
        let html = page([timer("Soft", state)])
        let shown =
            #"<span class="when" data-field="when">rings again in</span>"#
            + #"<span class="left" data-field="left">9:58</span>"#
        let hidden = #"<span class="when" data-field="when" hidden>rings again in</span>"#
        if state == .snoozed {
            #expect(rows(html).contains(shown), "\(rows(html))")
        } else {
            #expect(rows(html).contains(hidden), "\(state)")
            #expect(!html.contains(#"data-field="when">"#), "\(state)")
        }
        let template = html.firstRange(of: "<template id=\"timer-row\">").map { html[$0.upperBound...] } ?? ""
        #expect(template.contains(hidden), "the template's words are hidden until the script shows them")
    }

    @Test(arguments: [
        (4, "wrong pairing code: 4 tries left"), (2, "wrong pairing code: 2 tries left"),
        (1, "wrong pairing code: 1 try left"),
        (0, "wrong pairing code, and that was its last try: get a new code on the kitchen's box"),
    ])
    func aWrongCodeSaysTheTriesLeft(triesLeft: Int, words: String) throws {
        let response = KitchenAPI.wrongCode(triesLeft: triesLeft)
        #expect(response.status == 403)
        #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
        let body = try #require(JSONValue.parse(response.body))
        #expect(body["error"]?.stringValue == words)
        #expect(body["tries_left"] == .number(Double(triesLeft)))
    }

    /// The pairing screen without JavaScript shows the same words (the form's answer is the page
    /// with the error's line).
    @Test func thePairingScreenShowsTheTriesLeftAsText() {
        let html = String(
            decoding: WebPage.page(
                WebPage.View(paired: false, csrf: nil, picture: nil, message: "wrong pairing code: 4 tries left")
            ).body, as: UTF8.self)
        #expect(html.contains(#"role="alert">wrong pairing code: 4 tries left</p>"#))
    }

    /// The keypad's pairing key (KeyMap: `.` or Enter, KEY_DOT, KEY_KPDOT, KEY_ENTER, KEY_KPENTER,
    /// held a second) is said in the same words on the pairing screen, in the README and twice in
    /// the man page, their markup aside.
    @Test func theKeypadsPairingKeyIsNamedAlikeEverywhere() throws {
        func plain(_ text: String) -> String {
            var out = text
            for markup in ["<kbd>", "</kbd>", "`", "\\fB", "\\fR"] { out = out.replacing(markup, with: "") }
            return out.replacing("\n   ", with: " ")
        }
        func file(_ path: String) throws -> String {
            plain(String(decoding: try #require(readFile(repositoryRoot + "/" + path), "no \(path)"), as: UTF8.self))
        }
        let words = "hold the keypad's . or Enter key for a second"
        let pairing = plain(String(decoding: PackageResources.pairing_html, as: UTF8.self))
        #expect(pairing.contains(words), "\(pairing)")
        #expect(try file("README.md").contains(words))
        #expect(try file("dist/eggtimer.1.in").ranges(of: words).count == 2)
        for text in [pairing, try file("README.md"), try file("dist/eggtimer.1.in")] {
            #expect(!text.contains("keypad's Enter key"), "the pairing key said otherwise")
            #expect(!text.contains("long press of ./Enter"), "the pairing key said otherwise")
        }
    }

    /// The notice that the phone's sound is locked is on the kitchen's page, hidden.
    ///
    /// The script shows it while its audio is not running (without the script the phone does not
    /// ring at all), with a button that is no form's submit. The pairing screen has none.
    @Test func theLockedSoundNoticeIsTheScriptsToShow() {
        let html = page([])
        #expect(html.contains(#"<div id="sound-locked" class="notice" role="status" hidden>"#))
        #expect(html.contains(#"<button type="button" id="unlock-sound">"#))
        #expect(html.ranges(of: "id=\"sound-locked\"").count == 1)
        let pairing = String(
            decoding: WebPage.page(WebPage.View(paired: false, csrf: nil, picture: nil, message: nil)).body,
            as: UTF8.self)
        #expect(!pairing.contains("sound-locked"))
        for part in ["function prepareSound()", "function unlock()", "$(\"sound-locked\").hidden = running;"] {
            #expect(WebPage.script.contains(part), "\(part)")
        }
    }

    /// The script takes over the cards the server drew (by node and label, as it keys its own),
    /// before its first picture: a page loaded with timers shows each once.
    @Test func theScriptAdoptsTheServersCards() {
        #expect(WebPage.script.contains("const key = keyOf(row.dataset);"))
        let start = WebPage.script.firstRange(of: "async function start()").map { WebPage.script[$0.lowerBound...] }
        let adopt = start?.firstRange(of: "adopt();")?.lowerBound
        let connect = start?.firstRange(of: "connect();")?.lowerBound
        if let adopt, let connect {
            #expect(adopt < connect)
        } else {
            Issue.record("start() calls no adopt() or no connect()")
        }
    }
}
