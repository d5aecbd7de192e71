import AlarmAudio
import Glibc
import Speech
import TestSupport
import Testing

/// The real binary with the real speech layer (libespeak-ng, libsamplerate): the spoken line is
/// captured first through a `file:` PCM, equal to the test's own synthesis, then the plain loop.
@Suite struct SpokenLineEndToEndTests {
    @Test func sayPastaIsReadyIsCapturedFirstAndEqualsTheSameSynthesis() throws {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let capture = directory + "/capture.raw"
        // 3 s: the line is asked for at start and ready long before the device opens (1.5 s ahead).
        let result = runEggtimer(
            ["3s", "--say", "Pasta is ready", "--voice", "en-us", "--loops", "1", "-D", "file:'\(capture)',raw"],
            environment: ["HOME": directory], timeout: .seconds(30))
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(!result.stderr.contains("spoken line"), "\(result.stderr)")

        let sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
        let format = try #require(SpeechFormat(sampleRate: sound.sampleRate, channels: sound.channels))
        let spoken = try SpeechSynthesizer().render("Pasta is ready", voice: "en-us", format: format)
        #expect(spoken.frames > sound.sampleRate / 2, "half a second of speech at least")
        let bytes = try #require(readFile(capture))
        let captured = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let leadCount = captured.count - sound.samples.count
        // The binary's line is its process's first synthesis. The test's is exact when it is this
        // process's first too (the suite alone); after other syntheses in the same process (the
        // SpeechTests, when the suites run together) espeak-ng's output drifts by a few
        // milliseconds: state it keeps across syntheses, the speech layer's issue.
        #expect(abs(leadCount - spoken.samples.count) < sound.sampleRate * sound.channels / 20, "\(leadCount)")
        withKnownIssue("espeak-ng keeps state across syntheses in one process", isIntermittent: true) {
            #expect(leadCount == spoken.samples.count, "lead \(leadCount) samples, synthesised \(spoken.samples.count)")
            let sameLead = Array(captured.prefix(spoken.samples.count)) == spoken.samples
            #expect(sameLead, "the captured lead is another synthesis")
        }
        let plainLoop = leadCount >= 0 && Array(captured.dropFirst(leadCount)) == sound.samples
        #expect(plainLoop, "the loop after the lead is not the plain loop")
    }
}
