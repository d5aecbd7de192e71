import CPocketsphinx
import Glibc

/// A PocketSphinx decoder held to one JSGF grammar: 16 kHz mono S16 utterances in, the words heard
/// out; sole owner of its `ps_decoder_t` and configuration.
///
/// Made with a model folder (``defaultModelFolder``: Debian `pocketsphinx-en-us`, US English) and a
/// grammar text (``CommandGrammar`` makes one); every word of the grammar must be in the model's
/// dictionary. Nothing but the model is read, and nothing is written or logged (sphinxbase's log is
/// off). Not thread-safe: create, use and drop it on one thread.
public struct Recogniser: ~Copyable {
    /// The US English model of Debian's `pocketsphinx-en-us`.
    public static let defaultModelFolder = "/usr/share/pocketsphinx/model/en-us"
    /// The sample rate the model wants, in Hz (mono S16).
    public static let sampleRate = 16_000

    /// The search name the grammar is loaded under.
    private static let searchName = "commands"

    private let library: PocketsphinxLibrary
    private let configuration: OpaquePointer
    private let decoder: OpaquePointer

    /// Loads the model in `modelFolder`, checks the grammar's words against its dictionary and
    /// loads the grammar.
    ///
    /// Blocks for as long as the model takes to load (about 0.2 s here); any thread, which then
    /// owns the recogniser.
    /// - Parameters:
    ///   - grammar: JSGF V1.0 text with one public rule (``CommandGrammar/text(for:)``).
    ///   - modelFolder: A folder holding `en-us/` (the acoustic model) and `cmudict-en-us.dict`.
    ///   - libraryName: libpocketsphinx's SONAME (Debian `libpocketsphinx3`); another name is the
    ///     tests' seam.
    /// - Throws: ``ListeningError``: `libraryMissing` without the libraries, `modelMissing` naming
    ///   a missing file, `modelRejected` when PocketSphinx cannot load it, `unknownWords` naming
    ///   the grammar's words the dictionary lacks, `grammarRejected` for bad JSGF or no words.
    /// C: `cmd_ln_parse_r`, `ps_init`, `ps_lookup_word`, `ps_set_jsgf_string`, `ps_set_search`.
    public init(
        grammar: String, modelFolder: String = defaultModelFolder,
        libraryName: String = "libpocketsphinx.so.3"
    ) throws(ListeningError) {
        let library = try PocketsphinxLibrary.named(libraryName, base: PocketsphinxLibrary.baseFileName).get()
        let acousticModel = modelFolder + "/en-us"
        let dictionary = modelFolder + "/cmudict-en-us.dict"
        for path in [acousticModel + "/mdef", dictionary] where access(path, R_OK) != 0 {
            throw .modelMissing(path: path)
        }
        let words = JSGFText.words(in: grammar)
        guard !words.isEmpty else { throw .grammarRejected("it has no words") }
        guard
            let configuration = Self.configuration(
                library, Self.arguments(acousticModel: acousticModel, dictionary: dictionary))
        else { throw .modelRejected(folder: modelFolder) }
        guard let decoder = library.initialize(configuration) else {
            _ = library.freeConfiguration(configuration)
            throw .modelRejected(folder: modelFolder)
        }
        let missing = words.filter { word in
            guard let phones = library.lookupWord(decoder, word) else { return true }
            library.free(phones)
            return false
        }
        let loaded =
            missing.isEmpty
            && library.setJSGFString(decoder, Self.searchName, grammar) >= 0
            && library.setSearch(decoder, Self.searchName) >= 0
        guard loaded else {
            _ = library.freeDecoder(decoder)
            _ = library.freeConfiguration(configuration)
            throw missing.isEmpty ? .grammarRejected("PocketSphinx's JSGF parser failed on it") : .unknownWords(missing)
        }
        (self.library, self.configuration, self.decoder) = (library, configuration, decoder)
    }

    deinit {
        _ = library.freeDecoder(decoder)
        _ = library.freeConfiguration(configuration)
    }

    /// Recognises one utterance as a whole.
    ///
    /// Blocks for the decoding, about 0.03 s per second of audio here. Only the owner's thread.
    /// - Parameter utterance: 16 kHz mono S16 samples of one utterance (``UtteranceCutter``
    ///   cuts them), at most a few seconds.
    /// - Returns: The words heard and the scores, or nil when the recogniser found no path
    ///   through the grammar (or the utterance is empty).
    /// C: `ps_start_utt`, `ps_process_raw`, `ps_end_utt`, `ps_get_hyp`, `ps_get_prob`.
    public mutating func decode(utterance: [Int16]) -> Hypothesis? {
        guard !utterance.isEmpty, library.startUtterance(decoder) >= 0 else { return nil }
        let frames = utterance.withUnsafeBufferPointer { samples in
            library.processRaw(decoder, samples.baseAddress, samples.count, 0, 1)
        }
        guard library.endUtterance(decoder) >= 0, frames >= 0 else { return nil }
        var score: Int32 = 0
        guard let text = library.hypothesis(decoder, &score) else { return nil }
        let words = String(cString: text).split(separator: " ").map(String.init)
        guard !words.isEmpty else { return nil }
        return Hypothesis(
            words: words, score: score, probability: library.probability(decoder),
            audioDuration: .microseconds(utterance.count * 1_000_000 / Self.sampleRate))
    }

    /// The decoder's configuration as command-line arguments.
    ///
    /// The beams are wider than PocketSphinx's defaults (1e-48, 7e-29, 1e-48): with those, 57 of
    /// 76 spoken commands were heard exactly and some not at all (no path reached the grammar's
    /// end); with these, 64 of 76, for 25 % more CPU (RecogniserTests). Tried on the corpus's 164
    /// hardest durations (teens, tens, seven, two, twelve, nine) and left out: `-topn 16` (108 exact
    /// against 110, 50 % more CPU) and `-fsgusefiller no` (64 exact).
    /// - Parameters:
    ///   - acousticModel: The acoustic model's folder.
    ///   - dictionary: The pronouncing dictionary's file.
    /// - Returns: Alternating option names and values.
    private static func arguments(acousticModel: String, dictionary: String) -> [String] {
        [
            "-hmm", acousticModel, "-dict", dictionary, "-logfn", "/dev/null", "-beam", "1e-80", "-wbeam", "1e-60",
            "-pbeam", "1e-80",
        ]
    }

    /// Parses `arguments` over PocketSphinx's definitions into a configuration.
    ///
    /// - Parameters:
    ///   - library: The functions.
    ///   - arguments: Alternating option names and values.
    /// - Returns: The configuration, which the caller frees, or nil when refused.
    /// C: `ps_args`, `cmd_ln_parse_r` (which copies the strings).
    private static func configuration(_ library: PocketsphinxLibrary, _ arguments: [String]) -> OpaquePointer? {
        var argv = arguments.map { strdup($0) }
        defer { for argument in argv { Glibc.free(argument) } }
        return argv.withUnsafeMutableBufferPointer { argv in
            library.parseConfiguration(nil, library.arguments(), Int32(argv.count), argv.baseAddress, 1)
        }
    }
}
