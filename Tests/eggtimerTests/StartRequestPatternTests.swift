import Testing
import TimerText

/// The start request's regular expression (Home Assistant's text entity checks it before sending):
/// it lets through every request the parser accepts and stops the shapes the parser refuses.
@Suite struct StartRequestPatternTests {
    static let presets = ["Soft", "Medium", "Hard"]

    func matches(_ text: String) throws -> Bool {
        try Regex(StartRequest.pattern).wholeMatch(in: text) != nil
    }

    @Test(arguments: [
        "soft", "Soft", " HARD ", "medium eggs", "7m30s", "7m30s pasta", "1:30\ttea", "1.25s", "0.5s x",
        "90 rice:2", "1h30 a+b", "10m " + String(repeating: "a", count: 64), "999:59:59 long_label.2",
    ])
    func everyAcceptedRequestMatches(text: String) throws {
        _ = try StartRequest.parse(text, presets: Self.presets)
        #expect(try matches(text))
    }

    @Test(arguments: [
        "", " ", "7m --on-done x", "-D null", "7m -x", "7m pasta sauce", "7m pa/sta", "7m .x", "7m a;rm",
        "7m 'curl|sh'", "7m $(id)", "t\u{E9}a", "7m a\u{1}b", "10m " + String(repeating: "a", count: 65),
    ])
    func shapesTheParserRefusesDoNotMatch(text: String) throws {
        #expect(throws: (any Error).self) { _ = try StartRequest.parse(text, presets: Self.presets) }
        #expect(try !matches(text))
    }
}
