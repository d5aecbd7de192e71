import TestSupport
import Testing
import TimerModel

@testable import eggtimer

/// The state words, pinned (issue 22): a hand-written list of the words and their meanings, which
/// the vocabulary, the man page and docs/DESIGN.md must match.
@Suite struct StateWordsTests {
    /// The documented states, in order, with what each means.
    static let documented: [(word: String, meaning: String)] = [
        ("menu", "no timer runs yet: the egg menu waits for a pick"),
        ("counting", "counting down towards its deadline"),
        ("paused", "paused: the time left is frozen"),
        ("ringing", "the deadline passed and the alarm sounds on a device"),
        ("silent", "the deadline passed and the alarm reaches no device: the terminal bell rings instead"),
        ("snoozed", "the alarm was snoozed and rings again later"),
        ("done", "acknowledged, or its --loops played"),
        ("cancelled", "cancelled, or quit before it was done"),
        ("missed", "stopped ringing without being acknowledged"),
    ]

    @Test func theVocabularyIsTheDocumentedList() {
        #expect(TimerState.allCases.map(\.rawValue) == Self.documented.map(\.word))
        #expect(TimerState.allCases.map(\.summary) == Self.documented.map(\.meaning))
    }

    @Test(arguments: TimerState.allCases)
    func eachWordReadsBackAndIsRingingOrFinalAsDocumented(state: TimerState) {
        #expect(TimerState(rawValue: state.rawValue) == state)
        #expect(state.isRinging == ["ringing", "silent"].contains(state.rawValue))
        #expect(state.isFinal == ["done", "cancelled", "missed"].contains(state.rawValue))
    }

    @Test func theManPageListsEveryStateWithItsMeaning() {
        #expect(Options.manPage.contains("\n.SH STATES\n"))
        for state in TimerState.allCases {
            #expect(Options.manPage.contains(".TP\n.B \(state.rawValue)\n"), "man page lacks \(state)")
        }
    }

    @Test func theDesignNotesHaveTheGeneratedTableOfStates() throws {
        let design = String(decoding: try #require(readFile(repositoryRoot + "/docs/DESIGN.md")), as: UTF8.self)
        #expect(design.contains(Options.statesTable + "\n"), "docs/DESIGN.md's states table is not Options.statesTable")
        for (word, meaning) in Self.documented { #expect(design.contains("| `\(word)` | \(meaning) |")) }
    }
}
