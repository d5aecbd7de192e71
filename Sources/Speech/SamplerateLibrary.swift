import CSamplerate
import SystemKit

/// libsamplerate's functions, loaded with `dlopen` the first time something is spoken (as
/// ``EspeakLibrary``: the binary does not link it).
///
/// Loaded once per process and never unloaded; immutable afterwards. `src_simple` keeps no state
/// between calls, so any thread may call through it.
struct SamplerateLibrary: Sendable {
    /// The shared object loaded, by its SONAME (Debian `libsamplerate0`).
    static let fileName = "libsamplerate.so.0"

    let simple: CSamplerate_simple
    let errorText: CSamplerate_strerror
    let shortToFloat: CSamplerate_short_to_float_array
    let floatToShort: CSamplerate_float_to_short_array

    /// The process's library (``fileName``), loaded on first use.
    static let shared: Result<SamplerateLibrary, SpeechError> = load(fileName)

    /// Opens the library `fileName` and looks up every function.
    ///
    /// Any thread; a name other than ``fileName`` is a seam for tests.
    /// - Parameter fileName: A SONAME or path.
    /// - Returns: The functions, or ``SpeechError/libraryMissing(_:)`` naming the file and why.
    /// C: `dlopen`, `dlsym`.
    static func load(_ fileName: String) -> Result<SamplerateLibrary, SpeechError> {
        SharedObject.open(fileName).mapError { SpeechError.libraryMissing($0.description) }.flatMap { object in
            guard let simple = object.function("src_simple", as: CSamplerate_simple.self),
                let errorText = object.function("src_strerror", as: CSamplerate_strerror.self),
                let shortToFloat = object.function(
                    "src_short_to_float_array", as: CSamplerate_short_to_float_array.self),
                let floatToShort = object.function(
                    "src_float_to_short_array", as: CSamplerate_float_to_short_array.self)
            else { return .failure(.libraryMissing(object.lookupError.description)) }
            return .success(
                SamplerateLibrary(
                    simple: simple, errorText: errorText, shortToFloat: shortToFloat, floatToShort: floatToShort))
        }
    }

    /// ``shared`` for ``fileName``, else a fresh load of `fileName` (the tests' seam).
    static func named(_ fileName: String) -> Result<SamplerateLibrary, SpeechError> {
        fileName == Self.fileName ? shared : load(fileName)
    }
}
