import Glibc
import Testing

@testable import AlarmAudio

@Suite struct PCMPlaybackTests {
    init() { silenceAudioLibraryMessages() }

    /// Plays the shipped sound `passes` times through a `type file` PCM from private configuration
    /// text and checks that the captured file is exactly `passes` copies of the decoded samples.
    @Test(arguments: [1, 3])
    func filePCMCapturesExactlyNCopiesOfTheSound(passes: Int) throws {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let capture = directory + "/capture.raw"
        let configuration = """
            pcm.capture { type file slave.pcm { type null } file "\(capture)" format "raw" truncate true }
            """

        do {
            var playback = try PCMPlayback(
                configuration: configuration, name: "capture", sampleRate: sound.sampleRate,
                channels: sound.channels, latency: .milliseconds(100))
            #expect(playback.bufferFrames > 0)
            try sound.samples.withUnsafeBufferPointer { samples in
                for _ in 0..<passes {
                    var frame = 0
                    while frame < sound.frames {
                        let count = min(playback.bufferFrames, sound.frames - frame)
                        let written = try playback.write(
                            UnsafeBufferPointer(rebasing: samples[(frame * 2)..<((frame + count) * 2)]))
                        try #require(written > 0, "a file PCM never blocks")
                        frame += written
                    }
                }
            }
            var drains = 0
            while try playback.drain() != .done {
                drains += 1
                try #require(drains < 1000)
            }
            playback.close()
        }

        let captured = try #require(TestFiles.read(capture))
        let expected = TestFiles.rawBytes(of: Array([[Int16]](repeating: sound.samples, count: passes).joined()))
        #expect(captured.count == expected.count)
        #expect(captured == expected)
    }

    @Test(arguments: ["nosuchpcm", "hw:97"])
    func openingAMissingDeviceThrowsALSAError(device: String) {
        #expect(throws: ALSAError.self) {
            _ = try PCMPlayback(device: device, sampleRate: 44_100, channels: 2, latency: .milliseconds(100))
        }
    }

    @Test func configurationTextThatDoesNotParseThrows() {
        #expect(throws: ALSAError.self) {
            _ = try PCMPlayback(
                configuration: "pcm.broken { type", name: "broken", sampleRate: 44_100, channels: 2,
                latency: .milliseconds(100))
        }
    }

    @Test func nullDeviceOpensWithABufferNearTheRequestedLatency() throws {
        let playback = try PCMPlayback(device: "null", sampleRate: 44_100, channels: 2, latency: .milliseconds(100))
        #expect((2_205...8_820).contains(playback.bufferFrames))
        #expect(playback.periodFrames > 0 && playback.periodFrames <= playback.bufferFrames)
    }
}
