import AlarmAudio
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
        let events = EventLog()

        player.start(at: .now, loops: loops, onEvent: events.handler)
        try #require(events.waitForFinished())
        let report = player.stop()

        #expect(report.passes == loops)
        #expect(report.framesWritten == loops * sound.frames)
        #expect(report.everPlayed)
        #expect(report.underruns == 0)
        #expect(report.stoppedAt == nil)
        #expect(report.lastError == nil)
        #expect(!player.isRunning)
        let firstFrameAt = try #require(report.firstFrameAt)
        #expect(events.all == [.firstFrame(at: firstFrameAt), .finished(passes: loops)])

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
        let events = EventLog()

        player.start(at: .now, loops: nil, onEvent: events.handler)
        try #require(events.waitForFirstFrame())
        #expect(player.isRunning)
        let report = player.stop()

        #expect(!player.isRunning)
        #expect(report.everPlayed)
        let firstFrameAt = try #require(report.firstFrameAt)
        let stoppedAt = try #require(report.stoppedAt)
        // Paced: never more than two 100 ms buffers (plus the chunk being written) ahead of real time.
        let elapsedFrames = Int(firstFrameAt.duration(to: stoppedAt) / .seconds(1) * 44_100)
        #expect(report.framesWritten <= elapsedFrames + 3 * 4_410 + 100)
        #expect(!events.all.contains { if case .finished = $0 { true } else { false } })
    }

    @Test func stopWithoutStartReturnsAnEmptyReportAndIsIdempotent() {
        let player = AlarmPlayer(sound: AlarmSound.builtInTone(), device: "null")
        #expect(player.stop() == AlarmPlayer.Report())
        #expect(player.stop() == AlarmPlayer.Report())
        #expect(!player.isRunning)
    }

    @Test func unavailableDeviceIsReportedAndRetriedUntilStopped() throws {
        let player = AlarmPlayer(sound: AlarmSound.builtInTone(), device: "nosuchpcm")
        let events = EventLog()
        let unavailable = DispatchGate()

        player.start(at: .now, loops: 1) { event in
            events.handler(event)
            if case .deviceUnavailable = event { unavailable.open() }
        }
        try #require(unavailable.wait())
        let report = player.stop()

        #expect(!report.everPlayed)
        #expect(report.passes == 0)
        #expect(report.stoppedAt != nil)
        guard case .deviceUnavailable(.deviceUnavailable(device: "nosuchpcm", _)) = events.all.first else {
            Issue.record("expected .deviceUnavailable first, got \(events.all)")
            return
        }
        #expect(
            report.lastError == events.all.first.flatMap { if case .deviceUnavailable(let e) = $0 { e } else { nil } })
    }
}
