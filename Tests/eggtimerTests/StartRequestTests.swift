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
        ("5 min", ["300s", "--label", "5 min"]), ("5  MIN\t", ["300s", "--label", "5 MIN"]),
        ("1h 30m", ["5400s", "--label", "1h 30m"]), ("1 hour 30 minutes", ["5400s", "--label", "1 hour 30 minutes"]),
        ("90 sec", ["90s", "--label", "90 sec"]), ("5 min pasta", ["300s", "--label", "pasta"]),
        ("1h 30m roast beef", ["5400s", "--label", "roast beef"]), ("3m Spätzle", ["180s", "--label", "Spätzle"]),
        ("3m  Küche   am Herd", ["180s", "--label", "Küche am Herd"]), ("7m 2.5 eggs", ["422.5s", "--label", "eggs"]),
        ("1h 30 pasta", ["5400s", "--label", "pasta"]),
        ("soft roast beef", ["soft", "--label", "roast beef"]), ("7m soft", ["420s", "--label", "soft"]),
        ("7m pasta sauce", ["420s", "--label", "pasta sauce"]), ("7m mum's stew", ["420s", "--label", "mum's stew"]),
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
        ("7m pa/sta", "invalid label 'pa/sta'"), ("7m 50%", "invalid label '50%'"),
        ("5 30", "'30': give one duration; a label may not read as another"),
        ("5 min min", "'min': a unit needs its number before it"),
        ("5m second batch", "'second': a unit needs its number before it"),
        ("soft 5m", "'5m': give a preset or a duration, not both"),
        ("soft Hard", "'Hard': give one preset; a label may not name another"),
        ("soft 2", "'2': give a preset or a duration"),
        ("5m 1:30 pasta", "'1:30': a label may not begin with a number or a duration"),
        ("7m30s 2.5 eggs", "'2.5': a label may not begin with a number or a duration"),
        ("tea 5m", "'tea' is neither a preset (soft, medium, hard, pasta) nor a duration"),
        ("7m .x", "invalid label '.x'"),
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

    /// A label given apart (`--label`, the API's `label`) is checked as one after the words, and
    /// the words may then hold none; the duration as typed stands as a label (as the kitchen
    /// starts `5 min`: `300s --label '5 min'`).
    @Test func aLabelGivenApartIsCheckedAsALabelAfterTheWords() throws {
        let apart = try StartRequest.parse("5 min", label: "roast  beef", presets: Self.presets)
        #expect(apart == StartRequest(length: .duration(.seconds(300)), label: "roast beef"))
        let typed = try StartRequest.parse("300s", label: "5 min", presets: Self.presets)
        #expect(typed == StartRequest(length: .duration(.seconds(300)), label: "5 min"))
        #expect(typed.description == "5 min")
        #expect(try StartRequest.parse(typed.description, presets: Self.presets) == typed)
        for (text, label, message) in [
            ("7m pasta", "x", "'pasta' and --label 'x': give the label once"),
            ("7m", "5m", "'5m': give one duration"), ("soft", "5m", "'5m': give a preset or a duration"),
            ("7m", "min x", "'min': a unit needs its number"), ("7m", "a/b", "invalid label 'a/b'"),
        ] {
            #expect {
                _ = try StartRequest.parse(text, label: label, presets: Self.presets)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}
