import Testing

@testable import AlarmAudio

@Suite struct LoudnessTests {
    private func scaled(_ loudness: Loudness, _ samples: [Int16], channels: Int = 1, from frame: Int = 0) -> [Int16] {
        var output = [Int16](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer {
                loudness.apply(input, channels: channels, firstFrame: frame, into: $0)
            }
        }
        return output
    }

    @Test func fullVolumeWithoutARampChangesNothing() {
        let samples: [Int16] = [0, 1, -1, 32767, -32768, 12345, -54]
        #expect(scaled(.unchanged, samples) == samples)
        #expect(Loudness.unchanged.isUnity(from: 0))
    }

    @Test func halfVolumeHalvesEverySample() {
        let half = Loudness(volumePercent: 50, rampFrames: 0)
        #expect(scaled(half, [1000, -1000, 32767, -32768, 3]) == [500, -500, 16384, -16384, 2])
        #expect(!half.isUnity(from: 1_000_000))
    }

    @Test func theRampRisesFromSilenceAsTheSquareAndStaysThere() {
        let ramp = Loudness(volumePercent: 100, rampFrames: 4)
        // Gains 0, 1/16, 4/16, 9/16, then 1 from frame 4 on; stereo frames share a gain.
        #expect(
            scaled(ramp, [16000, 16000, 16000, 16000, 16000, 16000, 16000, 16000, 16000, 16000], channels: 2)
                == [0, 0, 1000, 1000, 4000, 4000, 9000, 9000, 16000, 16000])
        #expect(ramp.isUnity(from: 4) && !ramp.isUnity(from: 3))
        // It continues across passes: frame 2 of the ringing, whatever pass that is.
        #expect(scaled(ramp, [16000], from: 2) == [4000])
    }

    @Test func theRampNeverStepsByMoreThanItsSlope() {
        let ramp = Loudness(volumePercent: 100, rampFrames: 44100)
        var previous = ramp.gain(atFrame: 0)
        for frame in 1...44100 {
            let gain = ramp.gain(atFrame: frame)
            #expect(gain >= previous && gain - previous <= 2, "step at \(frame)")
            previous = gain
        }
        #expect(previous == Loudness.unity)
    }

    @Test func aVeryLongRampStaysInRangeAndEndsAtTheVolume() {
        let ramp = Loudness(volumePercent: 80, rampFrames: 48000 * 3600)
        #expect(ramp.gain(atFrame: 0) == 0)
        #expect(ramp.gain(atFrame: 48000 * 1800) > 0 && ramp.gain(atFrame: 48000 * 1800) < 80 * 32768 / 100)
        #expect(ramp.gain(atFrame: 48000 * 3600) == 80 * 32768 / 100)
    }
}
