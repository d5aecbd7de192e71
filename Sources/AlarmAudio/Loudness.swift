/// How loud the alarm plays: a fixed volume, reached through one fade-in ramp that runs across
/// the passes of a ringing, never below an audible floor.
///
/// The gain is applied to the samples before they reach ALSA, in Q15 fixed point (32768 = 1.0),
/// per frame, so it changes smoothly with no step (no click). The ramp rises from the floor
/// (``floorPercent``) to the volume along the square of the elapsed fraction,
/// gain = floor + (volume − floor) × (frame / rampFrames)²: loudness grows roughly as
/// amplitude^0.6 (Stevens' power law for loudness, exponent ≈ 0.6 for a 1 kHz tone), so a squared
/// ramp sounds close to an even rise where a linear one would jump up at once and then barely
/// change. At 100 % with no ramp the samples pass through unchanged, sample-exact.
///
/// The floor (issue 37): no frame of a ringing plays below 10 % of the sound's own amplitude
/// (−20 dB), from the first loop frame on. A volume of 0 or a ramp that starts from silence
/// used to write pure silence while the timer said `ringing` (and `--volume 1` peaked at 0.6 %
/// of full scale with the shipped sound, whose own peak is about 60 %); at the floor that sound
/// still peaks at about 6 % of full scale (−24 dBFS): quiet, but 20 dB above what `--volume 1`
/// gave. Options refuse a volume below it and a ramp
/// longer than ``longestRamp``, so the full volume comes within a minute of the first loop frame.
///
/// A value type; safe to share between threads.
public struct Loudness: Sendable, Equatable {
    /// The least gain of any frame, in percent of the sound's amplitude: 10 (−20 dB).
    ///
    /// The ramp starts here and no volume goes below it (issue 37; see the type's summary).
    public static let floorPercent = 10
    /// The longest ramp the options accept: 60 s.
    ///
    /// So a ringing is at its full volume within a minute of its first loop frame (issue 37).
    /// The type itself takes any ramp in frames.
    public static let longestRamp = Duration.seconds(60)

    /// The volume reached after the ramp, in percent of full scale (amplitude),
    /// ``floorPercent``...100.
    public let volumePercent: Int
    /// The ramp's length in frames at the sound's rate, from the floor to the volume; 0 for none.
    public let rampFrames: Int

    /// Full volume, no ramp: the samples unchanged.
    public static let unchanged = Loudness(volumePercent: 100, rampFrames: 0)

    /// Creates a loudness.
    /// - Parameters:
    ///   - volumePercent: ``floorPercent``...100, of amplitude (50 halves every sample).
    ///   - rampFrames: Frames from the floor to `volumePercent`; 0 for none. Not negative.
    /// - Precondition: both in range (callers range-check what comes from outside first).
    public init(volumePercent: Int, rampFrames: Int) {
        precondition(
            (Self.floorPercent...100).contains(volumePercent) && rampFrames >= 0,
            "volume \(Self.floorPercent)...100, ramp not negative")
        (self.volumePercent, self.rampFrames) = (volumePercent, rampFrames)
    }

    /// Creates the loudness of `--volume` and `--ramp` for a sound played at `sampleRate`: the
    /// ramp counted in frames at that rate.
    /// - Parameters:
    ///   - volumePercent: ``floorPercent``...100, of amplitude.
    ///   - ramp: From the floor to `volumePercent`, not negative; nil for none.
    ///   - sampleRate: The sound's frames per second, in Hz.
    /// - Precondition: both in range, as ``init(volumePercent:rampFrames:)`` says.
    public init(volumePercent: Int, ramp: Duration?, sampleRate: Int) {
        self.init(
            volumePercent: volumePercent, rampFrames: ramp.map { Int(($0 / .seconds(1)) * Double(sampleRate)) } ?? 0)
    }

    /// One in Q15.
    static let unity: Int64 = 32768

    /// The floor in Q15: 3276 (10 % of 32768, rounded down as the volume is).
    static let floor = Int64(floorPercent) * unity / 100

    /// The gain at `frame` frames after the ringing began, in Q15 (``floor``...32768).
    func gain(atFrame frame: Int) -> Int64 {
        let volume = Int64(volumePercent) * Self.unity / 100
        guard frame < rampFrames else { return volume }
        let done = Int64(max(0, frame))
        let length = Int64(rampFrames)
        // floor + (volume − floor) × (done / length)², kept in integers: every factor fits 64 bits
        // for ramps up to hours at 48 kHz (length² < 2^63 / 32768 needs length < 1.6e7 frames,
        // ~6 min at 44.1 kHz; longer ramps are divided down first).
        let scale = length > 16_000_000 ? length / 16_000_000 + 1 : 1
        let (d, l) = (done / scale, max(1, length / scale))
        return Self.floor + (volume - Self.floor) * d * d / (l * l)
    }

    /// Whether every frame from `frame` on passes through unchanged.
    func isUnity(from frame: Int) -> Bool { volumePercent == 100 && frame >= rampFrames }

    /// Writes `samples` scaled for frames `firstFrame...` into `output`.
    /// - Parameters:
    ///   - samples: Interleaved samples, a whole number of frames.
    ///   - channels: Samples per frame.
    ///   - firstFrame: Frames of the ringing before `samples[0]`.
    ///   - output: At least `samples.count` samples.
    /// - Complexity: O(samples.count).
    func apply(
        _ samples: UnsafeBufferPointer<Int16>, channels: Int, firstFrame: Int,
        into output: UnsafeMutableBufferPointer<Int16>
    ) {
        precondition(output.count >= samples.count && channels > 0 && samples.count % channels == 0)
        var index = 0
        var frame = firstFrame
        var gain = gain(atFrame: frame)
        while index < samples.count {
            for channel in 0..<channels {
                // Round to nearest; a gain ≤ 1 cannot overflow Int16.
                let scaled = (Int64(samples[index + channel]) * gain + Self.unity / 2) >> 15
                output[index + channel] = Int16(truncatingIfNeeded: scaled)
            }
            index += channels
            frame += 1
            if frame <= rampFrames { gain = self.gain(atFrame: frame) }
        }
    }
}
