import CAlsa
import Glibc
import Listening
import TestSupport
import Testing

/// A spoken command read through a real ALSA capture device: alsa-lib's `file` plugin with
/// `infile`, opened from private configuration text (no `~/.asoundrc`, no sound card).
@Suite struct CaptureDeviceTests {
    @Test func aCommandCapturedThroughAnALSAFileDeviceIsRecognised() throws {
        let corpus = SpokenCorpus()
        let spoken = try corpus.samples("egg timer, how long is left", voice: "en-us", wordsPerMinute: 160)
        let path = corpus.folder + "/speech.raw"
        writeFile(path, spoken.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] })
        let captured = try Self.capture(frames: spoken.count, from: path)
        #expect(captured == spoken)

        var cutter = UtteranceCutter()
        var recogniser = try Recogniser(grammar: RecogniserTests.grammar)
        var heard: [String] = []
        var offset = 0
        // As a listener would: 100 ms periods through the cutter, utterances to the recogniser.
        while offset < captured.count {
            let period = captured[offset..<min(captured.count, offset + 1_600)]
            for utterance in cutter.append(period) {
                if let hypothesis = recogniser.decode(utterance: utterance.samples) { heard.append(hypothesis.text) }
            }
            offset += 1_600
        }
        #expect(heard == ["egg timer how long is left"])
    }

    /// Reads `frames` mono S16 frames at 16 kHz from an ALSA capture device whose samples come
    /// from the file at `path`.
    /// - Throws: `TestFailure` naming the alsa-lib call that failed.
    private static func capture(frames: Int, from path: String) throws(TestFailure) -> [Int16] {
        let text = """
            pcm.mic {
                type file
                slave { pcm { type null } }
                file "/dev/null"
                infile "\(path)"
                format "raw"
            }
            """
        func check(_ result: Int32, _ function: String) throws(TestFailure) {
            if result < 0 { throw TestFailure("\(function): \(String(cString: snd_strerror(result)))") }
        }
        var configuration: OpaquePointer?
        try check(snd_config_top(&configuration), "snd_config_top")
        defer { snd_config_delete(configuration) }
        var input: OpaquePointer?
        try check(snd_input_buffer_open(&input, text, text.utf8.count), "snd_input_buffer_open")
        defer { snd_input_close(input) }
        try check(snd_config_load(configuration, input), "snd_config_load")
        var pcm: OpaquePointer?
        try check(snd_pcm_open_lconf(&pcm, "mic", SND_PCM_STREAM_CAPTURE, 0, configuration), "snd_pcm_open_lconf")
        defer { snd_pcm_close(pcm) }
        try check(
            snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, 16_000, 0, 100_000),
            "snd_pcm_set_params")
        var samples = [Int16](repeating: 0, count: frames)
        var done = 0
        while done < frames {
            let read = samples[done...].withUnsafeMutableBufferPointer { buffer in
                snd_pcm_readi(pcm, buffer.baseAddress, snd_pcm_uframes_t(min(1_600, buffer.count)))
            }
            if read < 0 {
                try check(snd_pcm_recover(pcm, Int32(read), 1), "snd_pcm_readi")
            } else {
                done += read
            }
        }
        return samples
    }
}
