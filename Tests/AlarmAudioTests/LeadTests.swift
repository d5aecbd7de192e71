import Glibc
import SystemKit
import Testing

@testable import AlarmAudio

/// A lead (a spoken line) at the head of each ringing, captured through a real `file:` PCM and a
/// scripted fake device: the lead comes first, unscaled, and the loop after it is the plain loop.
@Suite struct LeadTests {
    init() { silenceAudioLibraryMessages() }

    /// A known stereo lead, every sample different and none in the shipped sound's pattern.
    static func knownLead(frames: Int) -> [Int16] {
        (0..<(2 * frames)).map { Int16(truncatingIfNeeded: $0 * 7 - 9000) }
    }

    /// Rings `loops` passes on a `file:` PCM with `lead` and `loudness`; returns the captured samples.
    private func capture(lead: [Int16], loudness: Loudness, loops: Int) throws -> (AlarmSound, [Int16]) {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/capture.raw"
        let player = AlarmPlayer(sound: sound, device: "file:'\(path)',raw", loudness: loudness)
        player.lead = lead
        let driver = PlayerDriver(player, now: { .now })
        driver.start(at: .now, loops: loops)
        let end = try #require(driver.waitForEnd())
        guard case .finished(let report) = end else { throw Failure("expected .finished, got \(end)") }
        #expect(report.passes == loops)
        #expect(report.framesWritten == lead.count / sound.channels + loops * sound.frames)
        let bytes = try #require(TestFiles.read(path))
        return (sound, bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) })
    }

    @Test func theLeadComesFirstAndTheLoopAfterItIsThePlainLoop() throws {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        let lead = Self.knownLead(frames: 3 * sound.sampleRate / 10 + 17)  // not a whole buffer
        let (_, withLead) = try capture(lead: lead, loudness: .unchanged, loops: 2)
        let (_, plain) = try capture(lead: [], loudness: .unchanged, loops: 2)
        #expect(withLead.count == lead.count + plain.count)
        #expect(Array(withLead.prefix(lead.count)) == lead)
        #expect(Array(withLead.dropFirst(lead.count)) == plain)
        #expect(plain == Array([[Int16]](repeating: sound.samples, count: 2).joined()))
    }

    @Test func volumeAndRampScaleTheLoopOnlyAndTheRampStartsAfterTheLead() throws {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        let lead = Self.knownLead(frames: 5000)
        let loudness = Loudness(volumePercent: 40, rampFrames: sound.frames / 2)
        let (_, withLead) = try capture(lead: lead, loudness: loudness, loops: 2)
        let (_, plain) = try capture(lead: [], loudness: loudness, loops: 2)
        #expect(Array(withLead.prefix(lead.count)) == lead, "the lead is not scaled")
        #expect(Array(withLead.dropFirst(lead.count)) == plain, "the loop is scaled as without a lead")
        #expect(plain != Array([[Int16]](repeating: sound.samples, count: 2).joined()))
    }

    /// 1000 stereo frames whose samples are all different.
    static let sound = AlarmSound(samples: (0..<2000).map { Int16($0 - 1000) }, sampleRate: 1000, channels: 2)

    @Test func aReopenedDeviceStartsWithTheLeadAgain() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.writes = [.accept(frames: 200), .fail(ENODEV)]
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in
            try device.open()
        }
        let lead = Self.knownLead(frames: 300)
        player.lead = lead
        let driver = PlayerDriver(player, now: timer.now)
        driver.start(at: timer.now(), loops: 1)
        let end = try #require(driver.waitForEnd())
        guard case .finished(let report) = end else { throw Failure("expected .finished, got \(end)") }
        #expect(device.sessions.count == 2)
        #expect(device.sessions.first == Array(lead.prefix(400)))
        #expect(device.sessions.last == lead + Self.sound.samples)
        #expect(report.passes == 1)
    }

    @Test func theFirstLeadFrameIsWrittenAtTheStartInstant() throws {
        let timer = FakeTimer()
        let device = FakeDevice(channels: 2, timer: timer)
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in
            try device.open()
        }
        player.lead = Self.knownLead(frames: 300)
        let driver = PlayerDriver(player, now: timer.now)
        let startAt = timer.now() + .seconds(2)
        driver.start(at: startAt, loops: 1)
        let end = try #require(driver.waitForEnd())
        guard case .finished(let report) = end else { throw Failure("expected .finished, got \(end)") }
        #expect(report.firstFrameAt == startAt)
        #expect(device.sessions == [Self.knownLead(frames: 300) + Self.sound.samples])
    }
}
