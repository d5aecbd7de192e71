import AlarmAudio
import Glibc
import Testing

/// The public player against real alsa-lib devices that need no sound card (`file:`, `null`).
@Suite struct AlarmPlayerDeviceTests {
    init() { silenceAudioLibraryMessages() }

    @Test(arguments: [1, 3])
    func fileDeviceCapturesExactlyNCopiesWhenPlayingNLoops(loops: Int) throws {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let capture = directory + "/capture.raw"
        let player = AlarmPlayer(sound: sound, device: "file:'\(capture)',raw")
        let driver = PlayerDriver(player, now: { .now })

        driver.start(at: .now, loops: loops)
        let end = try #require(driver.waitForEnd())
        guard case .finished(let report) = end else { throw Failure("expected .finished, got \(end)") }

        #expect(report.passes == loops)
        #expect(report.framesWritten == loops * sound.frames)
        #expect(report.everPlayed)
        #expect(report.underruns == 0)
        #expect(report.stoppedAt == nil)
        #expect(report.lastError == nil)
        #expect(!player.isRunning)
        let firstFrameAt = try #require(report.firstFrameAt)
        #expect(driver.events == [.firstFrame(at: firstFrameAt), .finished(report)])

        let captured = try #require(TestFiles.read(capture))
        let expected = TestFiles.rawBytes(of: Array([[Int16]](repeating: sound.samples, count: loops).joined()))
        #expect(captured.count == expected.count)
        #expect(captured == expected)
    }

    @Test func probeOnNullSucceeds() throws {
        try AlarmPlayer.probe(device: "null", sound: AlarmSound.builtInTone())
    }

    @Test(arguments: ["nosuchpcm", "hw:97"])
    func probeOnAMissingDeviceThrowsDeviceUnavailable(device: String) {
        let error = #expect(throws: AlarmError.self) {
            try AlarmPlayer.probe(device: device, sound: AlarmSound.builtInTone())
        }
        guard case .deviceUnavailable(let named, let reason) = error else {
            Issue.record("expected .deviceUnavailable, got \(String(describing: error))")
            return
        }
        #expect(named == device)
        #expect(!reason.isEmpty)
        #expect(error?.description == "cannot open audio device '\(device)': \(reason)")
    }

    @Test func ringingOnNullUntilStoppedIsPacedAndStops() throws {
        let player = AlarmPlayer(sound: AlarmSound.builtInTone(), device: "null")
        let driver = PlayerDriver(player, now: { .now })

        driver.start(at: .now, loops: nil)
        try #require(driver.wait { if case .firstFrame = $0 { true } else { false } })
        #expect(player.isRunning)
        driver.stop()
        let end = try #require(driver.waitForEnd())
        guard case .stopped(let report) = end else { throw Failure("expected .stopped, got \(end)") }

        #expect(!player.isRunning)
        #expect(report.everPlayed)
        let firstFrameAt = try #require(report.firstFrameAt)
        let stoppedAt = try #require(report.stoppedAt)
        // Paced: never more than two 100 ms buffers (plus the chunk being written) ahead of real time.
        let elapsedFrames = Int(firstFrameAt.duration(to: stoppedAt) / .seconds(1) * 44_100)
        #expect(report.framesWritten <= elapsedFrames + 3 * 4_410 + 100)
        #expect(driver.events.last.map { if case .stopped = $0 { true } else { false } } == true)
        #expect(driver.longestCall < .milliseconds(100))
    }

    @Test func stopWithoutStartDoesNothingAndIsIdempotent() {
        let player = AlarmPlayer(sound: AlarmSound.builtInTone(), device: "null")
        let now = ContinuousClock.now
        player.stop(at: now)
        player.stop(at: now)
        #expect(!player.isRunning)
        #expect(player.nextCheck == nil)
        #expect(player.events(at: now + .seconds(10)).isEmpty)
    }

    @Test func unavailableDeviceIsReportedAndRetriedUntilStopped() throws {
        let player = AlarmPlayer(sound: AlarmSound.builtInTone(), device: "nosuchpcm")
        let driver = PlayerDriver(player, now: { .now })

        driver.start(at: .now, loops: 1)
        try #require(driver.wait { if case .deviceUnavailable = $0 { true } else { false } })
        let report = try #require(driver.stopAndWait())

        #expect(!report.everPlayed)
        #expect(report.passes == 0)
        #expect(report.stoppedAt != nil)
        guard case .deviceUnavailable(.deviceUnavailable(device: "nosuchpcm", _)) = driver.events.first else {
            Issue.record("expected .deviceUnavailable first, got \(driver.events)")
            return
        }
        #expect(
            report.lastError
                == driver.events.first.flatMap { if case .deviceUnavailable(let e) = $0 { e } else { nil } })
    }
}

/// Volume and fade-in reach the device: captured through a real `file:` PCM.
@Suite struct LoudnessDeviceTests {
    init() { silenceAudioLibraryMessages() }

    private func capture(_ loudness: Loudness, loops: Int) throws -> (sound: AlarmSound, samples: [Int16]) {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/capture.raw"
        let player = AlarmPlayer(sound: sound, device: "file:'\(path)',raw", loudness: loudness)
        let driver = PlayerDriver(player, now: { .now })
        driver.start(at: .now, loops: loops)
        _ = try #require(driver.waitForEnd())
        let bytes = try #require(TestFiles.read(path))
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return (sound, samples)
    }

    @Test func halfVolumeHalvesEverySample() throws {
        let (sound, samples) = try capture(Loudness(volumePercent: 50, rampFrames: 0), loops: 1)
        #expect(samples.count == sound.samples.count)
        let expected = sound.samples.map { Int16((Int64($0) * 16384 + 16384) >> 15) }
        #expect(samples == expected)
    }

    @Test func theRampRaisesThePeakPassByPassThenHolds() throws {
        // A ramp over the first two passes of three: each pass louder than the last, the third as decoded.
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        let (_, samples) = try capture(Loudness(volumePercent: 100, rampFrames: 2 * sound.frames), loops: 3)
        let pass = sound.samples.count
        #expect(samples.count == 3 * pass)
        let peaks = (0..<3).map { index in
            samples[(index * pass)..<((index + 1) * pass)].map { abs(Int($0)) }.max() ?? 0
        }
        #expect(peaks[0] < peaks[1] && peaks[1] < peaks[2], "peaks \(peaks)")
        #expect(Array(samples[(2 * pass)...]) == sound.samples)
        // From the floor (10 %, Q15 3276), not from silence: the first frames are the sound at the floor.
        let atFloor = sound.samples.prefix(64).map { Int16((Int64($0) * 3276 + 16384) >> 15) }
        #expect(Array(samples.prefix(64)) == atFloor)
        #expect(peaks[0] >= (sound.samples.map { abs(Int($0)) }.max() ?? 0) / 10, "peaks \(peaks)")
    }
}
