import Glibc

/// Speech synthesised by the espeak-ng program and resampled by sox to 16 kHz mono S16, made in a
/// private folder that goes with the value; no network, no sound card.
public final class SpokenCorpus {
    /// The private folder.
    public let folder = makePrivateDirectory("eggtimer-listening")
    private var made = 0

    /// Makes the private folder.
    public init() {}

    deinit { removeDirectory(folder) }

    /// `text` spoken by `voice` at `wordsPerMinute`, between quiet stretches, over a faint noise.
    ///
    /// The same every time: sox resamples without dither (`-D`), the noise is seeded.
    /// - Parameters:
    ///   - text: What to say.
    ///   - voice: An espeak-ng voice, `en-us`, `en`, `en-us+f2`.
    ///   - wordsPerMinute: espeak-ng's speed, 80 to 450.
    ///   - lead: Quiet before the speech.
    ///   - tail: Quiet after it, long enough for the cutter to end the utterance.
    /// - Returns: 16 kHz mono S16 samples.
    /// - Throws: `TestFailure` when a tool fails.
    public func samples(
        _ text: String, voice: String, wordsPerMinute: Int, lead: Duration = .milliseconds(400),
        tail: Duration = .milliseconds(900)
    ) throws(TestFailure) -> [Int16] {
        made += 1
        let (wave, raw, errors) = (folder + "/\(made).wav", folder + "/\(made).raw", folder + "/errors")
        try Child.run(
            SystemTool.espeakNG.path, ["-v", voice, "-s", String(wordsPerMinute), "-w", wave, "--", text],
            stderrPath: errors)
        try Child.run(
            SystemTool.sox.path,
            ["-D", wave, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-L", "-t", "raw", raw],
            stderrPath: errors)
        guard let bytes = readFile(raw), !bytes.isEmpty, bytes.count % 2 == 0 else {
            throw TestFailure("sox made no samples of '\(text)'; see \(errors)")
        }
        let speech = stride(from: 0, to: bytes.count, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        let quiet = { (length: Duration) in [Int16](repeating: 0, count: Int(length / .milliseconds(1)) * 16) }
        let signal = quiet(lead) + speech + quiet(tail)
        return zip(signal, Signal.noise(milliseconds: signal.count / 16 + 1, amplitude: 20, seed: UInt32(made)))
            .map { $0 &+ $1 }
    }
}

/// Synthetic signals at 16 kHz: quiet noise and tone bursts.
public enum Signal {
    /// `milliseconds` of a deterministic noise of peak `amplitude` (a linear congruential sequence).
    public static func noise(milliseconds: Int, amplitude: Int, seed: UInt32 = 1) -> [Int16] {
        var state = seed
        return (0..<milliseconds * 16).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int16(Int(state >> 16) % (2 * amplitude + 1) - amplitude)
        }
    }

    /// `milliseconds` of a 440 Hz tone of peak `amplitude` over the quiet noise.
    public static func tone(milliseconds: Int, amplitude: Double = 8_000) -> [Int16] {
        zip(0..<milliseconds * 16, noise(milliseconds: milliseconds, amplitude: 30)).map { index, noise in
            Int16(amplitude * sin(2 * Double.pi * 440 * Double(index) / 16_000)) &+ noise
        }
    }
}
