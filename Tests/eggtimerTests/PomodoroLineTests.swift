import AlarmAudio
import Glibc
import Speech
import TestSupport
import Testing
import TimerCore
import TimerEngineTestSupport

@testable import TimerEngine
@testable import eggtimer

/// A preparer that answers each text with its own samples at once.
private final class TextPreparer: LinePreparer {
    let answers: [String: [Int16]]
    private(set) var asked: [String] = []
    private var waiting: [(ticket: UInt64, text: String)] = []

    init(_ answers: [String: [Int16]]) { self.answers = answers }

    var descriptor: Int32 { -1 }
    var nextCheck: ContinuousClock.Instant? { nil }

    func prepare(_ text: String, voice: String?, sampleRate: Int, channels: Int, now: ContinuousClock.Instant)
        -> UInt64
    {
        asked.append(text)
        waiting.append((UInt64(asked.count), text))
        return UInt64(asked.count)
    }

    func results(at now: ContinuousClock.Instant) -> [(ticket: UInt64, outcome: LineOutcome)] {
        defer { waiting = [] }
        return waiting.map { ($0.ticket, answers[$0.text].map { .ready($0) } ?? .failed("no answer")) }
    }
}

/// A pomodoro's spoken lines (issue 28): "Break time" when work ends, "Long break" before the long
/// one, "Back to work" when a break ends, not "pomodoro is ready"; English and German.
@Suite struct PomodoroLineTests {
    init() { silenceAudioLibraryMessages() }

    @Test func theControllerNamesTheLineOfTheIntervalThatEnds() {
        let t0 = ContinuousClock.now
        let plan = Pomodoro.Plan(
            work: .seconds(10), shortBreak: .seconds(10), longBreak: .seconds(10), longBreakAfter: 2)
        var controller = Controller(configuration: .init(), start: .pomodoro(plan), at: t0)
        var lines: [RingLine] = []
        var now = t0
        for _ in 0..<100 {
            now += .milliseconds(500)
            for case .startAlarm(_, _, let line) in controller.tick(at: now) { lines.append(line) }
        }
        #expect(lines == [.breakTime(long: false), .backToWork, .breakTime(long: true), .backToWork])
        var plain = Controller(configuration: .init(), start: .plain(.seconds(1)), at: t0)
        #expect(plain.tick(at: t0 + .seconds(1)).contains(.startAlarm(at: t0 + .seconds(1), loops: nil, line: .ready)))
    }

    @Test(arguments: [
        ("en-gb", ["Break time", "Long break", "Back to work"]), ("de", ["Pause", "Lange Pause", "Weiter geht's"]),
    ])
    func announceGivesAPomodoroItsThreeLinesAndSayOneForAll(voice: String, words: [String]) throws {
        let options = try Options.parse(["pomodoro", "--announce", "--voice", voice])
        let lines = options.spokenLines(label: "pomodoro", phrases: Phrasebook(voice: voice))
        #expect(
            lines == [.breakTime(long: false): words[0], .breakTime(long: true): words[1], .backToWork: words[2]])
        let said = try Options.parse(["pomodoro", "--announce", "--say", "Tomato"])
        #expect(said.spokenLines(label: "pomodoro", phrases: Phrasebook(.english)) == [.ready: "Tomato"])
        let egg = try Options.parse(["soft", "--announce"])
        #expect(egg.spokenLines(label: "Soft", phrases: Phrasebook(.english)) == [.ready: "Soft eggs are ready"])
        #expect(try Options.parse(["pomodoro"]).spokenLines(label: "pomodoro", phrases: Phrasebook(.english)).isEmpty)
    }

    /// Each ringing of a pomodoro starts with its own line, captured through a `file:` PCM: the
    /// break's line, then the plain loop; then work's.
    @Test func eachRingingStartsWithItsOwnLineThroughAFilePCM() throws {
        let sound = AlarmSound.builtInTone()
        let breakSamples = (0..<(300 * sound.channels)).map { Int16(truncatingIfNeeded: $0 * 7 + 1) }
        let workSamples = (0..<(500 * sound.channels)).map { Int16(truncatingIfNeeded: -$0 * 11 - 1) }
        let preparer = TextPreparer(["Break time": breakSamples, "Back to work": workSamples])
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        var captures: [[Int16]] = []
        for (index, line) in [RingLine.breakTime(long: false), .backToWork].enumerated() {
            let path = directory + "/capture\(index).raw"
            let player = AlarmPlayer(sound: sound, device: "file:'\(path)',raw")
            let spoken = SpokenLine(
                texts: [
                    .breakTime(long: false): "Break time", .breakTime(long: true): "Long break",
                    .backToWork: "Back to work",
                ],
                voice: nil, sound: sound, preparer: preparer, player: player)
            let now = ContinuousClock.now
            spoken.request(at: now)
            var inputs: [TimerEngine.Input] = []
            spoken.service([], at: now, into: &inputs)
            spoken.alarmStarting(at: now, loops: 1, line: line, now: now)
            player.start(at: now, loops: 1, now: now)
            captures.append(try playedOut(player, into: path))
            #expect(spoken.takeNotes() == ["cannot speak the line: no answer; the alarm rings without it"])
        }
        // Each line, then SpokenLine.pause of silence, then the loop (issue 37).
        let pause = [Int16](
            repeating: 0, count: Int(SpokenLine.pause / .milliseconds(1)) * sound.sampleRate / 1000 * sound.channels)
        #expect(captures[0] == breakSamples + pause + sound.samples)
        #expect(captures[1] == workSamples + pause + sound.samples)
    }

    /// Waits (on the player's descriptor, 30 s at most) until `player`'s ringing ends, then reads
    /// what it wrote to the `file:` PCM at `path`.
    private func playedOut(_ player: AlarmPlayer, into path: String) throws -> [Int16] {
        let giveUp = ContinuousClock.now + .seconds(30)
        var ended = false
        while !ended, ContinuousClock.now < giveUp {
            var ready = pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 100)
            ended = player.events(at: .now).contains { $0.endsRinging }
        }
        try #require(ended, "the ringing never ended")
        let bytes = try #require(readFile(path))
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
