import ControlChannel
import Listening
import Testing
import TimerCore
import TimerModel

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
            (Reading(woken: true, command: .stop), false, nil, .unsure),
            (Reading(woken: true, command: .stop), true, nil, .act(.stop)),
            (Reading(woken: false, command: .stop), true, nil, .ignore),
            (Reading(woken: true, command: .snooze), false, nil, .unsure),
            (Reading(woken: true, command: .report), false, nil, .act(.report)),
            (Reading(woken: true, command: .addMinute), false, nil, .unsure),
            (Reading(woken: true, command: .cancel(label: "pasta")), false, nil, .unsure),
            (Reading(woken: true, command: .pause), false, nil, .unsure),
            (Reading(woken: true, command: .resume), true, nil, .act(.resume)),
            // "no" needs no wake phrase right after a spoken start's answer, and only then.
            (Reading(woken: false, command: .undo), true, 3, .act(.undo)),
            (Reading(woken: false, command: .undo), true, 15, .act(.undo)),
            (Reading(woken: false, command: .undo), true, 16, .ignore),
            (Reading(woken: false, command: .undo), true, nil, .ignore),
            (Reading(woken: false, command: .undo), false, 3, .unsure),
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

/// The time a report says is left (issue 46: "how long is left" said a 2 min timer's 2:00 nine
/// seconds in, from the last status its watch sent): on an injected wall clock, pure.
@Suite struct TimeLeftTests {
    private static let wall: Int64 = 1_000_000_000_000

    @Test func aCountingTimersTimeLeftComesFromItsDeadline() {
        let status = TimerStatus(
            label: "2m", pid: 42, state: .counting, remaining: .seconds(120),
            deadlineUnixMilliseconds: Self.wall + 111_000)
        #expect(Kitchen.timeLeft(status, atWall: Self.wall) == .seconds(111))
        #expect(Kitchen.timeLeft(status, atWall: Self.wall + 200_000) == .zero, "never below zero")
        #expect(Kitchen.timeLeft(status, atWall: Self.wall - 60_000) == .seconds(120), "never above its status's")
    }

    @Test func aPausedTimersTimeLeftIsItsStatussAndOneWithoutADeadlineToo() {
        let paused = TimerStatus(
            label: "tea", pid: 42, state: .paused, remaining: .seconds(90), deadlineUnixMilliseconds: Self.wall + 5_000)
        #expect(Kitchen.timeLeft(paused, atWall: Self.wall) == .seconds(90))
        let unknown = TimerStatus(
            label: "tea", pid: 42, state: .counting, remaining: .seconds(30), deadlineUnixMilliseconds: nil)
        #expect(Kitchen.timeLeft(unknown, atWall: Self.wall) == .seconds(30))
        let far = TimerStatus(
            label: "tea", pid: 42, state: .counting, remaining: .seconds(30), deadlineUnixMilliseconds: .max)
        #expect(Kitchen.timeLeft(far, atWall: .min) == .seconds(30), "an overflow keeps the status's")
    }
}
