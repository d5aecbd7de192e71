import Glibc

extension AlarmSound {
    /// A built-in alarm tone synthesized in code, for when no sound file can be used.
    ///
    /// 1 s at 44 100 Hz, stereo (both channels equal): two 0.5 s slots, each a rising two-tone
    /// beep (988 Hz for 90 ms, 40 ms gap, 1319 Hz for 120 ms) and then silence, like the default
    /// `alarm_sound.mp3`. Every beep has a raised-cosine attack (8 ms) and release (30 ms), so there
    /// are no clicks, not even where the sound loops (it starts and ends on silence). The peak is
    /// about −4.4 dBFS.
    /// - Returns: A sound of 44 100 frames; computed anew on each call.
    /// - Complexity: O(*n*) in the number of frames.
    public static func builtInTone() -> AlarmSound {
        let sampleRate = 44_100
        let slotFrames = sampleRate / 2
        let beeps: [(hz: Double, start: Double, length: Double)] = [(988, 0, 0.090), (1319, 0.130, 0.120)]
        var slot = [Int16](repeating: 0, count: slotFrames * 2)
        for beep in beeps {
            let first = Int(beep.start * Double(sampleRate))
            let frames = Int(beep.length * Double(sampleRate))
            for index in 0..<frames {
                let t = Double(index) / Double(sampleRate)
                let value = 0.6 * 32_767 * envelope(at: t, length: beep.length) * sin(2 * Double.pi * beep.hz * t)
                let sample = Int16(value.rounded())
                slot[(first + index) * 2] = sample
                slot[(first + index) * 2 + 1] = sample
            }
        }
        return AlarmSound(samples: slot + slot, sampleRate: sampleRate, channels: 2)
    }

    /// A gain in 0...1 that rises over 8 ms and falls over the last 30 ms as half a cosine wave.
    /// - Parameters:
    ///   - t: Time since the beep started, in seconds.
    ///   - length: The beep's length, in seconds.
    /// - Returns: The gain at `t`.
    private static func envelope(at t: Double, length: Double) -> Double {
        let attack = 0.008
        let release = 0.030
        if t < attack { return 0.5 - 0.5 * cos(Double.pi * t / attack) }
        if t > length - release { return 0.5 - 0.5 * cos(Double.pi * max(0, length - t) / release) }
        return 1
    }
}
