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

    @Test func theRampRisesFromTheFloorAsTheSquareAndStaysThere() {
        let ramp = Loudness(volumePercent: 100, rampFrames: 4)
        // Gains floor + (1 − floor) × 0, 1/16, 4/16, 9/16, then 1 from frame 4 on (floor = 3276/32768);
        // stereo frames share a gain.
        let gains: [Int64] = [3276, 3276 + 29492 / 16, 3276 + 29492 * 4 / 16, 3276 + 29492 * 9 / 16, 32768]
        #expect((0...4).map { ramp.gain(atFrame: $0) } == gains)
        let expected = gains.flatMap { gain in
            [Int16((16000 * gain + 16384) >> 15), Int16((16000 * gain + 16384) >> 15)]
        }
        #expect(scaled(ramp, [Int16](repeating: 16000, count: 10), channels: 2) == expected)
        #expect(expected.prefix(2) == [1600, 1600] && expected.suffix(2) == [16000, 16000])
        #expect(ramp.isUnity(from: 4) && !ramp.isUnity(from: 3))
        // It continues across passes: frame 2 of the ringing, whatever pass that is.
        #expect(scaled(ramp, [16000], from: 2) == [expected[4]])
    }

    /// Issue 37: no frame of a ringing plays below 10 % of the sound (−20 dB): the ramp starts at
    /// the floor, rises monotonically and reaches the volume at `rampFrames`, at every volume.
    @Test(arguments: [10, 11, 40, 99, 100])
    func theGainStartsAtTheFloorRisesMonotonicallyAndReachesTheVolume(volume: Int) {
        let floor: Int64 = 10 * 32768 / 100  // 3276
        let ramp = Loudness(volumePercent: volume, rampFrames: 44100)
        #expect(ramp.gain(atFrame: 0) == floor)
        var previous = ramp.gain(atFrame: 0)
        for frame in stride(from: 0, through: 44100, by: 7) {
            let gain = ramp.gain(atFrame: frame)
            #expect(gain >= previous && gain >= floor, "at \(frame)")
            previous = gain
        }
        #expect(ramp.gain(atFrame: 44100) == Int64(volume) * 32768 / 100)
        #expect(ramp.gain(atFrame: 1_000_000) == Int64(volume) * 32768 / 100)
        // Without a ramp the volume holds from the first frame; never below the floor.
        #expect(Loudness(volumePercent: volume, rampFrames: 0).gain(atFrame: 0) == Int64(volume) * 32768 / 100)
        // The first samples of a ringing are the sound at the floor, not silence.
        #expect(scaled(ramp, [10000, -10000]) == [1000, -1000])
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
        #expect(ramp.gain(atFrame: 0) == 3276)
        #expect(ramp.gain(atFrame: 48000 * 1800) > 3276 && ramp.gain(atFrame: 48000 * 1800) < 80 * 32768 / 100)
        #expect(ramp.gain(atFrame: 48000 * 3600) == 80 * 32768 / 100)
    }
}
