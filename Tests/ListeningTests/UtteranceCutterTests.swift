import Glibc
import Listening
import TestSupport
import Testing

@Suite struct UtteranceCutterTests {
    /// Two bursts between quiet stretches: 1 s noise, 800 ms tone, 1 s noise, 500 ms tone, 1 s noise.
    private let stream =
        Signal.noise(milliseconds: 1_000, amplitude: 30) + Signal.tone(milliseconds: 800)
        + Signal.noise(milliseconds: 1_000, amplitude: 30, seed: 2) + Signal.tone(milliseconds: 500)
        + Signal.noise(milliseconds: 1_000, amplitude: 30, seed: 3)

    @Test func burstsBetweenQuietStretchesAreTwoUtterancesWithPrerollAndTail() {
        var cutter = UtteranceCutter()
        let utterances = cutter.append(stream)
        #expect(cutter.finish() == nil)
        try? #require(utterances.count == 2)
        // The first starts 200 ms (the pre-roll) before the burst at 1 s, the second before 2.8 s.
        #expect(utterances.map(\.startSample) == [12_800, 41_600])
        // Each runs to 600 ms of quiet after its burst (give or take the 3-frame start).
        #expect(utterances.map(\.samples.count) == [(200 + 800 + 600) * 16, (200 + 500 + 600) * 16])
        #expect(utterances.map(\.isWhole) == [true, true], "each began after quiet and was ended by quiet")
    }

    @Test(arguments: [1, 159, 160, 1_000, 7_919])
    func theCutDoesNotDependOnHowTheStreamIsChunked(chunkSamples: Int) {
        var whole = UtteranceCutter()
        let expected = whole.append(stream)
        var chunked = UtteranceCutter()
        var got: [UtteranceCutter.Utterance] = []
        var offset = 0
        while offset < stream.count {
            got += chunked.append(stream[offset..<min(stream.count, offset + chunkSamples)])
            offset += chunkSamples
        }
        #expect(got == expected)
    }

    @Test func silenceIsNoUtterance() {
        var cutter = UtteranceCutter()
        #expect(cutter.append([Int16](repeating: 0, count: 32_000)).isEmpty)
        #expect(cutter.finish() == nil)
    }

    @Test func steadyLoudNoiseIsTheFloorNotAnUtterance() {
        var cutter = UtteranceCutter()
        #expect(cutter.append(Signal.noise(milliseconds: 5_000, amplitude: 4_000)).isEmpty)
        #expect(cutter.finish() == nil)
    }

    @Test func aClickShorterThanTheStartIsNoUtterance() {
        var cutter = UtteranceCutter()
        let click =
            Signal.noise(milliseconds: 500, amplitude: 30) + Signal.tone(milliseconds: 20)
            + Signal.noise(milliseconds: 2_000, amplitude: 30, seed: 5)
        #expect(cutter.append(click).isEmpty)
    }

    @Test func aLongSoundIsCutAtTheMaximumLength() {
        var cutter = UtteranceCutter(maximumLength: .seconds(2))
        let utterances = cutter.append(
            Signal.noise(milliseconds: 300, amplitude: 30) + Signal.tone(milliseconds: 5_000))
        #expect(utterances.count == 2)
        #expect(utterances.allSatisfy { $0.samples.count == 32_000 })
        let last = cutter.finish()
        #expect((last?.samples.count ?? .max) < 32_000)
        #expect(utterances.map(\.isWhole) == [false, false] && last?.isWhole == false, "cut pieces never stand alone")
    }

    /// A piece that begins right after one cut at the maximum continues it, so it is not whole
    /// even when quiet ends it; a burst after a full stretch of quiet is whole again (issue 46).
    @Test func aPieceAfterACutContinuesItUntilQuietHasPassed() {
        var cutter = UtteranceCutter(maximumLength: .seconds(2))
        let utterances = cutter.append(
            Signal.noise(milliseconds: 300, amplitude: 30) + Signal.tone(milliseconds: 2_500)
                + Signal.noise(milliseconds: 1_000, amplitude: 30, seed: 2) + Signal.tone(milliseconds: 500)
                + Signal.noise(milliseconds: 1_000, amplitude: 30, seed: 3))
        #expect(utterances.map(\.isWhole) == [false, false, true])
    }

    @Test func anUtteranceUnderWayAtTheEndIsFinished() {
        var cutter = UtteranceCutter()
        #expect(cutter.append(Signal.noise(milliseconds: 500, amplitude: 30) + Signal.tone(milliseconds: 400)).isEmpty)
        let last = cutter.finish()
        #expect(last?.startSample == 300 * 16)
        #expect(last?.samples.count == 600 * 16)
        #expect(cutter.finish() == nil)
    }

    @Test func levelsAreInDecibelsBelowFullScale() {
        #expect(UtteranceCutter.level(of: [Int16](repeating: 0, count: 160)) == -120)
        #expect(abs(UtteranceCutter.level(of: [Int16](repeating: 16_384, count: 160)) - -6.02) < 0.01)
        #expect(abs(UtteranceCutter.level(of: [Int16](repeating: -328, count: 160)) - -40) < 0.1)
    }
}
