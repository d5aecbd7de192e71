/// Why a spoken line could not be made; each case is one line for the user (``message``).
public enum SpeechError: Error, Sendable, Equatable {
    /// libespeak-ng, its voice data (espeak-ng-data) or libsamplerate cannot be loaded: the library
    /// and `dlerror()`'s or espeak-ng's word.
    ///
    /// A distinct case so that a caller can warn once and ring the plain alarm from then on.
    case libraryMissing(String)
    /// espeak-ng lists no voice of this name (as given, for example `"xx"`, `"en+"`, `"../x"`):
    /// none of its voices has it as its name, its file's name or one of its languages
    /// (``VoiceCatalog``).
    case unknownVoice(String)
    /// One of espeak-ng's variants (`m3`, `Alex`: its `--voices=variant` list) given alone, where a
    /// voice belongs; espeak-ng itself would load it as a voice without a language, and crash.
    case variantWithoutVoice(String)
    /// A voice espeak-ng lists, with `+VARIANT` where VARIANT is none of its variants' file names.
    case unknownVariant(voice: String, variant: String)
    /// An MBROLA voice espeak-ng lists (`mb-en1`), not installed: its MBROLA voice data (the
    /// `database`, `en1`) or the `mbrola` program is missing; says which.
    case mbrolaNotInstalled(voice: String, database: String, dataMissing: Bool, programMissing: Bool)
    /// The text cannot be spoken: empty, longer than ``SpeechSynthesizer/maximumTextBytes``, or
    /// holding a NUL byte; says which.
    case textRejected(String)
    /// espeak-ng or libsamplerate failed on this text: the function and its word.
    case synthesisFailed(String)
    /// The synthesis had not finished within the preparer's limit (``SpeechPreparer/limit``); it
    /// was abandoned.
    case tooSlow(limit: Duration)

    /// One line for the user, without a trailing full stop.
    public var message: String {
        switch self {
        case .libraryMissing(let detail):
            "cannot load the speech libraries (install libespeak-ng1, espeak-ng-data and libsamplerate0): \(detail)"
        case .unknownVoice(let name): "espeak-ng has no voice '\(name)'"
        case .variantWithoutVoice(let name):
            "'\(name)' is an espeak-ng variant, not a voice: add it to one, as en+\(name)"
        case .unknownVariant(let voice, let variant): "espeak-ng has no variant '\(variant)' (in '\(voice)')"
        case .mbrolaNotInstalled(let voice, let database, let dataMissing, let programMissing):
            Self.mbrolaMessage(
                voice: voice, database: database, dataMissing: dataMissing, programMissing: programMissing)
        case .textRejected(let why): "cannot speak the text: \(why)"
        case .synthesisFailed(let detail): "speech synthesis failed: \(detail)"
        case .tooSlow(let limit):
            "speech synthesis took longer than \(Int(limit / .milliseconds(1))) ms and was abandoned"
        }
    }

    /// The line of ``mbrolaNotInstalled(voice:database:dataMissing:programMissing:)``, naming what
    /// is missing and the Debian packages that bring it.
    private static func mbrolaMessage(voice: String, database: String, dataMissing: Bool, programMissing: Bool)
        -> String
    {
        let missing =
            switch (dataMissing, programMissing) {
            case (true, true): "MBROLA and its voice data \(database) are"
            case (true, false): "its MBROLA voice data \(database) is"
            default: "the mbrola program is"
            }
        let packages = (programMissing ? ["mbrola"] : []) + (dataMissing ? ["mbrola-\(database)"] : [])
        return "espeak-ng lists the MBROLA voice '\(voice)', but \(missing) not installed (Debian: "
            + packages.joined(separator: ", ") + ")"
    }
}
