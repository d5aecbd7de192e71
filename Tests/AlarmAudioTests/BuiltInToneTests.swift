import Testing

@testable import AlarmAudio

@Suite struct BuiltInToneTests {
    @Test func isOneSecondOfStereoAt44100Hz() {
        let tone = AlarmSound.builtInTone()
        #expect(tone.sampleRate == 44_100)
        #expect(tone.channels == 2)
        #expect(tone.frames == 44_100)
        #expect(tone.duration == .seconds(1))
        #expect(tone.warnings.isEmpty)
    }

    @Test func peaksAtOrBelowMinus3dBFSAndIsNotSilent() {
        let peak = AlarmSound.builtInTone().peakAmplitude
        #expect(peak <= 23_197)
        #expect(peak > 10_000)
    }

    @Test func startsAndEndsOnSilenceSoLoopingDoesNotClick() {
        let samples = AlarmSound.builtInTone().samples
        #expect(samples.prefix(8).allSatisfy { abs(Int($0)) <= 64 })
        #expect(samples.suffix(8).allSatisfy { $0 == 0 })
    }

    @Test func neverJumpsMoreThanASineAtFullLevelCould() {
        // The steepest step of a 1319 Hz sine at the tone's level is about 0.6 × 32 767 × 2π × 1319 / 44 100 ≈ 3700;
        // a click (an envelope that starts or stops abruptly) would show as a larger step.
        let samples = AlarmSound.builtInTone().samples
        var largest = 0
        for index in stride(from: 2, to: samples.count, by: 2) {
            largest = max(largest, abs(Int(samples[index]) - Int(samples[index - 2])))
        }
        #expect(largest < 3_800)
    }

    @Test func isTheSameOnEveryCall() {
        #expect(AlarmSound.builtInTone() == AlarmSound.builtInTone())
    }
}
