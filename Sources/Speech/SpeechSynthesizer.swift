/// Speech from espeak-ng, converted by libsamplerate: text in, interleaved S16 frames in the
/// alarm's format out.
///
/// Both libraries are loaded with `dlopen` on first use (``SpeechError/libraryMissing(_:)`` when
/// either, or espeak-ng-data, is missing). The conversion is deterministic; espeak-ng's synthesis
/// is deterministic per process history (the first synthesis of a process equals another
/// process's first; later ones vary by a few samples with what was said before, and nothing in
/// its API resets that: see ``SpeechEngine``), so a test that compares what a PCM received with
/// its own synthesis synthesises in a fresh process and converts here
/// (``line(fromSpeech:sampleRate:format:)``).
///
/// espeak-ng is not thread-safe; every call goes through ``SpeechEngine``'s one lock, so calls
/// from several threads wait for each other. In the program, call it only from
/// ``SpeechPreparer``'s synthesis thread, never from the event loop: it blocks for milliseconds.
public struct SpeechSynthesizer: SpeechSynthesizing {
    /// The longest text accepted, in UTF-8 bytes: 1 000 (a label is at most a few dozen).
    public static let maximumTextBytes = 1_000
    /// The longest speech kept, at the engine's rate: 60 s (1 000 bytes of text is about 60 s).
    public static let maximumDuration: Duration = .seconds(60)
    /// The speaking rate of everything eggtimer says, in words per minute: 140 (issue 37).
    ///
    /// espeak-ng's own default is 175, brisk for a line heard across a kitchen over a boiling pot
    /// and an extractor hood: "Pasta is ready" took about 0.8 s of speech (en-us), 1.0 s at 140.
    /// Slower speech is more intelligible in noise and to listeners with hearing loss: key-word
    /// scores fall as the speaking rate rises, and listeners with normal hearing in noise behave
    /// as listeners with hearing loss do (Uchanski, Choi, Braida, Reed & Durlach 1996, "Speaking
    /// clearly for the hard of hearing IV", JSLHR 39:494–509); for older listeners in noise at
    /// 0 dB SNR, conversational speech at a slow rate gained 21 points over the normal rate (Krause
    /// et al. 2019, "Speaking clearly for older adults with normal hearing: the role of speaking
    /// rate", JSLHR 62:3851–3859). 140 is 20 % under the default, a moderate slowing that keeps
    /// a one-line announcement near a second (espeak-ng takes 80 to 450).
    public static let wordsPerMinute = 140

    private let espeakFileName: String
    private let samplerateFileName: String

    /// A synthesiser using the system's libespeak-ng.so.1 and libsamplerate.so.0.
    public init() {
        self.init(espeakFileName: EspeakLibrary.fileName, samplerateFileName: SamplerateLibrary.fileName)
    }

    /// A synthesiser loading the libraries by these names: the seam for tests, where a name that
    /// does not exist stands for a box without the library.
    /// - Parameters:
    ///   - espeakFileName: libespeak-ng's SONAME or path.
    ///   - samplerateFileName: libsamplerate's SONAME or path.
    public init(espeakFileName: String, samplerateFileName: String) {
        (self.espeakFileName, self.samplerateFileName) = (espeakFileName, samplerateFileName)
    }

    /// Checks that espeak-ng lists `voice` (a voice, optionally with `+VARIANT`; an MBROLA voice
    /// only when installed: ``VoiceCatalog``) and sets it, as a synthesis would.
    ///
    /// Loads and initialises libespeak-ng the first time (about 15 ms, and a few more to list its
    /// voices); blocks while another thread synthesises. For the start of a timer or the kitchen
    /// that will speak, so that a mistyped voice, or one espeak-ng would crash on, is one line and
    /// exit 64 (78 from the config file) rather than a silent line, or a crash, later.
    /// - Parameter voice: An espeak-ng voice name.
    /// - Throws: ``SpeechError/unknownVoice(_:)``, ``SpeechError/variantWithoutVoice(_:)``,
    ///   ``SpeechError/unknownVariant(voice:variant:)``,
    ///   ``SpeechError/mbrolaNotInstalled(voice:database:dataMissing:programMissing:)``;
    ///   ``SpeechError/libraryMissing(_:)`` when libespeak-ng or its data cannot be loaded (the
    ///   caller rings without the line then).
    public func check(voice: String) throws(SpeechError) {
        guard !voice.isEmpty, voice.utf8.count <= VoiceCatalog.nameLimit, !voice.utf8.contains(0) else {
            throw .unknownVoice(voice)
        }
        try SpeechEngine.check(voice: voice, library: EspeakLibrary.named(espeakFileName))
    }

    /// Synthesises `text` in `voice`: espeak-ng's own output, mono S16 at its rate.
    ///
    /// Blocks for the synthesis (about 1 ms per one-second sentence here, 15 ms the first time,
    /// loading the library and voice) and while another thread is
    /// synthesising. Not on the event loop.
    /// - Parameters:
    ///   - text: What to say: plain UTF-8 text (not SSML), 1 to ``maximumTextBytes`` bytes, no NUL.
    ///   - voice: An espeak-ng voice name (`en-gb`, `de`, …).
    /// - Returns: The samples and their rate in Hz (22 050 with Debian's espeak-ng-data).
    /// - Throws: ``SpeechError/textRejected(_:)``, ``SpeechError/libraryMissing(_:)``,
    ///   ``SpeechError/unknownVoice(_:)`` and the other voice errors of ``check(voice:)``,
    ///   ``SpeechError/synthesisFailed(_:)``.
    public func synthesize(_ text: String, voice: String) throws(SpeechError) -> (samples: [Int16], sampleRate: Int) {
        let bytes = text.utf8.count
        guard bytes > 0 else { throw .textRejected("it is empty") }
        guard bytes <= Self.maximumTextBytes else {
            throw .textRejected("it is \(bytes) bytes long, more than \(Self.maximumTextBytes)")
        }
        guard !text.utf8.contains(0) else { throw .textRejected("it holds a NUL byte") }
        guard !voice.isEmpty, voice.utf8.count <= VoiceCatalog.nameLimit, !voice.utf8.contains(0) else {
            throw .unknownVoice(voice)
        }
        // 60 s at the highest rate a voice could report (the engine's is 22 050 Hz).
        let maximumSamples = Int(Self.maximumDuration / .seconds(1)) * SpeechFormat.sampleRates.upperBound
        let spoken = try SpeechEngine.synthesize(
            text, voice: voice, library: EspeakLibrary.named(espeakFileName), maximumSamples: maximumSamples)
        guard SpeechFormat.sampleRates.contains(spoken.sampleRate) else {
            throw .synthesisFailed("espeak-ng reports an unusable rate of \(spoken.sampleRate) Hz")
        }
        return spoken
    }

    /// Synthesises `text` in `voice` and converts it to `format` (``SampleRateConverter``).
    ///
    /// Blocks (synthesis plus conversion: about 15 ms for a one-second sentence here); not on the
    /// event loop.
    /// - Parameters:
    ///   - text: What to say (see ``synthesize(_:voice:)``).
    ///   - voice: An espeak-ng voice name.
    ///   - format: The alarm's rate and channels.
    /// - Returns: Interleaved S16 frames in `format`, ready to write to a PCM, from the first
    ///   frame that is not silence: espeak-ng begins a sentence with about 48 ms of samples that
    ///   are exactly zero, trimmed so the first spoken sample plays at the deadline (issue 28:
    ///   heard at most 20 ms after it). Empty when the whole line is silence.
    /// - Throws: As ``synthesize(_:voice:)``; ``SpeechError/libraryMissing(_:)`` also for
    ///   libsamplerate, and ``SpeechError/synthesisFailed(_:)`` for a failed conversion.
    public func render(_ text: String, voice: String, format: SpeechFormat) throws(SpeechError) -> SpokenAudio {
        let converter = SamplerateLibrary.named(samplerateFileName)
        if case .failure(let error) = converter { throw error }  // before the synthesis, not after
        let spoken = try synthesize(text, voice: voice)
        return try line(fromSpeech: spoken.samples, sampleRate: spoken.sampleRate, format: format)
    }

    /// The second half of ``render(_:voice:format:)``: espeak-ng's mono samples converted to
    /// `format` (``convert(_:sampleRate:to:)``) and their leading digital silence trimmed.
    ///
    /// Deterministic: the same samples give the same line, sample for sample (a test renders a
    /// reference synthesis made elsewhere through it). Blocks for the conversion; any thread.
    /// - Parameters:
    ///   - samples: Mono S16 samples, as ``synthesize(_:voice:)`` returns them.
    ///   - sampleRate: Their rate in Hz, within ``SpeechFormat/sampleRates``.
    ///   - format: The alarm's rate and channels.
    /// - Returns: Interleaved frames in `format` from the first that is not silence.
    /// - Throws: As ``convert(_:sampleRate:to:)``.
    public func line(fromSpeech samples: [Int16], sampleRate: Int, format: SpeechFormat) throws(SpeechError)
        -> SpokenAudio
    {
        let converted = try convert(samples, sampleRate: sampleRate, to: format)
        let first = converted.samples.firstIndex { $0 != 0 } ?? converted.samples.count
        let silent = first / format.channels * format.channels
        return silent == 0 ? converted : SpokenAudio(samples: Array(converted.samples[silent...]), format: format)
    }

    /// Converts mono samples to `format` with libsamplerate (``SampleRateConverter``:
    /// `SRC_SINC_MEDIUM_QUALITY`); deterministic.
    ///
    /// Blocks for the conversion (13–20 ms per second of speech, measured here); any thread.
    /// - Parameters:
    ///   - samples: Mono S16 samples, as ``synthesize(_:voice:)`` returns them.
    ///   - sampleRate: Their rate in Hz, within ``SpeechFormat/sampleRates``.
    ///   - format: The output's rate and channels.
    /// - Returns: Interleaved frames in `format`: `samples.count · format.sampleRate / sampleRate`
    ///   of them, within a frame or two.
    /// - Throws: ``SpeechError/libraryMissing(_:)`` (libsamplerate), ``SpeechError/synthesisFailed(_:)``.
    public func convert(_ samples: [Int16], sampleRate: Int, to format: SpeechFormat) throws(SpeechError) -> SpokenAudio
    {
        guard SpeechFormat.sampleRates.contains(sampleRate) else {
            throw .synthesisFailed("cannot convert from \(sampleRate) Hz")
        }
        let converted = try SampleRateConverter.convert(
            samples, sampleRate: sampleRate, to: format, library: SamplerateLibrary.named(samplerateFileName))
        return SpokenAudio(samples: converted, format: format)
    }
}
