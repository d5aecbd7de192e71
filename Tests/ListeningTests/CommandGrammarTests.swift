import Testing

@testable import Listening

@Suite struct CommandGrammarTests {
    @Test(arguments: [
        (1, "one"), (7, "seven"), (12, "twelve"), (15, "fifteen"), (20, "twenty"), (21, "twenty one"),
        (50, "fifty"), (77, "seventy seven"), (90, "ninety"), (99, "ninety nine"),
    ])
    func numbersAreSpelledAsTheDictionaryHasThem(value: Int, words: String) {
        #expect(CommandGrammar.number(value) == words)
    }

    @Test func durationsRunFromOneMinuteToTheMaximumThenTheHours() {
        let durations = CommandGrammar.durations(upTo: 90)
        #expect(durations.count == 92)
        #expect(durations.prefix(3) == ["one minute", "two minutes", "three minutes"])
        #expect(durations.contains("forty five minutes"))
        #expect(durations.suffix(3) == ["ninety minutes", "an hour", "an hour and a half"])
        #expect(Set(durations).count == durations.count)
    }

    @Test func theGrammarHasTheWakePhraseEveryCommandAndOnePublicRule() {
        let text = CommandGrammar.text(for: .init(labels: ["pasta", "rice"]))
        #expect(text.hasPrefix("#JSGF V1.0;\ngrammar eggtimer;\n"))
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("public ") }.count == 1)
        for expected in [
            "<wake> = egg timer;", "<preset> = (soft egg) | (medium egg) | (hard egg);", "<label> = pasta | rice;",
            "[<label>] <duration>", "cancel [<label>]", "(add a minute)", "(how long is left)",
            "(which timers are running)", "| stop |", "| snooze |", "| pause |", "| resume |",
            "(seven minutes) | ", "(an hour and a half);", "public <utterance> = <wake> <command> | <command>;",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
    }

    @Test func theGrammarsWordsAreTheVocabularysWords() {
        let vocabulary = CommandGrammar.Vocabulary(labels: ["pasta", "boiled rice"])
        let words = JSGFText.words(in: CommandGrammar.text(for: vocabulary))
        #expect(Set(words) == Set(CommandGrammar.words(of: vocabulary)))
        #expect(words.count == CommandGrammar.words(of: vocabulary).count)
        #expect(words.contains("rice") && words.contains("ninety") && !words.contains("ninety one"))
    }

    @Test func theSameVocabularyGivesTheSameText() {
        let vocabulary = CommandGrammar.Vocabulary(wakePhrase: ["kitchen"], labels: ["pasta"], maximumMinutes: 20)
        #expect(CommandGrammar.text(for: vocabulary) == CommandGrammar.text(for: vocabulary))
        #expect(CommandGrammar.text(for: vocabulary).contains("<wake> = kitchen;"))
        #expect(!CommandGrammar.text(for: vocabulary).contains("twenty one"))
    }

    @Test func jsgfWordsSkipHeadersRuleNamesTagsWeightsAndComments() {
        let grammar = """
            #JSGF V1.0;
            grammar test; // a comment with words
            import <other.rule>;
            /* block comment */
            public <a> = (hello | /2.0/ there) [world] {tag words} <b>*;
            <b> = "quoted" hello+;
            """
        #expect(JSGFText.words(in: grammar) == ["hello", "there", "world", "quoted"])
    }
}
