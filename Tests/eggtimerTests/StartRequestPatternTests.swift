import Testing
import TimerText

/// The start request's regular expression (Home Assistant's text entity checks it before sending):
/// length and printable characters only (issue 41, 42); it lets through every request the parser
/// accepts, and the parser judges the rest.
@Suite struct StartRequestPatternTests {
    static let presets = ["Soft", "Medium", "Hard"]

    func matches(_ text: String) throws -> Bool {
        try Regex(StartRequest.pattern).wholeMatch(in: text) != nil
    }

    @Test(arguments: [
        "soft", "Soft", " HARD ", "medium eggs", "7m30s", "7m30s pasta", "1:30\ttea", "1.25s", "0.5s x",
        "90 rice:2", "1h30 a+b", "10m " + String(repeating: "a", count: 64), "999:59:59 long_label.2", "5 min",
        "1h 30m roast beef", "3m Spätzle", "90 sec Küche", "1 hour 30 minutes mum's stew",
        "10m " + String(repeating: "ü", count: 32),
    ])
    func everyAcceptedRequestMatches(text: String) throws {
        _ = try StartRequest.parse(text, presets: Self.presets)
        #expect(try matches(text))
    }

    @Test(arguments: [
        "", "-D null", "--on-done=x 7m", "7m a\u{1}b", "7m\u{7F}", "a\nb", String(repeating: "a", count: 161),
    ])
    func emptyOptionFirstControlOrTooLongDoesNotMatch(text: String) throws {
        #expect(throws: (any Error).self) { _ = try StartRequest.parse(text, presets: Self.presets) }
        #expect(try !matches(text))
    }

    @Test(arguments: ["tea 5m", "soft 5m", "5 30", "7m pa/sta", "lunch"])
    func theParserJudgesWhatThePatternLetsThrough(text: String) throws {
        #expect(try matches(text))
        #expect(throws: (any Error).self) { _ = try StartRequest.parse(text, presets: Self.presets) }
    }
}
