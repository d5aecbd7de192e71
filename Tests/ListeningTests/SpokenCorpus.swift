import Glibc
import Listening
import TestSupport

/// Speech synthesised by the espeak-ng program and resampled by sox to 16 kHz mono S16, made in a
/// private folder that goes with the value; no network, no sound card.
final class SpokenCorpus {
    /// The private folder.
    let folder = makePrivateDirectory("eggtimer-listening")
    private var made = 0

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
    func samples(
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

/// The calling thread's CPU time so far.
/// - Returns: The time. C: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`.
func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}
