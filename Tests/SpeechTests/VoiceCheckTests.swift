import Glibc
import SystemKit
import Testing

@testable import Speech

/// The voice check at start (issue 28): a voice espeak-ng has passes, one it lacks is the typed
/// error naming it, and a check that hangs gives up at its bound without holding the caller.
@Suite struct VoiceCheckTests {
    /// Voices by name, file name and language, as espeak-ng lists them (``VoiceCatalogTests``).
    @Test(arguments: ["en-gb", "en", "de", "en-us", "German", "en-GB-x-rp", "en+f3"])
    func aVoiceEspeakNgHasPasses(voice: String) {
        #expect(throws: Never.self) { try SpeechSynthesizer().check(voice: voice, within: .seconds(10)) }
    }

    /// A language espeak-ng does not list is refused (issue 40), where `espeak-ng -v de-xx` would
    /// speak plain German: a silent other voice.
    @Test(arguments: ["xx", "deutsch", "zz-top", "", "de-ch", "de-xx", "en-zz-nonesuch"])
    func aVoiceItLacksIsUnknownVoiceNamingIt(voice: String) {
        #expect(throws: SpeechError.unknownVoice(voice)) {
            try SpeechSynthesizer().check(voice: voice, within: .seconds(10))
        }
    }

    /// The seam: a body that blocks (on a pipe nobody rings until the end) is abandoned at the
    /// limit, on the real clock, with a margin for a loaded machine, never later.
    @Test func aCheckThatHangsIsTooSlowAtItsLimit() {
        final class Gate: Sendable { let pipe = WakePipe() }
        let gate = Gate()
        defer { gate.pipe.ring() }
        let limit = Duration.milliseconds(200)
        let asked = ContinuousClock.now
        #expect(throws: SpeechError.tooSlow(limit: limit)) {
            try SpeechSynthesizer.bounded(limit) {
                var entry = pollfd(fd: gate.pipe.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 30_000)
            }
        }
        let took = asked.duration(to: .now)
        #expect(took >= limit && took < limit + .seconds(1), "\(took)")
    }

    /// What the body throws, or that it returned, comes back as it is.
    @Test func aBodysOutcomeComesBack() {
        #expect(throws: SpeechError.unknownVoice("q")) {
            try SpeechSynthesizer.bounded(.seconds(10)) { () throws(SpeechError) in throw .unknownVoice("q") }
        }
        #expect(throws: Never.self) { try SpeechSynthesizer.bounded(.seconds(10)) {} }
    }
}
