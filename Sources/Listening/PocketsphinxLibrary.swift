import CPocketsphinx
import SystemKit

/// libpocketsphinx's and libsphinxbase's functions, loaded with `dlopen` the first time a
/// recogniser is made.
///
/// The binary does not link either library, so a run that never listens does not need them (nor
/// the 37 MB model). Each pointer has its header's type (`CPocketsphinx_*` in the shim header).
/// Loaded once per process and never unloaded; immutable afterwards. The functions themselves are
/// not thread-safe on one decoder: only the ``Recogniser`` that owns a decoder calls them on it.
struct PocketsphinxLibrary: Sendable {
    /// The recogniser's shared object, by its SONAME (Debian `libpocketsphinx3`).
    static let fileName = "libpocketsphinx.so.3"
    /// The support library's shared object, by its SONAME (Debian `libsphinxbase3`).
    static let baseFileName = "libsphinxbase.so.3"

    let arguments: CPocketsphinx_Arguments
    let parseConfiguration: CPocketsphinx_ParseConfiguration
    let freeConfiguration: CPocketsphinx_FreeConfiguration
    let initialize: CPocketsphinx_Init
    let freeDecoder: CPocketsphinx_FreeDecoder
    let lookupWord: CPocketsphinx_LookupWord
    let free: CPocketsphinx_Free
    let setJSGFString: CPocketsphinx_SetJSGFString
    let setSearch: CPocketsphinx_SetSearch
    let startUtterance: CPocketsphinx_StartUtterance
    let processRaw: CPocketsphinx_ProcessRaw
    let endUtterance: CPocketsphinx_EndUtterance
    let hypothesis: CPocketsphinx_Hypothesis
    let probability: CPocketsphinx_Probability

    /// The process's libraries (``fileName`` and ``baseFileName``), loaded on first use.
    static let shared: Result<PocketsphinxLibrary, ListeningError> = load(
        fileName, base: baseFileName)

    /// Opens `fileName` and `base`, looks up every function and turns sphinxbase's log off.
    ///
    /// Any thread. Names other than ``fileName`` and ``baseFileName`` are a seam for tests (a
    /// name that does not exist stands for a box without the library). sphinxbase logs every
    /// configuration value and model file to standard error by default; its log goes nowhere
    /// from here on, for the whole process.
    /// - Parameters:
    ///   - fileName: libpocketsphinx's SONAME or path.
    ///   - base: libsphinxbase's SONAME or path.
    /// - Returns: The functions, or ``ListeningError/libraryMissing(_:)`` naming the file and why.
    /// C: `dlopen`, `dlsym`, `err_set_logfp`.
    static func load(_ fileName: String, base: String) -> Result<PocketsphinxLibrary, ListeningError> {
        SharedObject.open(base).flatMap { base in SharedObject.open(fileName).map { (base, $0) } }
            .mapError { ListeningError.libraryMissing($0.description) }
            .flatMap { base, object in
                guard let parse = base.function("cmd_ln_parse_r", as: CPocketsphinx_ParseConfiguration.self),
                    let freeConfiguration = base.function("cmd_ln_free_r", as: CPocketsphinx_FreeConfiguration.self),
                    let setLogFile = base.function("err_set_logfp", as: CPocketsphinx_SetLogFile.self),
                    let free = base.function("ckd_free", as: CPocketsphinx_Free.self)
                else { return .failure(.libraryMissing(base.lookupError.description)) }
                guard let arguments = object.function("ps_args", as: CPocketsphinx_Arguments.self),
                    let initialize = object.function("ps_init", as: CPocketsphinx_Init.self),
                    let freeDecoder = object.function("ps_free", as: CPocketsphinx_FreeDecoder.self),
                    let lookupWord = object.function("ps_lookup_word", as: CPocketsphinx_LookupWord.self),
                    let setJSGFString = object.function("ps_set_jsgf_string", as: CPocketsphinx_SetJSGFString.self),
                    let setSearch = object.function("ps_set_search", as: CPocketsphinx_SetSearch.self),
                    let startUtterance = object.function("ps_start_utt", as: CPocketsphinx_StartUtterance.self),
                    let processRaw = object.function("ps_process_raw", as: CPocketsphinx_ProcessRaw.self),
                    let endUtterance = object.function("ps_end_utt", as: CPocketsphinx_EndUtterance.self),
                    let hypothesis = object.function("ps_get_hyp", as: CPocketsphinx_Hypothesis.self),
                    let probability = object.function("ps_get_prob", as: CPocketsphinx_Probability.self)
                else { return .failure(.libraryMissing(object.lookupError.description)) }
                setLogFile(nil)
                return .success(
                    PocketsphinxLibrary(
                        arguments: arguments, parseConfiguration: parse, freeConfiguration: freeConfiguration,
                        initialize: initialize, freeDecoder: freeDecoder, lookupWord: lookupWord, free: free,
                        setJSGFString: setJSGFString, setSearch: setSearch, startUtterance: startUtterance,
                        processRaw: processRaw, endUtterance: endUtterance, hypothesis: hypothesis,
                        probability: probability))
            }
    }

    /// ``shared`` for the default names, else a fresh load (the tests' seam).
    /// - Parameters:
    ///   - fileName: libpocketsphinx's SONAME or path.
    ///   - base: libsphinxbase's SONAME or path.
    /// - Returns: The functions, or why they cannot be loaded.
    static func named(_ fileName: String, base: String) -> Result<PocketsphinxLibrary, ListeningError> {
        fileName == Self.fileName && base == Self.baseFileName ? shared : load(fileName, base: base)
    }
}
