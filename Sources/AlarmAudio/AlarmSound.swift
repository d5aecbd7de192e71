/// A fully decoded sound, ready to loop: interleaved signed 16-bit native-endian samples.
///
/// A value type; its samples are shared read-only (copy-on-write) between the caller and the
/// playback thread.
public struct AlarmSound: Sendable, Equatable {
    /// Interleaved samples (left, right, left, … for stereo); `samples.count == frames * channels`.
    public let samples: [Int16]
    /// Frames per second, in Hz.
    public let sampleRate: Int
    /// Samples per frame: 1 (mono) or 2 (stereo).
    public let channels: Int
    /// Problems met while decoding that did not prevent playback, one line each; empty when clean.
    ///
    /// For example "truncated: decoded 0.8 s of 1.5 s, then the data ended".
    public let warnings: [String]

    /// The length in frames (one sample per channel).
    public var frames: Int { samples.count / channels }

    /// The playing time of one pass, exact to the attosecond.
    public var duration: Duration {
        .seconds(frames / sampleRate) + .seconds(frames % sampleRate) / sampleRate
    }

    /// The largest absolute sample value, in sample units: 0 for silence, up to 32 768 (`|Int16.min|`).
    ///
    /// Full scale is 32 768, so the peak level in dBFS is 20 · log10(`peakAmplitude` / 32 768):
    /// 0 dBFS at full scale, about −4.4 dBFS for ``builtInTone()``, −∞ for silence. Computed anew
    /// on each call.
    /// - Complexity: O(*n*) in the number of samples.
    public var peakAmplitude: Int {
        var lowest: Int16 = 0
        var highest: Int16 = 0
        for sample in samples {
            lowest = min(lowest, sample)
            highest = max(highest, sample)
        }
        return max(Int(highest), -Int(lowest))
    }

    /// Creates a sound from interleaved samples.
    /// - Parameters:
    ///   - samples: Interleaved signed 16-bit samples; a whole number of frames.
    ///   - sampleRate: Frames per second, in Hz; greater than zero.
    ///   - channels: Samples per frame, 1 or 2.
    ///   - warnings: Decoding problems to pass on to the user, one line each.
    /// - Precondition: `sampleRate > 0`, `channels` is 1 or 2, and `samples.count` is a multiple of `channels`.
    public init(samples: [Int16], sampleRate: Int, channels: Int, warnings: [String] = []) {
        precondition(sampleRate > 0, "sample rate must be positive")
        precondition(channels == 1 || channels == 2, "channels must be 1 or 2")
        precondition(samples.count % channels == 0, "samples must hold whole frames")
        self.samples = samples
        self.sampleRate = sampleRate
        self.channels = channels
        self.warnings = warnings
    }
}
