import Testing
import TimerCore
import TimerText

@testable import eggtimer

/// The one grammar of a start (issue 41): every unit word, spaced every way, with and without a
/// label, gives the same timer through `StartRequest.parse` (MQTT, HTTP, the kitchen's socket,
/// the keypad's `key-N`) and the command line, as one argument and as separate words.
@Suite struct StartGrammarTableTests {
    static let units: [(word: String, seconds: Int64)] =
        ["h", "hr", "hrs", "hour", "hours"].map { ($0, 7200) }
        + ["m", "min", "mins", "minute", "minutes"].map { ($0, 120) }
        + ["s", "sec", "secs", "second", "seconds"].map { ($0, 2) }
    static let spacings = ["", " ", "\t", "  "]
    static let labels: [String?] = [nil, "pasta", "roast beef", "Küche"]
    static let presets = Preset.eggs.map(\.name)

    struct Case: CustomTestStringConvertible {
        var typed: String
        var label: String?
        var seconds: Int64
        var testDescription: String { "\(typed.debugDescription) \(label ?? "-")" }
        /// The label the timer gets: the one given, else the duration as typed, blanks collapsed.
        var expectedLabel: String {
            label ?? typed.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        }
        var text: String { typed + (label.map { " " + $0 } ?? "") }
    }

    static let cases: [Case] = units.flatMap { unit in
        spacings.flatMap { spacing in
            labels.map { Case(typed: "2" + spacing + unit.word, label: $0, seconds: unit.seconds) }
        }
    }

    @Test(arguments: cases)
    func everyPathGivesTheSameTimer(_ start: Case) throws {
        let request = try StartRequest.parse(start.text, presets: Self.presets)
        #expect(request == StartRequest(length: .duration(.seconds(start.seconds)), label: start.expectedLabel))
        #expect(try StartRequest.parse(request.description, presets: Self.presets) == request, "round trip")
        let oneArgument = try Options.parse([start.text])
        let words = start.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let separate = try Options.parse(words)
        for options in [oneArgument, separate] {
            #expect(
                options.command == .countdown(.seconds(start.seconds), text: Options.defaultLabel(typed: start.typed)))
            #expect(options.processLabel == start.expectedLabel)
        }
        if let label = start.label {  // `--label` given apart: the same timer
            let apart = try Options.parse([start.typed, "--label", label])
            #expect(apart.processLabel == label && apart.command == oneArgument.command)
        }
    }

    @Test(
        arguments: [
            ("1h 30m", 5400, "1h 30m"), ("1 hour 30 minutes", 5400, "1 hour 30 minutes"),
            ("1h 30m pasta", 5400, "pasta"),
            ("1h 30 pasta", 5400, "pasta"), ("90 sec rice", 90, "rice"), ("7m30s", 450, "7m30s"),
            ("1:30 tea", 90, "tea"),
            ("3m Spätzle", 180, "Spätzle"),
        ] as [(String, Int64, String)])
    func aFewMoreFormsGiveTheSameTimerEverywhere(text: String, seconds: Int64, label: String) throws {
        let request = try StartRequest.parse(text, presets: Self.presets)
        #expect(request == StartRequest(length: .duration(.seconds(seconds)), label: label))
        for arguments in [[text], text.split(separator: " ").map(String.init)] {
            let options = try Options.parse(arguments)
            #expect(
                options.command == .countdown(.seconds(seconds), text: Options.defaultLabel(typed: text))
                    || options.label == label)
            #expect(options.processLabel == label)
            guard case .countdown(let duration, _) = options.command else {
                Issue.record("not a countdown: \(options.command)")
                continue
            }
            #expect(duration == .seconds(seconds))
        }
    }

    /// Ambiguous words are refused on every path with one line naming the token, never guessed.
    @Test(arguments: [
        ("5 30", "'30'"), ("5 min min", "'min'"), ("soft 5m", "'5m'"), ("5m 1:30 tea", "'1:30'"),
        ("2 hours 3 hours", "'hours'"), ("soft 2 eggs", "'2'"),
    ])
    func anAmbiguousStartIsRefusedNamingTheToken(text: String, token: String) {
        #expect {
            _ = try StartRequest.parse(text, presets: Self.presets)
        } throws: { error in
            "\(error)".hasPrefix(token) && !"\(error)".contains("\n")
        }
        for arguments in [[text], text.split(separator: " ").map(String.init)] {
            #expect {
                _ = try Options.parse(arguments)
            } throws: { error in
                "\(error)".hasPrefix(token)
            }
        }
    }

    /// The first word neither a preset nor a duration is the one blamed (`tea 5m` named `5m`).
    @Test func theFirstWordIsBlamedWhenItIsNeither() {
        #expect {
            _ = try StartRequest.parse("tea 5m", presets: Self.presets)
        } throws: { error in
            "\(error)".hasPrefix("'tea' is neither a preset (soft, medium, hard) nor a duration")
        }
        #expect {
            _ = try Options.parse(["tea", "5m"])
        } throws: { error in
            "\(error)".hasPrefix("unknown mode 'tea'")
        }
    }

    @Test func aPresetTakesALabelOfWords() throws {
        let options = try Options.parse(["Soft", "roast", "beef"])
        #expect(options.command == .preset(0) && options.processLabel == "roast beef")
        #expect(
            try StartRequest.parse("SOFT roast  beef", presets: Self.presets)
                == StartRequest(length: .preset("soft"), label: "roast beef"))
    }
}
