import Listening
import TestSupport
import Testing

/// The recogniser on real speech: commands spoken by espeak-ng, cut by the cutter, decoded with the
/// generated grammar.
@Suite struct RecogniserTests {
    /// The grammar of the tests: the default vocabulary with the label "pasta".
    static let grammar = CommandGrammar.text(for: .init(labels: ["pasta"]))

    /// What is said and the words that must be heard.
    static let commands: [(said: String, heard: String)] = [
        ("egg timer, soft egg", "egg timer soft egg"), ("egg timer, hard egg", "egg timer hard egg"),
        ("egg timer, medium egg", "egg timer medium egg"),
        ("egg timer, seven minutes", "egg timer seven minutes"), ("egg timer, two minutes", "egg timer two minutes"),
        ("egg timer, twelve minutes", "egg timer twelve minutes"),
        ("egg timer, fifteen minutes", "egg timer fifteen minutes"),
        ("egg timer, fifty minutes", "egg timer fifty minutes"),
        ("egg timer, forty five minutes", "egg timer forty five minutes"),
        ("egg timer, an hour and a half", "egg timer an hour and a half"),
        ("egg timer, pasta, nine minutes", "egg timer pasta nine minutes"), ("egg timer, stop", "egg timer stop"),
        ("egg timer, snooze", "egg timer snooze"), ("egg timer, pause", "egg timer pause"),
        ("egg timer, resume", "egg timer resume"), ("egg timer, add a minute", "egg timer add a minute"),
        ("egg timer, how long is left", "egg timer how long is left"),
        ("egg timer, which timers are running", "egg timer which timers are running"),
        ("egg timer, cancel pasta", "egg timer cancel pasta"),
    ]
    /// The voices and speeds (words per minute) they are said in.
    static let speakers: [(voice: String, wordsPerMinute: Int)] = [
        ("en-us", 150), ("en-us", 190), ("en", 150), ("en", 190),
    ]

    @Test func spokenCommandsAreRecognisedExactly() throws {
        let corpus = SpokenCorpus()
        var recogniser = try Recogniser(grammar: Self.grammar)
        var (exact, audio, cpu) = (0, Duration.zero, Duration.zero)
        var misses: [String] = []
        for speaker in Self.speakers {
            for command in Self.commands {
                let samples = try corpus.samples(
                    command.said, voice: speaker.voice, wordsPerMinute: speaker.wordsPerMinute)
                var cutter = UtteranceCutter()
                let utterances = cutter.append(samples) + [cutter.finish()].compactMap { $0 }
                let before = threadCPUTime()
                let heard = utterances.compactMap { recogniser.decode(utterance: $0.samples) }.filter(\.isConfident)
                    .map(\.text)
                cpu += threadCPUTime() - before
                audio += .milliseconds(utterances.reduce(0) { $0 + $1.samples.count } / 16)
                if heard.joined(separator: " ") == command.heard {
                    exact += 1
                } else {
                    misses.append("\(speaker.voice)@\(speaker.wordsPerMinute) '\(command.said)' → \(heard)")
                }
            }
        }
        let total = Self.speakers.count * Self.commands.count
        print("MEASURED exact \(exact)/\(total); CPU \(cpu) for \(audio) of audio; misses: \(misses)")
        // Measured here: 64 of 76 (84 %); every miss a duration (seven as seventy or two, fifteen as
        // fifty, twelve as two, nine as two or twenty). Required: that less a margin of four.
        #expect(exact >= 60, "\(misses)")
    }

    @Test func unrelatedSpeechWakesNothing() throws {
        let corpus = SpokenCorpus()
        var recogniser = try Recogniser(grammar: Self.grammar)
        let paragraphs = [
            "The train left the station a little after nine, and by the time we reached the coast the rain had "
                + "stopped. We walked along the harbour, bought some bread and cheese, and sat on the wall "
                + "watching the boats come in.",
            "Put the big pan on the stove and let the water boil before the pasta goes in. Meanwhile chop the "
                + "onions, fry them slowly until they are soft, then add the tomatoes and a pinch of salt.",
        ]
        var (woken, forced): ([String], [String]) = ([], [])
        var heardCount = 0
        for speaker in [Self.speakers[0], Self.speakers[3]] {
            for paragraph in paragraphs {
                let samples = try corpus.samples(
                    paragraph, voice: speaker.voice, wordsPerMinute: speaker.wordsPerMinute)
                var cutter = UtteranceCutter()
                for utterance in cutter.append(samples) + [cutter.finish()].compactMap({ $0 }) {
                    guard let heard = recogniser.decode(utterance: utterance.samples) else { continue }
                    heardCount += 1
                    if heard.text.contains("egg timer") {
                        forced.append("\(heard.text) (\(heard.scorePerSecond)/s)")
                        if heard.isConfident { woken.append(heard.text) }
                    }
                }
            }
        }
        print("MEASURED unrelated: \(heardCount) utterances heard, forced onto the wake phrase \(forced)")
        #expect(heardCount > 0)
        #expect(woken.isEmpty)
    }

    @Test func aMissingLibraryModelOrWordIsATypedError() throws {
        #expect(throws: ListeningError.self) {
            _ = try Recogniser(grammar: Self.grammar, libraryName: "libpocketsphinx-absent.so.3")
        }
        #expect(throws: ListeningError.modelMissing(path: "/nonexistent/en-us/mdef")) {
            _ = try Recogniser(grammar: Self.grammar, modelFolder: "/nonexistent")
        }
        let unknown = "#JSGF V1.0;\ngrammar t;\npublic <a> = egg timer (zzqx | stop | qqzv);\n"
        #expect(throws: ListeningError.unknownWords(["zzqx", "qqzv"])) { _ = try Recogniser(grammar: unknown) }
        #expect(throws: ListeningError.self) { _ = try Recogniser(grammar: "#JSGF V1.0;\ngrammar t;\n") }
        let broken = "#JSGF V1.0;\ngrammar t;\npublic <a> = (egg timer;\n"
        #expect(throws: ListeningError.self) { _ = try Recogniser(grammar: broken) }
    }

    @Test func theMissingLibrarysErrorIsOneLineNamingThePackages() {
        do {
            _ = try Recogniser(grammar: Self.grammar, libraryName: "libpocketsphinx-absent.so.3")
            Issue.record("a recogniser without its library")
        } catch {
            #expect(error.message.hasPrefix("cannot load the speech recogniser (install libpocketsphinx3"))
            #expect(error.message.contains("libpocketsphinx-absent.so.3"))
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func silenceIsHeardAsNothing() throws {
        var recogniser = try Recogniser(grammar: Self.grammar)
        #expect(recogniser.decode(utterance: []) == nil)
        let heard = recogniser.decode(utterance: [Int16](repeating: 0, count: 16_000))
        #expect(heard.map { $0.text.contains("egg timer") } != true)
    }
}
