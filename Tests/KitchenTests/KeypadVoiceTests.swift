import AlarmAudio
import ControlChannel
import Glibc
import Speech
import Testing
import TimerModel

@testable import Kitchen
@testable import TimerEngine

/// A preparer that records what it is asked to say and never answers.
private final class RecordingPreparer: LinePreparer {
    private(set) var asked: [String] = []
    var descriptor: Int32 { -1 }
    var nextCheck: ContinuousClock.Instant? { nil }

    func prepare(_ text: String, voice: String?, sampleRate: Int, channels: Int, now: ContinuousClock.Instant)
        -> UInt64
    {
        asked.append(text)
        return UInt64(asked.count)
    }

    func results(at now: ContinuousClock.Instant) -> [(ticket: UInt64, outcome: LineOutcome)] { [] }
}

/// Every keypad press is answered by voice (issue 28): what the kitchen asks its voice to say for
/// each press, with nothing running or ringing, and from the timers' replies; English and German.
@Suite struct KeypadVoiceTests {
    /// A kitchen that is not run, with a voice over a recording preparer and the built-in tone as
    /// its sound (the `null` device).
    private func kitchen(voice: String? = nil) -> (Kitchen, RecordingPreparer) {
        var settings = KitchenSettings()
        settings.device = "null"
        settings.voice = voice
        let kitchen = Kitchen(settings: settings, loadSound: { _ in nil })
        let preparer = RecordingPreparer()
        kitchen.voice = KitchenVoice(voice: voice, preparer: preparer)
        kitchen.alarmSound = AlarmSound.builtInTone()
        return (kitchen, preparer)
    }

    @Test(
        arguments: [
            (
                nil,
                [
                    "Nothing is ringing", "Nothing is ringing", "Nothing is running", "Nothing is running",
                    "Nothing is running", "Nothing is running", "Not cancelled",
                ]
            ),
            (
                "de",
                [
                    "Es klingelt nichts", "Es klingelt nichts", "Es läuft nichts", "Es läuft nichts",
                    "Es läuft nichts", "Es läuft nichts", "Nicht abgebrochen",
                ]
            ),
        ] as [(String?, [String])])
    func withNothingRunningEveryPressIsAnsweredAndTheSpeakerTestSaysNothing(voice: String?, said: [String]) {
        let (kitchen, preparer) = kitchen(voice: voice)
        let now = ContinuousClock.now
        let actions: [KeyAction] = [
            .acknowledgeAllRinging, .snoozeAllRinging, .addToNewest(.seconds(60)),
            .cancelPending(deadline: now + .seconds(3)), .cancelNewest, .report, .cancelWithdrawn,
        ]
        for action in actions { kitchen.perform(key: action) }
        #expect(preparer.asked == said)
        kitchen.perform(key: .testSound)
        #expect(preparer.asked == said, "the speaker test is its own answer")
        kitchen.speakerTest?.stop(at: .now)
    }

    /// The answers made from the timers' replies: acknowledged ("tea stopped", several by name,
    /// the ones never heard said: issue 37), snoozed for the time its status says, a minute more, a refused start.
    @Test func theAnswersFromTheTimersRepliesNameTheTimerAndItsTime() {
        let (kitchen, preparer) = kitchen()
        let snoozed = TimerStatus(
            label: "tea", pid: 42, state: .snoozed, remaining: .milliseconds(599_990),
            deadlineUnixMilliseconds: nil)
        let moved = TimerStatus(
            label: "pasta", pid: 43, state: .counting, remaining: .milliseconds(239_500),
            deadlineUnixMilliseconds: nil)
        kitchen.answerRinging(.acknowledge, [("tea", "ok")])
        kitchen.answerRinging(.acknowledge, [("tea", "ok"), ("Soft", "ok")])
        kitchen.answerRinging(.acknowledge, [("Soft", "ok")])
        var unheard = TimerStatus(
            label: "pasta", pid: 45, state: .done, remaining: .zero, deadlineUnixMilliseconds: nil, deviceDown: true)
        unheard.silentReason = "cannot open audio device 'hw:0': ENOENT"
        kitchen.answerRinging(.acknowledge, [("Soft", "ok"), ("pasta", unheard.line)])
        kitchen.answerRinging(.snooze(nil), [("tea", snoozed.line)])
        kitchen.answerRinging(.snooze(nil), [])
        kitchen.answerMoved(moved.line)
        kitchen.answer(.refused(.init(kind: .busy, text: "at most 12 timers")))
        kitchen.answer(.refused(.init(kind: .configuration, text: "tea: not started: bad config")))
        let started = { (label: String) in
            TimerStatus(
                label: label, pid: 44, state: .counting, remaining: .milliseconds(299_950),
                deadlineUnixMilliseconds: nil)
        }
        kitchen.answer(.started(started("Soft")))
        kitchen.answer(.started(started("5min")))
        #expect(
            preparer.asked == [
                "tea stopped", "tea and Soft egg stopped", "Soft egg stopped",
                "Soft egg and pasta stopped; pasta never reached its speaker", "Snoozed for ten minutes",
                "pasta: four minutes left",
                "Not started: 12 timers run already",
                "Not started: the timer did not come up; see the kitchen's log", "Soft egg, five minutes",
                "Timer, five minutes",
            ])
    }
}
