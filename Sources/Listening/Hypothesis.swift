/// What the recogniser heard in one utterance: the words of its best path through the grammar and
/// how well they fit.
public struct Hypothesis: Sendable, Equatable {
    /// The lowest ``scorePerSecond`` of a hypothesis taken as heard (``isConfident``).
    ///
    /// Measured here (RecogniserTests, espeak-ng speech, default cutter and grammar): commands heard
    /// with the right words scored −2 900 to −4 600 per second; unrelated speech forced onto the
    /// grammar as "egg timer …" scored −6 400 and −7 200. The threshold sits between them.
    public static let minimumConfidentScorePerSecond = -5_500

    /// The words, lowercased as in the grammar, in the order spoken; never empty.
    public let words: [String]
    /// The best path's score, PocketSphinx's log-scale acoustic and language score (0 is best,
    /// more negative is worse); comparable only between decodes with the same grammar.
    public let score: Int32
    /// The hypothesis's posterior probability in PocketSphinx's log scale (0 is certain); the
    /// grammar search of 5prealpha computes none and leaves it 0.
    public let probability: Int32
    /// How long the decoded utterance was.
    public let audioDuration: Duration

    /// Makes a hypothesis.
    /// - Parameters:
    ///   - words: The words heard, in order.
    ///   - score: The path score, log scale, at most 0.
    ///   - probability: The posterior probability, log scale, at most 0.
    ///   - audioDuration: The utterance's length, above zero.
    public init(words: [String], score: Int32, probability: Int32, audioDuration: Duration) {
        (self.words, self.score, self.probability, self.audioDuration) = (words, score, probability, audioDuration)
    }

    /// The words joined by single spaces.
    public var text: String { words.joined(separator: " ") }

    /// ``score`` per second of audio: how well the path fits, whatever the utterance's length.
    public var scorePerSecond: Int {
        guard audioDuration > .zero else { return Int(score) }
        return Int((Double(score) / (audioDuration / .seconds(1))).rounded())
    }

    /// Whether the words fit the audio well enough to be taken as heard
    /// (``scorePerSecond`` ≥ ``minimumConfidentScorePerSecond``): speech that is not a command,
    /// forced onto the grammar, fits worse.
    public var isConfident: Bool { scorePerSecond >= Self.minimumConfidentScorePerSecond }
}
