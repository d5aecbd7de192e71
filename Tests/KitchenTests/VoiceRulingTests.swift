import Listening
import Testing
import TimerCore

@testable import Kitchen

/// What the kitchen does with what its listener heard (issue 46), on an injected time since the
/// last spoken start: pure.
@Suite struct VoiceRulingTests {
    typealias Reading = VoiceCommand.Reading

    @Test(
        arguments: [
            // (reading, confident, since the last spoken start in seconds, ruling)
            (Reading(woken: true, command: .start("7m")), true, nil, Kitchen.Ruling.act(.start("7m"))),
            (Reading(woken: true, command: .start("7m")), false, nil, .askAgain),
            (Reading(woken: false, command: .start("7m")), true, nil, .ignore),
            (Reading(woken: true, command: .stop), false, nil, .act(.stop)),
            (Reading(woken: false, command: .stop), true, nil, .ignore),
            (Reading(woken: true, command: .snooze), false, nil, .act(.snooze)),
            (Reading(woken: true, command: .report), false, nil, .act(.report)),
            (Reading(woken: true, command: .addMinute), false, nil, .act(.addMinute)),
            (Reading(woken: true, command: .cancel(label: "pasta")), false, nil, .askAgain),
            (Reading(woken: true, command: .pause), false, nil, .askAgain),
            (Reading(woken: true, command: .resume), true, nil, .act(.resume)),
            // "no" needs no wake phrase right after a spoken start's answer, and only then.
            (Reading(woken: false, command: .undo), true, 3, .act(.undo)),
            (Reading(woken: false, command: .undo), true, 15, .act(.undo)),
            (Reading(woken: false, command: .undo), true, 16, .ignore),
            (Reading(woken: false, command: .undo), true, nil, .ignore),
            (Reading(woken: false, command: .undo), false, 3, .askAgain),
            (Reading(woken: true, command: .undo), true, nil, .act(.undo)),
        ] as [(Reading, Bool, Int?, Kitchen.Ruling)])
    func aCommandActsOnlyAfterTheWakePhraseAndAnUnsureOneOnlyWhenHarmless(
        reading: Reading, confident: Bool, since: Int?, ruling: Kitchen.Ruling
    ) {
        #expect(
            Kitchen.ruling(on: reading, confident: confident, sinceSpokenStart: since.map { .seconds($0) }) == ruling)
    }

    @Test func wordsThatAreNoCommandAreIgnored() {
        #expect(Kitchen.ruling(on: nil, confident: true, sinceSpokenStart: .seconds(1)) == .ignore)
    }

    /// The grammar's presets are the kitchen's in lower case, an egg's with "egg"; a name that
    /// cannot be said (digits, a space) is left out.
    @Test func theVocabularyHasThePresetsAsSaidAndTheSettingsWakePhraseAndLabels() {
        var listen = ListenSettings(device: "mic")
        listen.wakePhrase = ["hey", "kitchen"]
        listen.labels = ["pasta"]
        let presets =
            Preset.eggs + [Preset(name: "Tea", duration: .seconds(180)), Preset(name: "x2", duration: .seconds(1))]
        let vocabulary = Kitchen.vocabulary(listen, presets: presets)
        #expect(vocabulary.presets == ["soft egg", "medium egg", "hard egg", "tea"])
        #expect(vocabulary.wakePhrase == ["hey", "kitchen"] && vocabulary.labels == ["pasta"])
    }
}
