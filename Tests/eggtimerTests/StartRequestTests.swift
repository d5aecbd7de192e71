import Testing
import TimerText

/// A start request from any front (issue 26): typed values, and a command line built only from
/// them, so no payload can add an option.
@Suite struct StartRequestTests {
    static let presets = ["Soft", "Medium", "Hard", "pasta"]

    @Test(arguments: [
        ("soft", ["soft"]), ("Soft", ["soft"]), ("  HARD \n", ["hard"]), ("pasta", ["pasta"]),
        ("medium eggs", ["medium", "--label", "eggs"]),
        ("7m30s", ["450s", "--label", "7m30s"]), ("7m30s pasta", ["450s", "--label", "pasta"]),
        ("1:30\ttea", ["90s", "--label", "tea"]), ("1.25s", ["1.25s", "--label", "1.25s"]),
        ("0.5s x", ["0.5s", "--label", "x"]), ("90 rice:2", ["90s", "--label", "rice:2"]),
    ])
    func aRequestBecomesTheseArguments(text: String, arguments: [String]) throws {
        let request = try StartRequest.parse(Array(text.utf8), presets: Self.presets)
        #expect(request.arguments == arguments)
        // What it says of itself parses back to the same request.
        #expect(try StartRequest.parse(request.description, presets: Self.presets) == request)
    }

    @Test(arguments: [
        ("", "an empty start request"), ("  \n", "an empty start request"),
        ("7m --on-done x", "'--on-done': a start request takes no options"),
        ("-D null", "'-D': a start request takes no options"),
        ("7m pasta sauce", "'sauce': a start request is a preset or a duration and at most one label"),
        ("7m pa/sta", "invalid label 'pa/sta'"), ("7m .x", "invalid label '.x'"),
        ("7m a;rm", "invalid label 'a;rm'"), ("7m a\u{1}b", "the control character U+0001"),
        ("7m\u{7F}", "the control character U+007F"),
        ("lunch", "'lunch' is neither a preset (soft, medium, hard, pasta) nor a duration"),
        ("0s", "'0s' is neither a preset"), ("1000h", "'1000h' is neither a preset"),
        ("7m 'curl|sh'", "invalid label ''curl|sh''"),
    ])
    func aBadRequestIsOneLineNamingTheToken(text: String, message: String) {
        #expect {
            _ = try StartRequest.parse(Array(text.utf8), presets: Self.presets)
        } throws: { error in
            "\(error)".contains(message) && !"\(error)".contains("\n")
        }
    }

    @Test func anOversizedOrInvalidUTF8RequestIsRefusedBeforeItIsRead() throws {
        let long = Array(repeating: UInt8(ascii: "1"), count: StartRequest.limit + 1)
        #expect(throws: (any Error).self) { _ = try StartRequest.parse(long, presets: Self.presets) }
        #expect(throws: (any Error).self) {
            _ = try StartRequest.parse([0x37, 0x6D, 0x20, 0xFF], presets: Self.presets)
        }
        let fits = Array("5m ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 64)
        #expect(try StartRequest.parse(fits, presets: Self.presets).label?.utf8.count == 64)
    }
}
