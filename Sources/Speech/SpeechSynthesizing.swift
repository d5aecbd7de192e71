/// Something that turns a line of text into audio in a given format: the seam between
/// ``SpeechPreparer`` and espeak-ng (``SpeechSynthesizer``), so tests can make synthesis slow or fail.
public protocol SpeechSynthesizing: Sendable {
    /// Speaks `text` in `voice`, converted to `format`.
    ///
    /// Blocks until done; called on ``SpeechPreparer``'s synthesis thread, one call at a time.
    /// - Parameters:
    ///   - text: What to say.
    ///   - voice: An espeak-ng voice name, for example `"en-gb"` or `"de"`.
    ///   - format: The output's rate and channels.
    /// - Returns: The spoken line in `format`.
    /// - Throws: ``SpeechError`` saying why not.
    func render(_ text: String, voice: String, format: SpeechFormat) throws(SpeechError) -> SpokenAudio
}
