import CEspeak
import Glibc
import SystemKit

/// The process's one espeak-ng synthesiser: initialised once, then used under one lock.
///
/// espeak-ng keeps all its state in globals (the voice, the synth callback, its buffers) and is
/// not thread-safe, so every call into it is made here with ``state`` locked: callers on several
/// threads are served one after another. In the program only ``SpeechPreparer``'s one synthesis
/// thread calls it (tests call it from several); never the event loop, since a synthesis blocks
/// for milliseconds and could block for longer.
///
/// Initialised with `AUDIO_OUTPUT_SYNCHRONOUS`: `espeak_Synth` returns once the whole text is
/// synthesised, having passed every sample to the synth callback, which appends them to the
/// caller's ``Collector`` (reached through the events' `user_data`). Output is mono S16 at the
/// rate `espeak_Initialize` returns (22 050 Hz with espeak-ng-data 1.51).
///
/// ## Determinism
/// espeak-ng carries state from one utterance to the next in its wave generator, which no call
/// resets: the place in its pitch-flutter table (`Flutter_ix`, a function-local static of
/// wavegen.c's `AdvanceParameters`, stepped every 64 samples, wrapping after 23 552) and, seen with
/// a flutter-free voice, a second one of period two (the cycle counter that paces a voice's
/// roughness, also a function-local static). The same sentence said three times in a row in one
/// fresh process gave 19 056, 19 063 and 19 076 samples with `en-us` (at espeak-ng's default 175
/// words per minute); with `en-us+Alex` (flutter
/// 0) 18 968 each time, the first and third equal and the second not (C probes, espeak-ng 1.51).
/// Selecting the voice again before each synthesis resets only the echo buffer and changes
/// nothing; `espeak_Terminate` and a new `espeak_Initialize` would not reset function statics
/// either, and hang in synchronous mode. The same sequence of syntheses in a fresh process gives
/// the same samples, every time: so the first synthesis of a process (a timer's spoken line) is
/// reproduced by another process's first, which is what the tests compare with
/// (`Tests/Shims/espeak-first.c`).
enum SpeechEngine {
    /// An initialised synthesiser.
    private struct Engine {
        let library: EspeakLibrary
        /// Samples per second of everything synthesised, in Hz.
        let sampleRate: Int
        /// The voice set last (`espeak_SetVoiceByName`), to skip setting it again.
        var voice: String?
        /// espeak-ng's lists, read once at initialisation: the only names passed to the library.
        let catalog: VoiceCatalog
        /// espeak-ng-data's folder (`espeak_Info`), where MBROLA voices name their data.
        let dataFolder: String?
    }

    /// Where the synth callback puts the samples of one synthesis; owned by the synthesising
    /// thread for the duration of one `espeak_Synth` call.
    private final class Collector {
        var samples: [Int16] = []
        /// At most this many samples are kept; beyond it the callback asks espeak-ng to stop.
        let limit: Int
        var overflowed = false
        init(limit: Int) { self.limit = limit }
    }

    /// The engine, or why it could not be made; `nil` until the first synthesis.
    ///
    /// A failed initialisation is kept, so it is tried once.
    private static let state = Locked<Result<Engine, SpeechError>?>(nil)

    /// Synthesises `text` in `voice` to mono S16 samples at the engine's rate.
    ///
    /// Blocks for the synthesis (a few milliseconds for a sentence) and while another thread
    /// synthesises; any thread, though in the program only the synthesis thread.
    /// - Parameters:
    ///   - text: UTF-8 text, already checked (not empty, no NUL, at most
    ///     ``SpeechSynthesizer/maximumTextBytes``); read as plain text (no SSML, no phoneme input).
    ///   - voice: An espeak-ng voice name (`"en-gb"`, `"de"`, …).
    ///   - library: The loaded library to initialise on first use (tests pass a missing one).
    ///   - maximumSamples: The longest output kept; a longer synthesis fails.
    /// - Returns: The samples and their rate in Hz.
    /// - Throws: ``SpeechError/libraryMissing(_:)`` (no library, or espeak-ng-data missing),
    ///   ``SpeechError/unknownVoice(_:)`` and the other voice errors of ``check(voice:library:)``,
    ///   ``SpeechError/synthesisFailed(_:)``.
    /// C: `espeak_Initialize`, `espeak_SetSynthCallback`, `espeak_SetVoiceByName`, `espeak_Synth`.
    static func synthesize(
        _ text: String, voice: String, library: Result<EspeakLibrary, SpeechError>, maximumSamples: Int
    ) throws(SpeechError) -> (samples: [Int16], sampleRate: Int) {
        try withEngine(library) { engine throws(SpeechError) in
            try use(voice, in: &engine)
            let collector = Collector(limit: maximumSamples)
            let context = Unmanaged.passUnretained(collector).toOpaque()
            let code = withExtendedLifetime(collector) {
                text.withCString { bytes in
                    engine.library.synth(
                        bytes, strlen(bytes) + 1, 0, POS_CHARACTER, 0, CEspeak_charsUTF8, nil, context)
                }
            }
            if collector.overflowed {
                throw .synthesisFailed("the spoken text is longer than \(maximumSamples) samples")
            }
            guard code == EE_OK else { throw .synthesisFailed("espeak_Synth returned \(code.rawValue)") }
            return (collector.samples, engine.sampleRate)
        }
    }

    /// Whether espeak-ng lists the voice `name` and can set it: initialises the engine (once) and
    /// selects it, as a synthesis would (``select(_:engine:)``).
    ///
    /// Blocks for the initialisation the first time (about 15 ms: the library, its data and the
    /// voice, and a few more to list the voices) and while another thread synthesises; any thread.
    /// - Parameters:
    ///   - name: An espeak-ng voice name.
    ///   - library: The loaded library to initialise on first use.
    /// - Returns: The voice the library set, as it names it (`gmw/en`, `gmw/en+f1`).
    /// - Throws: ``SpeechError/unknownVoice(_:)``, ``SpeechError/variantWithoutVoice(_:)``,
    ///   ``SpeechError/unknownVariant(voice:variant:)``,
    ///   ``SpeechError/mbrolaNotInstalled(voice:database:dataMissing:programMissing:)``, or
    ///   ``SpeechError/libraryMissing(_:)``.
    /// C: `espeak_SetVoiceByName`, `espeak_SetVoiceByProperties`, `espeak_GetCurrentVoice`.
    @discardableResult
    static func check(voice name: String, library: Result<EspeakLibrary, SpeechError>) throws(SpeechError)
        -> String
    {
        try withEngine(library) { engine throws(SpeechError) in
            try use(name, in: &engine)
            return currentIdentifier(engine.library)
        }
    }

    /// Makes `name` the engine's voice (``select(_:engine:)``) unless it is already.
    ///
    /// Called with ``state`` locked.
    /// - Throws: Why the voice was refused; the engine then has no voice set, so the next use
    ///   selects again.
    private static func use(_ name: String, in engine: inout Engine) throws(SpeechError) {
        guard engine.voice != name else { return }
        let refusal = select(name, engine: engine)
        engine.voice = refusal == nil ? name : nil
        if let refusal { throw refusal }
    }

    /// espeak-ng's lists as the engine read them (``VoiceCatalog``): initialises the engine (once).
    ///
    /// Blocks as ``check(voice:library:)`` does; any thread.
    /// - Parameter library: The loaded library to initialise on first use.
    /// - Returns: The voices, variants and MBROLA voices the checks admit names from.
    /// - Throws: ``SpeechError/libraryMissing(_:)``.
    static func catalog(library: Result<EspeakLibrary, SpeechError>) throws(SpeechError) -> VoiceCatalog {
        try withEngine(library) { engine throws(SpeechError) in engine.catalog }
    }

    /// Runs `body` on the engine with ``state`` locked, initialising it first if need be, and
    /// keeps what `body` changed in it.
    private static func withEngine<Value>(
        _ library: Result<EspeakLibrary, SpeechError>, _ body: (inout Engine) throws(SpeechError) -> Value
    ) throws(SpeechError) -> Value {
        let result: Result<Value, SpeechError> = state.withLock { state in
            // A library that failed to load (the tests' missing one) is not remembered: the real
            // one may still be loaded later.
            if case .failure(let error) = library { return .failure(error) }
            if state == nil { state = initialize(library) }
            guard case .success(var engine) = state else {
                if case .failure(let error) = state { return .failure(error) }
                return .failure(.synthesisFailed("espeak-ng is not initialised"))
            }
            defer { state = .success(engine) }
            do throws(SpeechError) { return .success(try body(&engine)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Sets the voice `name` if espeak-ng's lists admit it (``VoiceCatalog/choice(for:)``), as the
    /// `espeak-ng -v` command finds it: by name or file name (`de`, `Afrikaans`, `en-GB-x-rp`),
    /// else by language (`en-gb`); a `+VARIANT` is applied to the voice found either way.
    ///
    /// Only a name the catalog admitted, or the identifier of the voice the library chose for
    /// it, reaches the library; an MBROLA voice only once ``MbrolaInstallation`` finds it
    /// installed. The voice the library reports having set is checked against the catalog too.
    /// Called with ``state`` locked.
    /// - Returns: nil when the voice is set; else why not (a name the catalog refuses never
    ///   reaches the library).
    /// C: `espeak_SetVoiceByName`, `espeak_SetVoiceByProperties`, `espeak_GetCurrentVoice`.
    private static func select(_ name: String, engine: Engine) -> SpeechError? {
        let library = engine.library
        let unknown = SpeechError.unknownVoice(name)
        switch engine.catalog.choice(for: name) {
        case .failure(let error):
            return error
        case .success(.mbrola(let entry, let base, let variant)):
            if let problem = MbrolaInstallation.system.problem(voice: name, entry: entry, espeakData: engine.dataFolder)
            {
                return problem
            }
            guard library.setVoiceByName(join(base, variant)) == EE_OK else { return unknown }
            return engine.catalog.admits(current: currentIdentifier(library), mbrola: entry) ? nil : unknown
        case .success(.voice(let base, let variant)):
            if library.setVoiceByName(join(base, variant)) != EE_OK {
                let found = base.withCString { language in
                    var wanted = espeak_VOICE()
                    wanted.languages = language
                    return library.setVoiceByProperties(&wanted) == EE_OK
                }
                guard found else { return unknown }
                if let variant {
                    // The voice espeak-ng chose for the language, with the variant asked for.
                    let chosen = currentIdentifier(library)
                    guard engine.catalog.admits(current: chosen), !chosen.contains("+"),
                        library.setVoiceByName(join(chosen, variant)) == EE_OK
                    else { return unknown }
                }
            }
            return engine.catalog.admits(current: currentIdentifier(library)) ? nil : unknown
        }
    }

    /// `voice+variant`, or `voice` alone.
    private static func join(_ voice: String, _ variant: String?) -> String {
        variant.map { voice + "+" + $0 } ?? voice
    }

    /// The identifier of the voice the library has set: `gmw/en`, `gmw/en+m3`.
    ///
    /// Called with ``state`` locked.
    /// - Returns: The identifier; empty when the library reports none. C: `espeak_GetCurrentVoice`.
    private static func currentIdentifier(_ library: EspeakLibrary) -> String {
        guard let voice = library.currentVoice(), let identifier = voice.pointee.identifier else { return "" }
        return String(cString: identifier)
    }

    /// Starts espeak-ng in synchronous mode at ``SpeechSynthesizer/wordsPerMinute``, installs
    /// the synth callback and reads its lists of voices (``VoiceCatalog``).
    ///
    /// Called with ``state`` locked. `espeakINITIALIZE_DONT_EXIT` keeps espeak-ng from calling
    /// `exit()` when its data is missing. The speaking rate is set once: selecting a voice keeps
    /// it (checked with espeak-ng 1.51: the rate set before or after `espeak_SetVoiceByName` gives
    /// the same samples). Listing the voices reads files and touches no synthesis state: the first
    /// synthesis still equals another process's first. C: `espeak_Initialize`, `espeak_SetParameter`,
    /// `espeak_SetSynthCallback`, `espeak_Info`, `espeak_ListVoices`.
    private static func initialize(_ library: Result<EspeakLibrary, SpeechError>) -> Result<Engine, SpeechError> {
        library.flatMap { library in
            let rate = library.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, CEspeak_initializeDontExit)
            guard rate > 0 else {
                return .failure(.libraryMissing("espeak_Initialize failed (is espeak-ng-data installed?)"))
            }
            let paced = library.setParameter(espeakRATE, Int32(SpeechSynthesizer.wordsPerMinute), 0)
            guard paced == EE_OK else {
                return .failure(.synthesisFailed("espeak_SetParameter(espeakRATE) returned \(paced.rawValue)"))
            }
            library.setSynthCallback { samples, count, events in
                guard let events, let context = events.pointee.user_data else { return 0 }
                let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                guard let samples, count > 0 else { return 0 }
                guard collector.samples.count + Int(count) <= collector.limit else {
                    collector.overflowed = true
                    return 1  // stop synthesising
                }
                collector.samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
                return 0
            }
            var dataFolder: UnsafePointer<CChar>?
            _ = library.info(&dataFolder)
            return .success(
                Engine(
                    library: library, sampleRate: Int(rate), voice: nil, catalog: VoiceCatalog.read(from: library),
                    dataFolder: dataFolder.map { String(cString: $0) }))
        }
    }
}
