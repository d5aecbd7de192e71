import Speech
import TestSupport
import Testing

/// Why the tests synthesise their reference in a fresh process (issue 28's sample-exact capture):
/// espeak-ng is repeatable across processes, not within one (SpeechEngine's doc).
@Suite struct SpeechRepeatabilityTests {
    /// The proof, each in a fresh process of its own: the same sentence said three times in one
    /// process drifts (length and samples), and a second process says the same three, sample for
    /// sample; a voice without pitch flutter keeps its length, which pins the drift on it.
    @Test func espeakNgDriftsWithinAProcessAndAFreshProcessRepeatsIt() throws {
        let first = try SpeechReference.synthesize(
            "Pasta is ready", voice: "en-us", count: 3, wordsPerMinute: SpeechSynthesizer.wordsPerMinute)
        let again = try SpeechReference.synthesize(
            "Pasta is ready", voice: "en-us", count: 3, wordsPerMinute: SpeechSynthesizer.wordsPerMinute)
        #expect(first.sampleRate == 22_050)
        #expect(first.syntheses == again.syntheses, "the same history, the same samples")
        #expect(Set(first.syntheses).count > 1, "one process's syntheses of one sentence differ")
        #expect(Set(first.syntheses.map(\.count)).count > 1, "\(first.syntheses.map(\.count))")
        let flat = try SpeechReference.synthesize(
            "Pasta is ready", voice: "en-us+Alex", count: 3, wordsPerMinute: SpeechSynthesizer.wordsPerMinute)
        #expect(Set(flat.syntheses.map(\.count)).count == 1, "no flutter: \(flat.syntheses.map(\.count))")
    }

    /// The same synthesis gives the same line: the conversion and trimming keep no state.
    @Test func theSameSamplesGiveTheSameLine() throws {
        let reference = try SpeechReference.synthesize(
            "Soft eggs are ready", voice: "en-gb", wordsPerMinute: SpeechSynthesizer.wordsPerMinute)
        let format = try #require(SpeechFormat(sampleRate: 44_100, channels: 2))
        let synthesizer = SpeechSynthesizer()
        let (samples, rate) = (reference.syntheses[0], reference.sampleRate)
        let line = try synthesizer.line(fromSpeech: samples, sampleRate: rate, format: format)
        #expect(try synthesizer.line(fromSpeech: samples, sampleRate: rate, format: format) == line)
        #expect(line.samples.prefix(2).contains { $0 != 0 }, "trimmed: the line starts with sound")
    }
}
