/// Why a spoken line could not be made; each case is one line for the user (``message``).
public enum SpeechError: Error, Sendable, Equatable {
    /// libespeak-ng, its voice data (espeak-ng-data) or libsamplerate cannot be loaded: the library
    /// and `dlerror()`'s or espeak-ng's word.
    ///
    /// A distinct case so that a caller can warn once and ring the plain alarm from then on.
    case libraryMissing(String)
    /// espeak-ng knows no voice of this name (as given, for example `"xx"`).
    case unknownVoice(String)
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
        case .textRejected(let why): "cannot speak the text: \(why)"
        case .synthesisFailed(let detail): "speech synthesis failed: \(detail)"
        case .tooSlow(let limit):
            "speech synthesis took longer than \(Int(limit / .milliseconds(1))) ms and was abandoned"
        }
    }
}
