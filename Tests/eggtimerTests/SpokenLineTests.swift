import AlarmAudio
import Glibc
import Speech
import SystemKit
import TestSupport
import Testing

@testable import TimerEngine
@testable import eggtimer

/// A preparer the test controls: it answers what it is told, when it is told, or never.
private final class ScriptedPreparer: LinePreparer {
    /// What each request is answered with; nil: never answered (a stuck synthesis).
    var answer: LineOutcome?
    /// Every line asked for: text, voice, rate, channels.
    private(set) var asked: [(text: String, voice: String?, sampleRate: Int, channels: Int)] = []
    private var waiting: [UInt64] = []

    var descriptor: Int32 { -1 }
    var nextCheck: ContinuousClock.Instant? { nil }

    func prepare(_ text: String, voice: String?, sampleRate: Int, channels: Int, now: ContinuousClock.Instant)
        -> UInt64
    {
        asked.append((text, voice, sampleRate, channels))
        waiting.append(UInt64(asked.count))
        return UInt64(asked.count)
    }

    func results(at now: ContinuousClock.Instant) -> [(ticket: UInt64, outcome: LineOutcome)] {
        guard let answer else { return [] }
        defer { waiting = [] }
        return waiting.map { ($0, answer) }
    }
}

/// A synthesis stuck in C, the speech layer's seam: it says when it has begun, and blocks until let go
/// (30 s at most).
private final class StuckSynthesis: SpeechSynthesizing {
    private let begun = WakePipe()
    private let release = WakePipe()

    func render(_ text: String, voice: String, format: SpeechFormat) throws(SpeechError) -> SpokenAudio {
        begun.ring()
        var entry = pollfd(fd: release.descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 30_000)
        return SpokenAudio(samples: [1, 1], format: format)
    }

    /// Waits (on its pipe, 10 s at most) until a synthesis has begun.
    func awaitBegun() -> Bool {
        var entry = pollfd(fd: begun.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 10_000) == 1
    }

    /// Lets every synthesis, current and later, return at once.
    func letGo() { release.ring() }
}

/// The spoken line at the head of each ringing (issue 28): asked for at start, handed to the real
/// player as its lead, never waited for; the options, the record and a recovered timer.
@Suite struct SpokenLineTests {
    init() { silenceAudioLibraryMessages() }

    /// The 400 ms of silence between the line and the loop (issue 37), in `sound`'s format.
    private func pause(_ sound: AlarmSound) -> [Int16] {
        [Int16](repeating: 0, count: 400 * sound.sampleRate / 1000 * sound.channels)
    }

    /// A known lead in the built-in tone's format: every sample different.
    private func knownLead(_ sound: AlarmSound, frames: Int) -> [Int16] {
        (0..<(frames * sound.channels)).map { Int16(truncatingIfNeeded: $0 * 13 - 20000) }
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

    /// Rings one pass through a `file:` PCM after `prepare` had its say; returns the capture and the notes.
    private func ring(
        answer: LineOutcome?, loudness: Loudness = .unchanged
    ) throws -> (sound: AlarmSound, captured: [Int16], notes: [String], preparer: ScriptedPreparer) {
        let sound = AlarmSound.builtInTone()
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/capture.raw"
        let player = AlarmPlayer(sound: sound, device: "file:'\(path)',raw", loudness: loudness)
        let preparer = ScriptedPreparer()
        preparer.answer = answer
        let line = SpokenLine(text: "Pasta is ready", voice: "en-gb", sound: sound, preparer: preparer, player: player)
        let now = ContinuousClock.now
        line.request(at: now)
        var inputs: [TimerEngine.Input] = []
        line.service([], at: now, into: &inputs)
        #expect(inputs.isEmpty)
        line.alarmStarting(at: now, loops: 1, now: now)
        player.start(at: ContinuousClock.now, loops: 1, now: ContinuousClock.now)
        let captured = try playedOut(player, into: path)
        return (sound, captured, line.takeNotes(), preparer)
    }

    @Test func theLineComesFirstAtTheDeadlineAndTheLoopAfterItIsThePlainLoop() throws {
        let sound = AlarmSound.builtInTone()
        let lead = knownLead(sound, frames: 4321)
        let (_, captured, notes, preparer) = try ring(answer: .ready(lead))
        #expect(notes.isEmpty)
        #expect(preparer.asked.count == 1)
        #expect(preparer.asked.first?.text == "Pasta is ready")
        #expect(preparer.asked.first?.voice == "en-gb")
        #expect(preparer.asked.first?.sampleRate == sound.sampleRate)
        #expect(preparer.asked.first?.channels == sound.channels)
        #expect(captured == lead + pause(sound) + sound.samples, "the line, 400 ms of silence, the loop")
    }

    @Test func volumeAndRampDoNotScaleTheLine() throws {
        let sound = AlarmSound.builtInTone()
        let lead = knownLead(sound, frames: 1000)
        let loudness = Loudness(volumePercent: 30, rampFrames: sound.frames / 3)
        let (_, withLine, _, _) = try ring(answer: .ready(lead), loudness: loudness)
        let (_, plain, _, _) = try ring(answer: .failed("x"), loudness: loudness)
        let spoken = lead + pause(sound)
        #expect(Array(withLine.prefix(spoken.count)) == spoken)
        #expect(Array(withLine.dropFirst(spoken.count)) == plain)
    }

    @Test func aPreparerThatNeverAnswersGivesThePlainAlarmOnTimeWithOneLine() throws {
        let (sound, captured, notes, _) = try ring(answer: nil)
        #expect(captured == sound.samples)
        #expect(notes == ["the spoken line was not ready when the alarm started: it rings without it"])
    }

    /// A synthesis stuck when the deadline comes holds up nothing.
    ///
    /// Through the program's own preparer (SpeechLinePreparer over SpeechPreparer): the ringing
    /// starts at once, the plain loop sample for sample, with one line; the time bound gives the
    /// line up later.
    @Test func aStuckSynthesisGivesThePlainAlarmOnTime() throws {
        let stuck = StuckSynthesis()
        defer { stuck.letGo() }
        let sound = AlarmSound.builtInTone()
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/capture.raw"
        let player = AlarmPlayer(sound: sound, device: "file:'\(path)',raw")
        let preparer = SpeechLinePreparer(SpeechPreparer(synthesizer: stuck, limit: .seconds(2)))
        let line = SpokenLine(text: "Pasta is ready", voice: "en-gb", sound: sound, preparer: preparer, player: player)
        let asked = ContinuousClock.now
        line.request(at: asked)
        try #require(stuck.awaitBegun(), "the synthesis began")
        let deadline = ContinuousClock.now
        var inputs: [TimerEngine.Input] = []
        line.service([], at: deadline, into: &inputs)
        line.alarmStarting(at: deadline, loops: 1, now: deadline)
        player.start(at: deadline, loops: 1, now: deadline)
        let took = deadline.duration(to: .now)
        #expect(took < .milliseconds(100), "the ringing started \(took) after the deadline")
        #expect(try playedOut(player, into: path) == sound.samples, "the plain loop")
        #expect(line.takeNotes() == ["the spoken line was not ready when the alarm started: it rings without it"])
        let givenUp = preparer.results(at: asked + .seconds(2)).map(\.outcome)
        #expect(givenUp == [.failed("speech synthesis took longer than 2000 ms and was abandoned")])
    }

    @Test(arguments: [
        (LineOutcome.failed("espeak-ng has no voice 'xx'"), "cannot speak the line: espeak-ng has no voice 'xx'"),
        (
            LineOutcome.libraryMissing("libespeak-ng.so.1 is not installed"),
            "warning: libespeak-ng.so.1 is not installed"
        ),
        (LineOutcome.ready([1]), "the spoken line came back empty or in pieces"),
    ])
    func aFailedLineIsOneLineAndThePlainAlarm(outcome: LineOutcome, said: String) throws {
        let (sound, captured, notes, _) = try ring(answer: outcome)
        #expect(captured == sound.samples)
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix(said) == true, "\(notes)")
    }

    /// A ringing started without the line (a timer shorter than the device's early open) is
    /// started again with it when it comes before the deadline (by more than the restart margin):
    /// the capture is the line, then the loop, and nothing is said.
    @Test func aLineThatComesBeforeTheDeadlineRestartsTheRingingWithIt() throws {
        let sound = AlarmSound.builtInTone()
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/capture.raw"
        let player = AlarmPlayer(sound: sound, device: "file:'\(path)',raw")
        let preparer = ScriptedPreparer()
        let line = SpokenLine(text: "Tea", voice: nil, sound: sound, preparer: preparer, player: player)
        let now = ContinuousClock.now
        line.request(at: now)
        let at = now + SpokenLine.restartMargin + .seconds(1)
        line.alarmStarting(at: at, loops: 1, now: now)
        player.start(at: at, loops: 1, now: now)
        let lead = knownLead(sound, frames: 10)
        preparer.answer = .ready(lead)
        var inputs: [TimerEngine.Input] = []
        line.service([], at: .now, into: &inputs)
        #expect(line.takeNotes().isEmpty, "nothing to say: the ringing has its line")
        let captured = try playedOut(player, into: path)
        #expect(captured == lead + pause(sound) + sound.samples, "\(captured.count) samples")
    }

    @Test func aLineThatComesLateIsPlayedFromTheNextRinging() throws {
        let sound = AlarmSound.builtInTone()
        let player = AlarmPlayer(sound: sound, device: "null")
        let preparer = ScriptedPreparer()
        let line = SpokenLine(text: "Tea", voice: nil, sound: sound, preparer: preparer, player: player)
        line.request(at: .now)
        let now = ContinuousClock.now
        line.alarmStarting(at: now, loops: nil, now: now)  // sounding already: too late to start again
        line.alarmStarting(at: now, loops: nil, now: now)  // said once
        let lead = knownLead(sound, frames: 10)
        preparer.answer = .ready(lead)
        var inputs: [TimerEngine.Input] = []
        line.service([], at: .now, into: &inputs)
        #expect(player.lead == lead + pause(sound))
        #expect(line.stage == .ready)
        #expect(line.takeNotes().count == 2)
        #expect(line.nextCheck == nil && line.pollRequests.isEmpty, "nothing more to wait for")
    }

    @Test func sayAndAnnounceChooseTheLine() throws {
        let sentence: (String) -> String = { "\($0) is ready" }
        #expect(try Options.parse(["5m"]).spokenLine(label: "5m", sentence: sentence) == nil)
        #expect(try Options.parse(["5m", "--say", "Tea"]).spokenLine(label: "5m", sentence: sentence) == "Tea")
        #expect(
            try Options.parse(["soft", "--announce"]).spokenLine(label: "Soft", sentence: sentence) == "Soft is ready")
        let both = try Options.parse(["soft", "--announce", "--say", "Eggs!", "--voice", "de"])
        #expect(both.spokenLine(label: "Soft", sentence: sentence) == "Eggs!")
        #expect(both.voice == "de")
    }

    @Test(arguments: [
        (["5m", "--say", ""], "'--say'"), (["5m", "--say", "a\u{7}b"], "'--say'"),
        (["5m", "--say", String(repeating: "x", count: 201)], "'--say'"),
        (["5m", "--voice", "en gb"], "'--voice'"), (["5m", "--voice", "../x"], "'--voice'"),
        (["5m", "--voice", String(repeating: "a", count: 41)], "'--voice'"),
        (["5m", "--voice", "en+"], "'--voice'"), (["5m", "--voice", "+m3"], "'--voice'"),
        (["5m", "--voice", "en+m3+f1"], "'--voice'"), (["5m", "--voice", "en_gb"], "'--voice'"),
        (["status", "--say", "hi"], "'--say'"), (["ack", "--announce"], "'--announce'"),
        (["follow", "--voice", "de"], "'--voice'"),
    ])
    func badOrMisplacedSpeechOptionsAreOneLineAndExit64(arguments: [String], token: String) {
        let result = runEggtimer(arguments + ["-D", "null"], timeout: .seconds(10))
        #expect(result.termination == .exited(64))
        #expect(result.stderr.hasPrefix("eggtimer: "))
        #expect(result.stderr.contains(token))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func theConfigFileTakesAnnounceAndVoice() throws {
        let file = ConfigFile(
            location: .init(path: Array("/tmp/config".utf8), required: false),
            contents: Array("announce = yes\nvoice = de\n".utf8))
        let options = try Options.settings(from: file)
        #expect(options.announce == true && options.voice == "de")
        // Where the file set it, for the check at start (78 naming it); the command line's wins.
        #expect(options.voiceConfigLine == ConfigLine(file: "/tmp/config", number: 2))
        #expect(try Options.parse(["5m"], base: options).voiceConfigLine == ConfigLine(file: "/tmp/config", number: 2))
        let given = try Options.parse(["5m", "--voice", "en+m3"], base: options)
        #expect(given.voice == "en+m3" && given.voiceConfigLine == nil)
        let bad = ConfigFile(
            location: .init(path: Array("/tmp/config".utf8), required: false),
            contents: Array("announce = maybe\n".utf8))
        #expect(throws: ConfigError.self) { try Options.settings(from: bad) }
    }

    private let record = TimerRecord(
        label: "pasta", kind: .plain, total: .seconds(300), state: .counting,
        deadlineBootNanoseconds: 12_345_678_901_234, deadlineUnixNanoseconds: 1_796_000_000_123_456_789,
        remaining: nil, bootID: "707ed7c7-4f1c-4f38-9c13-ece405ac5c28", pid: 4242,
        alarm: .init(device: "null", say: "Käse ist fertig = gut", announce: true, voice: "en+f3"))

    @Test func theRecordKeepsTheLineAndAnOlderRecordHasNone() throws {
        let text = record.text
        #expect(text.contains("\nsay=Käse ist fertig = gut\n"))
        #expect(text.contains("\nannounce=yes\nvoice=en+f3\n"))
        #expect(try TimerRecord(parsing: Array(text.utf8)) == record)
        var plain = record
        plain.alarm = .init(device: "null", say: "Pasta is ready")
        #expect(plain.alarm.say == "Pasta is ready")
        #expect(plain.text.contains("\nsay=Pasta is ready\n") && !plain.text.contains("announce"))
        #expect(try TimerRecord(parsing: Array(plain.text.utf8)) == plain)
        // Written before the keys existed: no line.
        let older = text.split(separator: "\n").filter {
            !$0.hasPrefix("say") && !$0.hasPrefix("announce") && !$0.hasPrefix("voice")
        }
        let read = try TimerRecord(parsing: Array((older.joined(separator: "\n") + "\n").utf8))
        #expect(read.alarm.say == nil && !read.alarm.announce && read.alarm.voice == nil)
        for broken in ["announce=no", "voice=a b", "say_hex=0a"] {
            let bytes = Array((older.joined(separator: "\n") + "\n" + broken + "\n").utf8)
            #expect(throws: RecordError.self, "\(broken)") { try TimerRecord(parsing: bytes) }
        }
    }

    @Test func aRecoveredTimerAsksItsPreparerForItsLine() throws {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        var recorded = record
        recorded.alarm = .init(device: "null", say: "Pasta is ready", voice: "de")
        let path = directory + "/pasta.record"
        writeFile(path, Array(recorded.text.utf8), mode: 0o600)
        let (options, _, _) = try Resume.load(path: path, base: Options(), clockSynchronised: { true })
        let text = try #require(options.spokenLine(label: options.processLabel, sentence: { "\($0) is ready" }))
        let sound = AlarmSound.builtInTone()
        let preparer = ScriptedPreparer()
        let line = SpokenLine(
            text: text, voice: options.voice, sound: sound, preparer: preparer,
            player: AlarmPlayer(sound: sound, device: "null"))
        line.request(at: .now)
        #expect(preparer.asked.map(\.text) == ["Pasta is ready"])
        #expect(preparer.asked.map(\.voice) == ["de"])
    }

    /// A countdown named by its length as typed says its length ("5s" read aloud is "five z");
    /// any other label is ready, in English or German (a recovered timer's label, from its record,
    /// goes the same way).
    @Test(
        arguments: [
            (["5s", "--announce"], "Five seconds are up"),
            (["5s", "--announce", "--voice", "de"], "Fünf Sekunden sind um"),
            (["1h30", "--announce", "--voice", "fr"], "One hour thirty minutes are up"),
            (["7", "--announce"], "Seven seconds are up"),
            (["5min", "--label", "pasta", "--announce", "--voice", "de"], "pasta ist fertig"),
            (["5min", "--label", "tea-2", "--announce"], "tea-2 is ready"),
            (["soft", "--announce", "--voice", "de"], "Die weichen Eier sind fertig"),
        ] as [([String], String)])
    func aTimerNamedByItsLengthSaysItsLength(arguments: [String], said: String) throws {
        let options = try Options.parse(arguments)
        let phrases = Phrasebook(voice: options.voice ?? SpeechLinePreparer.defaultVoice)
        #expect(options.spokenLines(label: options.processLabel, phrases: phrases) == [.ready: said])
    }
}
