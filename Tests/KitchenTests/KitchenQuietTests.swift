import AlarmAudio
import ControlChannel
import Speech
import Testing
import TimerModel

@testable import Kitchen
@testable import TimerEngine

/// A preparer whose every line comes back at once as `samples`.
private final class InstantPreparer: LinePreparer {
    let samples: [Int16]
    private var waiting: [UInt64] = []
    private var tickets: UInt64 = 0
    init(samples: [Int16]) { self.samples = samples }
    var descriptor: Int32 { -1 }
    var nextCheck: ContinuousClock.Instant? { waiting.isEmpty ? nil : .now }

    func prepare(_ text: String, voice: String?, sampleRate: Int, channels: Int, now: ContinuousClock.Instant)
        -> UInt64
    {
        tickets += 1
        waiting.append(tickets)
        return tickets
    }

    func results(at now: ContinuousClock.Instant) -> [(ticket: UInt64, outcome: LineOutcome)] {
        defer { waiting = [] }
        return waiting.map { ($0, .ready(samples)) }
    }
}

/// The kitchen says nothing within 2 s of a followed timer's deadline, on top of the line's own
/// length, nor while one rings (issue 28), judged on an injected wall clock.
@Suite struct KitchenQuietTests {
    /// An instant of the wall clock far from today's (2001-09-09), so that a kitchen reading the
    /// real clock would find no deadline near and speak.
    private static let wall: Int64 = 1_000_000_000_000

    private static func status(_ state: TimerState, deadline: Int64?) -> TimerStatus {
        TimerStatus(
            label: "pasta", pid: 42, state: state, remaining: .seconds(3), deadlineUnixMilliseconds: deadline)
    }

    @Test(
        arguments: [
            // (state, deadline from now in ms, line length in ms, the reason or nil)
            (TimerState.counting, 2_999, 1_000, "a timer is due within 2 s"),
            (.counting, 3_000, 1_000, nil),
            (.counting, 1_999, 0, "a timer is due within 2 s"),
            (.counting, 2_000, 0, nil),
            (.counting, -1_999, 0, "a timer is due within 2 s"),
            (.counting, -2_000, 0, nil),
            (.ringing, 60_000, 0, "a timer rings"),
            // Issue 37: a timer ringing on no device holds no quiet at all: its deadline's window
            // once dropped its own "cannot reach its speaker" line for a longer label (a tester).
            (.silent, -60_000, 0, nil),
            (.silent, -1_000, 0, nil),
            (.silent, -500, 2_500, nil),
            (.done, 500, 0, nil),
            (.cancelled, 0, 1_000, nil),
            (.paused, nil, 1_000, nil),
        ] as [(TimerState, Int64?, Int64, String?)])
    func noLineWithinTwoSecondsOfADeadlineNorWhileATimerRings(
        state: TimerState, due: Int64?, line: Int64, reason: String?
    ) {
        let timers = [Self.status(state, deadline: due.map { Self.wall + $0 })]
        #expect(Kitchen.quietReason(timers: timers, wallMilliseconds: Self.wall, lineMilliseconds: line) == reason)
    }

    /// Deadlines at the ends of the range and a line length out of range neither trap nor let a
    /// line through next to a deadline.
    @Test func extremeNumbersNeitherTrapNorOpenTheQuiet() {
        let far = [Self.status(.counting, deadline: 0), Self.status(.counting, deadline: Int64.max)]
        #expect(Kitchen.quietReason(timers: far, wallMilliseconds: Int64.min, lineMilliseconds: Int64.max) != nil)
        #expect(Kitchen.quietReason(timers: far, wallMilliseconds: Self.wall, lineMilliseconds: -5) == nil)
        let near = [Self.status(.counting, deadline: Self.wall + 1_000)]
        #expect(Kitchen.quietReason(timers: near, wallMilliseconds: Self.wall, lineMilliseconds: Int64.min) != nil)
    }

    /// Through the kitchen: an answer made while a followed timer is due in 2.1 s by the injected
    /// wall clock waits; once that clock is 3 s past a deadline that is done, it is played.
    @Test func theKitchenHoldsAnAnswerNearADeadlineOnItsInjectedWallClock() throws {
        var settings = KitchenSettings()
        settings.device = "null"
        let kitchen = Kitchen(settings: settings, loadSound: { _ in nil })
        let sound = AlarmSound.builtInTone()
        kitchen.alarmSound = sound
        // A line of a quarter second: the margin is 2 s plus that.
        let samples = [Int16](repeating: 1_000, count: sound.sampleRate / 4 * sound.channels)
        let voice = KitchenVoice(voice: nil, preparer: InstantPreparer(samples: samples))
        kitchen.voice = voice
        var wall = Self.wall
        kitchen.wallMilliseconds = { wall }
        _ = kitchen.handle(.timerStatus(socket: "pasta", Self.status(.counting, deadline: Self.wall + 2_100)))

        kitchen.speak("Nothing is ringing")
        var inputs: [TimerEngine.Input] = []
        voice.service([], at: .now, into: &inputs)
        kitchen.voiceRound()
        #expect(kitchen.speakerTest == nil, "held: the timer is due in 2.1 s, within 2 s of the line's end")
        #expect(voice.nextCheck != nil, "and looked at again")

        wall = Self.wall + 2_000
        kitchen.voiceRound()
        #expect(kitchen.speakerTest == nil, "still held a tenth of a second before the deadline")

        _ = kitchen.handle(.timerStatus(socket: "pasta", Self.status(.done, deadline: Self.wall + 2_100)))
        wall = Self.wall + 5_500
        kitchen.voiceRound()
        let player = try #require(kitchen.speakerTest, "played once the timer is over and the clock past it")
        player.stop(at: .now)
    }
}
