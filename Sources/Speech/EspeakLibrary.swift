import CEspeak
import SystemKit

/// libespeak-ng's functions, loaded with `dlopen` the first time something is spoken.
///
/// The binary does not link libespeak-ng, so a run that never speaks starts and uses memory as
/// before, and a box without the library still rings (with one warning). Each pointer has its
/// header's exact type (`CEspeak_*`, made with `__typeof__` in the shim header). Loaded once per
/// process and never unloaded; immutable afterwards. The functions themselves are not
/// thread-safe: only ``SpeechEngine`` calls them, under its lock.
struct EspeakLibrary: Sendable {
    /// The shared object loaded, by its SONAME (Debian `libespeak-ng1`).
    static let fileName = "libespeak-ng.so.1"

    let initialize: CEspeak_Initialize
    let setSynthCallback: CEspeak_SetSynthCallback
    let setVoiceByName: CEspeak_SetVoiceByName
    let setVoiceByProperties: CEspeak_SetVoiceByProperties
    let synth: CEspeak_Synth
    let synchronize: CEspeak_Synchronize
    let info: CEspeak_Info
    let setParameter: CEspeak_SetParameter
    let listVoices: CEspeak_ListVoices
    let currentVoice: CEspeak_GetCurrentVoice

    /// The process's library (``fileName``), loaded on first use.
    static let shared: Result<EspeakLibrary, SpeechError> = load(fileName)

    /// Opens the library `fileName` and looks up every function.
    ///
    /// Any thread. A name other than ``fileName`` is a seam for tests (a name that does not exist
    /// stands for a box without the library).
    /// - Parameter fileName: A SONAME or path.
    /// - Returns: The functions, or ``SpeechError/libraryMissing(_:)`` naming the file and why.
    /// C: `dlopen`, `dlsym`.
    static func load(_ fileName: String) -> Result<EspeakLibrary, SpeechError> {
        SharedObject.open(fileName).mapError { SpeechError.libraryMissing($0.description) }.flatMap { object in
            guard let initialize = object.function("espeak_Initialize", as: CEspeak_Initialize.self),
                let setSynthCallback = object.function("espeak_SetSynthCallback", as: CEspeak_SetSynthCallback.self),
                let setVoiceByName = object.function("espeak_SetVoiceByName", as: CEspeak_SetVoiceByName.self),
                let setVoiceByProperties = object.function(
                    "espeak_SetVoiceByProperties", as: CEspeak_SetVoiceByProperties.self),
                let synth = object.function("espeak_Synth", as: CEspeak_Synth.self),
                let synchronize = object.function("espeak_Synchronize", as: CEspeak_Synchronize.self),
                let info = object.function("espeak_Info", as: CEspeak_Info.self),
                let setParameter = object.function("espeak_SetParameter", as: CEspeak_SetParameter.self),
                let listVoices = object.function("espeak_ListVoices", as: CEspeak_ListVoices.self),
                let currentVoice = object.function("espeak_GetCurrentVoice", as: CEspeak_GetCurrentVoice.self)
            else { return .failure(.libraryMissing(object.lookupError.description)) }
            return .success(
                EspeakLibrary(
                    initialize: initialize, setSynthCallback: setSynthCallback, setVoiceByName: setVoiceByName,
                    setVoiceByProperties: setVoiceByProperties, synth: synth, synchronize: synchronize, info: info,
                    setParameter: setParameter, listVoices: listVoices, currentVoice: currentVoice))
        }
    }

    /// ``shared`` for ``fileName``, else a fresh load of `fileName` (the tests' seam).
    static func named(_ fileName: String) -> Result<EspeakLibrary, SpeechError> {
        fileName == Self.fileName ? shared : load(fileName)
    }
}
