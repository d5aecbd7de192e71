/// The languages the timer's own sentences are written in: English and German.
///
/// A label is spoken as typed, in any voice; only the sentence around it and spoken durations need
/// words per language.
public enum SpeechLanguage: Sendable, Hashable, CaseIterable {
    case english
    case german

    /// The language of an espeak-ng voice name: German for `de` and its variants (`de-at`,
    /// `de-ch`, `de+f2`, any case), English for every other voice.
    /// - Parameter voice: An espeak-ng voice name, for example `"en-gb"` or `"de"`.
    public init(voice: String) {
        let language = voice.lowercased().prefix { $0.isLetter }
        self = language == "de" ? .german : .english
    }
}
