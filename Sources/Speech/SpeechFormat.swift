/// The sample format speech is delivered in: the alarm's rate and channel count, interleaved
/// signed 16-bit native-endian samples.
public struct SpeechFormat: Sendable, Hashable {
    /// Frames per second, in Hz: 8 000 to 192 000.
    public let sampleRate: Int
    /// Samples per frame: 1 (mono) or 2 (stereo, both channels equal).
    public let channels: Int

    /// The rates accepted, in Hz (libsamplerate converts 22 050 Hz to any of them).
    public static let sampleRates = 8_000...192_000

    /// Creates a format, or nil when `sampleRate` is outside ``sampleRates`` or `channels` is not
    /// 1 or 2 (both may come from a decoded sound file).
    /// - Parameters:
    ///   - sampleRate: Frames per second, in Hz.
    ///   - channels: Samples per frame.
    public init?(sampleRate: Int, channels: Int) {
        guard Self.sampleRates.contains(sampleRate), channels == 1 || channels == 2 else { return nil }
        (self.sampleRate, self.channels) = (sampleRate, channels)
    }
}

/// A spoken line ready to write to a PCM: interleaved S16 samples in a ``SpeechFormat``.
public struct SpokenAudio: Sendable, Equatable {
    /// Interleaved samples; `samples.count == frames * format.channels`.
    public let samples: [Int16]
    /// Their rate and channel count.
    public let format: SpeechFormat

    /// Frames (one sample per channel).
    public var frames: Int { samples.count / format.channels }

    /// The playing time, exact to the attosecond.
    public var duration: Duration {
        .seconds(frames / format.sampleRate) + .seconds(frames % format.sampleRate) / format.sampleRate
    }

    /// Wraps samples.
    /// - Parameters:
    ///   - samples: Interleaved samples, a whole number of frames of `format`.
    ///   - format: Their format.
    /// - Precondition: `samples.count` is a multiple of `format.channels`.
    public init(samples: [Int16], format: SpeechFormat) {
        precondition(samples.count % format.channels == 0, "samples must hold whole frames")
        (self.samples, self.format) = (samples, format)
    }
}
