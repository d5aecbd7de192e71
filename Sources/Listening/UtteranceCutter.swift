import Glibc

/// Cuts a stream of 16 kHz mono S16 samples into utterances by their energy: voice-activity
/// segmentation, pure and incremental.
///
/// The stream is judged in frames of ``frameSamples`` (10 ms). A frame is loud when its RMS level
/// is ``margin`` above the noise floor (the quietest recent level, rising slowly so that a
/// steady noise becomes the floor) and above ``minimumLevel``. An utterance starts at the
/// first of ``startFrames`` loud frames in a row, with ``preroll`` of the audio before it, and ends
/// after ``endSilence`` without a loud frame, or at ``maximumSamples`` (cut there, the rest starts
/// a new one), so memory is bounded. Nothing is kept between utterances but the pre-roll. A value
/// with no I/O and no clock: the samples are the time.
///
/// The floor rises by 0.5 dB a second, so a steady noise that starts after a quiet stretch (a
/// fan switched on) X dB above the old floor is cut as utterances of ``maximumSamples`` for about
/// (X − ``margin``) / 0.5 seconds, until the floor has risen to it; what the recogniser makes of
/// those is not measured yet.
public struct UtteranceCutter: Sendable {
    /// One cut utterance.
    public struct Utterance: Sendable, Equatable {
        /// Where it starts in the stream, in samples since the cutter's first sample.
        public let startSample: Int
        /// Its samples, with the pre-roll before the first loud frame and the silence after the last.
        public let samples: [Int16]
        /// Whether it stands alone.
        ///
        /// It began after ``endSilence`` of quiet (not right where one cut at ``maximumSamples``
        /// ended) and was ended by quiet, not cut. A spoken command stands
        /// alone; a long stretch of speech or noise cut into pieces does not (issue 46: most of
        /// the false wakes measured on unrelated speech were such pieces).
        public let isWhole: Bool
    }

    /// Samples per frame judged: 10 ms at 16 kHz.
    public static let frameSamples = 160
    /// The stream's sample rate, in Hz.
    public static let sampleRate = 16_000

    /// How far above the noise floor a loud frame is, in dB.
    public let margin: Double
    /// The quietest level a loud frame can have, in dB below full scale (negative).
    public let minimumLevel: Double
    /// Loud frames in a row that start an utterance.
    public let startFrames: Int
    /// Audio kept before the first loud frame, in samples (a multiple of ``frameSamples``).
    public let prerollSamples: Int
    /// Quiet audio that ends an utterance, in samples (a multiple of ``frameSamples``).
    public let endSilenceSamples: Int
    /// The longest utterance, in samples (a multiple of ``frameSamples``).
    public let maximumSamples: Int

    /// How fast the noise floor rises while the level stays above it, in dB per frame.
    private static let floorRise = 0.005

    private var pending: [Int16] = []
    private var consumedSamples = 0
    private var floor: Double?
    /// The frames before a start (pre-roll and the loud run so far), then the utterance.
    private var held: [Int16] = []
    private var heldStart = 0
    private var loudRun = 0
    private var inUtterance = false
    private var quietSamples = 0
    /// Whether the last utterance was cut at ``maximumSamples`` and less than ``endSilence`` of
    /// quiet has come since: what starts now continues it.
    private var continuing = false
    /// Whether the utterance under way began while ``continuing``.
    private var startedContinuing = false

    /// Makes a cutter.
    /// - Parameters:
    ///   - margin: dB above the noise floor that makes a frame loud, above 0; 10 by default.
    ///   - minimumLevel: dBFS below which no frame is loud, below 0; −55 by default.
    ///   - startFrames: Loud 10 ms frames in a row that start an utterance, 1 or more; 3 by default.
    ///   - preroll: Audio kept before the start, 0 or more; 200 ms by default.
    ///   - endSilence: Quiet audio that ends an utterance, above 0; 600 ms by default.
    ///   - maximumLength: The longest utterance, longer than `preroll` and `endSilence`; 6 s by default.
    /// - Precondition: The ranges above.
    public init(
        margin: Double = 10, minimumLevel: Double = -55, startFrames: Int = 3, preroll: Duration = .milliseconds(200),
        endSilence: Duration = .milliseconds(600), maximumLength: Duration = .seconds(6)
    ) {
        precondition(margin > 0 && minimumLevel < 0 && startFrames >= 1)
        precondition(preroll >= .zero && endSilence > .zero && maximumLength > max(preroll, endSilence))
        (self.margin, self.minimumLevel, self.startFrames) = (margin, minimumLevel, startFrames)
        prerollSamples = Self.frames(in: preroll) * Self.frameSamples
        endSilenceSamples = max(1, Self.frames(in: endSilence)) * Self.frameSamples
        maximumSamples = max(1, Self.frames(in: maximumLength)) * Self.frameSamples
    }

    /// Takes the next samples of the stream.
    /// - Parameter samples: The stream's next 16 kHz mono S16 samples, any number.
    /// - Returns: The utterances that ended within them, oldest first.
    /// - Complexity: O(n) in the samples given.
    public mutating func append(_ samples: some Collection<Int16>) -> [Utterance] {
        pending.append(contentsOf: samples)
        var ended: [Utterance] = []
        var offset = 0
        while pending.count - offset >= Self.frameSamples {
            if let utterance = take(pending[offset..<offset + Self.frameSamples]) { ended.append(utterance) }
            offset += Self.frameSamples
        }
        pending.removeFirst(offset)
        return ended
    }

    /// Ends the stream: the utterance under way, if any, with the partial frame left.
    /// - Returns: The last utterance, or nil when none was under way.
    public mutating func finish() -> Utterance? {
        defer { self = UtteranceCutter(copyingSettingsOf: self) }
        guard inUtterance else { return nil }
        return Utterance(startSample: heldStart, samples: held + pending, isWhole: false)
    }

    /// The level of `frame`: RMS in dB below full scale, −120 for silence.
    /// - Parameter frame: Samples.
    /// - Returns: The level, −120 to about 0.
    public static func level(of frame: some Collection<Int16>) -> Double {
        guard !frame.isEmpty else { return -120 }
        let energy = frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frame.count)
        guard energy > 0 else { return -120 }
        return max(-120, 10 * log10(energy / (32_768.0 * 32_768.0)))
    }

    /// Judges one frame and advances the state.
    private mutating func take(_ frame: ArraySlice<Int16>) -> Utterance? {
        let level = Self.level(of: frame)
        let floor = self.floor ?? level
        let loud = level > floor + margin && level > minimumLevel
        // The floor follows quiet frames down at once and rises slowly, so speech does not lift it far.
        self.floor = level < floor ? level : floor + Self.floorRise
        let frameStart = consumedSamples
        consumedSamples += frame.count
        if held.isEmpty { heldStart = frameStart }
        held.append(contentsOf: frame)
        guard inUtterance else {
            loudRun = loud ? loudRun + 1 : 0
            quietSamples = loud ? 0 : quietSamples + frame.count
            if quietSamples >= endSilenceSamples { continuing = false }
            if loudRun >= startFrames {
                (inUtterance, quietSamples, startedContinuing) = (true, 0, continuing)
            } else {
                // Keep the pre-roll and the loud run so far, nothing older.
                let keep = prerollSamples + loudRun * Self.frameSamples
                if held.count > keep {
                    heldStart += held.count - keep
                    held.removeFirst(held.count - keep)
                }
            }
            return nil
        }
        quietSamples = loud ? 0 : quietSamples + frame.count
        guard quietSamples >= endSilenceSamples || held.count >= maximumSamples else { return nil }
        let cut = quietSamples < endSilenceSamples
        let utterance = Utterance(startSample: heldStart, samples: held, isWhole: !cut && !startedContinuing)
        (held, inUtterance, loudRun, quietSamples, continuing) = ([], false, 0, 0, cut)
        return utterance
    }

    /// A fresh cutter with `other`'s settings.
    private init(copyingSettingsOf other: UtteranceCutter) {
        (margin, minimumLevel, startFrames) = (other.margin, other.minimumLevel, other.startFrames)
        (prerollSamples, endSilenceSamples, maximumSamples) =
            (other.prerollSamples, other.endSilenceSamples, other.maximumSamples)
    }

    /// Whole frames in `duration`.
    private static func frames(in duration: Duration) -> Int {
        Int(duration / .milliseconds(10))
    }
}
