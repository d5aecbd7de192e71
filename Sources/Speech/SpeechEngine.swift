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
    ///   ``SpeechError/unknownVoice(_:)``, ``SpeechError/synthesisFailed(_:)``.
    /// C: `espeak_Initialize`, `espeak_SetSynthCallback`, `espeak_SetVoiceByName`, `espeak_Synth`.
    static func synthesize(
        _ text: String, voice: String, library: Result<EspeakLibrary, SpeechError>, maximumSamples: Int
    ) throws(SpeechError) -> (samples: [Int16], sampleRate: Int) {
        let result: Result<(samples: [Int16], sampleRate: Int), SpeechError> = state.withLock { state in
            // A library that failed to load (the tests' missing one) is not remembered: the real
            // one may still be loaded later.
            if case .failure(let error) = library { return .failure(error) }
            if state == nil { state = initialize(library) }
            guard case .success(var engine) = state else {
                if case .failure(let error) = state { return .failure(error) }
                return .failure(.synthesisFailed("espeak-ng is not initialised"))
            }
            if engine.voice != voice {
                guard setVoice(voice, library: engine.library) else {
                    engine.voice = nil
                    state = .success(engine)
                    return .failure(.unknownVoice(voice))
                }
                engine.voice = voice
                state = .success(engine)
            }
            let collector = Collector(limit: maximumSamples)
            let context = Unmanaged.passUnretained(collector).toOpaque()
            let code = withExtendedLifetime(collector) {
                text.withCString { bytes in
                    engine.library.synth(
                        bytes, strlen(bytes) + 1, 0, POS_CHARACTER, 0, CEspeak_charsUTF8, nil, context)
                }
            }
            if collector.overflowed {
                return .failure(.synthesisFailed("the spoken text is longer than \(maximumSamples) samples"))
            }
            guard code == EE_OK else { return .failure(.synthesisFailed("espeak_Synth returned \(code.rawValue)")) }
            return .success((collector.samples, engine.sampleRate))
        }
        return try result.get()
    }

    /// Whether espeak-ng has the voice `name`: initialises the engine (once) and selects it, as
    /// a synthesis would.
    ///
    /// Blocks for the initialisation the first time (about 15 ms: the library, its data and the
    /// voice) and while another thread synthesises; any thread.
    /// - Parameters:
    ///   - name: An espeak-ng voice name.
    ///   - library: The loaded library to initialise on first use.
    /// - Throws: ``SpeechError/unknownVoice(_:)``, or ``SpeechError/libraryMissing(_:)``.
    /// C: `espeak_SetVoiceByName`, `espeak_SetVoiceByProperties`.
    static func check(voice name: String, library: Result<EspeakLibrary, SpeechError>) throws(SpeechError) {
        let result: Result<Void, SpeechError> = state.withLock { state in
            if case .failure(let error) = library { return .failure(error) }
            if state == nil { state = initialize(library) }
            guard case .success(var engine) = state else {
                if case .failure(let error) = state { return .failure(error) }
                return .failure(.synthesisFailed("espeak-ng is not initialised"))
            }
            if engine.voice == name { return .success(()) }
            let found = setVoice(name, library: engine.library)
            engine.voice = found ? name : nil
            state = .success(engine)
            return found ? .success(()) : .failure(.unknownVoice(name))
        }
        try result.get()
    }

    /// Sets the voice `name` as the `espeak-ng -v` command does: by name, identifier or file name
    /// (`de`, `en`, `en-us`, `English (Great Britain)`), else by language (`en-gb`, `de-ch`).
    ///
    /// Called with ``state`` locked.
    /// - Returns: Whether a voice was found (`EE_OK`); an unknown one leaves the voice unchanged.
    /// C: `espeak_SetVoiceByName`, `espeak_SetVoiceByProperties`.
    private static func setVoice(_ name: String, library: EspeakLibrary) -> Bool {
        if library.setVoiceByName(name) == EE_OK { return true }
        return name.withCString { language in
            var wanted = espeak_VOICE()
            wanted.languages = language
            return library.setVoiceByProperties(&wanted) == EE_OK
        }
    }

    /// Starts espeak-ng in synchronous mode at ``SpeechSynthesizer/wordsPerMinute`` and installs
    /// the synth callback.
    ///
    /// Called with ``state`` locked. `espeakINITIALIZE_DONT_EXIT` keeps espeak-ng from calling
    /// `exit()` when its data is missing. The speaking rate is set once: selecting a voice keeps
    /// it (checked with espeak-ng 1.51: the rate set before or after `espeak_SetVoiceByName` gives
    /// the same samples). C: `espeak_Initialize`, `espeak_SetParameter`, `espeak_SetSynthCallback`.
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
            return .success(Engine(library: library, sampleRate: Int(rate), voice: nil))
        }
    }
}
