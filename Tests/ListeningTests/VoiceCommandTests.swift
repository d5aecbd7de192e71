import Listening
import Testing

/// The words the grammar lets through, read as commands (issue 46): pure.
@Suite struct VoiceCommandTests {
    static let vocabulary = CommandGrammar.Vocabulary(labels: ["pasta", "roast beef"])

    @Test(arguments: [
        ("egg timer soft egg", true, VoiceCommand.start("soft")),
        ("egg timer hard egg", true, .start("hard")),
        ("egg timer seven minutes", true, .start("7m")),
        ("egg timer one minute", true, .start("1m")),
        ("egg timer ninety minutes", true, .start("90m")),
        ("egg timer twenty one minutes", true, .start("21m")),
        ("egg timer an hour", true, .start("60m")),
        ("egg timer an hour and a half", true, .start("90m")),
        ("egg timer pasta seven minutes", true, .start("7m pasta")),
        ("egg timer roast beef an hour", true, .start("60m roast beef")),
        ("egg timer stop", true, .stop), ("stop", false, .stop), ("snooze", false, .snooze),
        ("egg timer cancel", true, .cancel(label: nil)), ("egg timer cancel pasta", true, .cancel(label: "pasta")),
        ("egg timer cancel roast beef", true, .cancel(label: "roast beef")),
        ("egg timer pause", true, .pause), ("egg timer resume", true, .resume),
        ("egg timer add a minute", true, .addMinute), ("egg timer how long is left", true, .report),
        ("egg timer which timers are running", true, .report), ("no", false, .undo),
        ("egg timer cancel that", true, .undo),
    ])
    func wordsTheGrammarLetsThroughAreOneCommand(words: String, woken: Bool, command: VoiceCommand) {
        let reading = VoiceCommand.read(words.split(separator: " ").map(String.init), vocabulary: Self.vocabulary)
        #expect(reading == VoiceCommand.Reading(woken: woken, command: command))
    }

    @Test(arguments: ["egg timer", "", "egg timer tea seven minutes", "seven", "egg timer cancel tea", "timer stop"])
    func otherWordsAreNoCommand(words: String) {
        #expect(VoiceCommand.read(words.split(separator: " ").map(String.init), vocabulary: Self.vocabulary) == nil)
    }

    /// Every duration the grammar offers is the minutes it names, read back from its words.
    @Test func everyDurationOfTheGrammarIsItsMinutes() {
        let phrases = CommandGrammar.durations(upTo: 90)
        let minutes = phrases.map {
            VoiceCommand.read(
                ["egg", "timer"] + $0.split(separator: " ").map(String.init), vocabulary: Self.vocabulary)
        }
        let expected: [VoiceCommand.Reading?] =
            (1...90).map { VoiceCommand.Reading(woken: true, command: .start("\($0)m")) } + [
                VoiceCommand.Reading(woken: true, command: .start("60m")),
                VoiceCommand.Reading(woken: true, command: .start("90m")),
            ]
        #expect(minutes == expected)
    }
}
