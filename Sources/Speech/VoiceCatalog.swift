/// espeak-ng's own lists of voices, variants and MBROLA voices, as its library lists them: what
/// decides which voice names eggtimer passes to it.
///
/// espeak-ng takes more than it can speak: `espeak_SetVoiceByName("m3")` finds no voice `m3`, looks
/// through every voice file it has, variants included, finds the variant `!v/m3` and loads it as a
/// voice: a file whose only language line says `variant`, so the voice has no language and no
/// phoneme table (`Unknown phoneme table: ''` on standard error), the call returns `EE_OK`, and the
/// next `espeak_Synth` dies of SIGSEGV inside the library (espeak-ng 1.51, every variant of its
/// `!v` folder). An MBROLA voice (`mb-en1`) whose MBROLA data is missing makes the library print
/// five lines and try to start the `mbrola` program. So a name reaches the library only when this
/// list admits it (``choice(for:)``): a voice, optionally with `+VARIANT`, both as listed.
///
/// Pure and immutable; any thread. Read through the library by ``SpeechEngine`` (``read(from:)``).
struct VoiceCatalog: Sendable, Equatable {
    /// One voice file of espeak-ng's, as `espeak_ListVoices` lists it.
    struct Entry: Sendable, Equatable {
        /// The file within espeak-ng-data's `lang` or `voices` folder: `gmw/en`, `!v/m3`, `mb/mb-en1`.
        let identifier: String
        /// The voice's name: `English (Great Britain)`, `male3`, `english-mb-en1`.
        let name: String
        /// The languages it speaks, as listed, most suitable first: `en-gb`, `en`; `variant` for a variant.
        let languages: [String]

        /// The file's own name, the last part of ``identifier``: `en`, `m3`, `mb-en1`.
        var fileName: Substring { identifier.split(separator: "/", omittingEmptySubsequences: false).last ?? "" }
    }

    /// What to ask espeak-ng for, once the catalog admitted a name.
    enum Choice: Sendable, Equatable {
        /// A voice of ``voices``: `base` as given (a name, file name or language of one of them),
        /// and a variant's file name, if any.
        case voice(base: String, variant: String?)
        /// An MBROLA voice of ``mbrolaVoices``, given by its file name or name, and a variant's file
        /// name, if any; still to be found installed (``MbrolaInstallation``).
        case mbrola(Entry, base: String, variant: String?)
    }

    /// The voices `espeak-ng --voices` lists (`espeak_ListVoices(NULL)`: neither variants nor
    /// MBROLA voices).
    let voices: [Entry]
    /// The variants `espeak-ng --voices=variant` lists: files of the `!v` folder.
    let variants: [Entry]
    /// The MBROLA voices `espeak-ng --voices=mb` lists: files of the `mb` folder.
    let mbrolaVoices: [Entry]

    /// The longest name taken, in UTF-8 bytes: 64 (espeak-ng copies a name into 40- to 60-byte
    /// buffers; its longest, a voice with a variant, is about 30).
    static let nameLimit = 64

    /// Decides whether `value` names a voice espeak-ng lists, optionally with `+VARIANT`.
    ///
    /// The part before `+` must be one of ``voices``' names or file names (ASCII letters in any
    /// case), or one of their languages (as espeak-ng matches a language: the value in lower case
    /// against the list's); else the file name or name of one of ``mbrolaVoices``. VARIANT must be
    /// the file name of one of ``variants``, exactly (espeak-ng opens `!v/VARIANT`). Nothing with a
    /// `/`, a NUL, more than one `+` or more than ``nameLimit`` bytes is taken.
    /// - Parameter value: A voice name as the user gave it: `en-gb`, `de+m3`, `mb-en1`.
    /// - Returns: What to ask the library for; or ``SpeechError/unknownVoice(_:)``,
    ///   ``SpeechError/variantWithoutVoice(_:)`` or ``SpeechError/unknownVariant(voice:variant:)``.
    /// - Complexity: O(*n*) in the number of voice files.
    func choice(for value: String) -> Result<Choice, SpeechError> {
        guard !value.isEmpty, value.utf8.count <= Self.nameLimit, !value.utf8.contains(0), !value.contains("/") else {
            return .failure(.unknownVoice(value))
        }
        let parts = value.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2, let base = parts.first, !base.isEmpty else { return .failure(.unknownVoice(value)) }
        let variant = parts.count == 2 ? parts[1] : nil
        if let variant {
            guard !variant.isEmpty else { return .failure(.unknownVoice(value)) }
            guard variants.contains(where: { $0.fileName == variant }) else {
                return .failure(.unknownVariant(voice: value, variant: String(variant)))
            }
        }
        let language = base.lowercased()
        if voices.contains(where: { Self.sameName(base, $0) || $0.languages.contains(language) }) {
            return .success(.voice(base: String(base), variant: variant.map(String.init)))
        }
        if let entry = mbrolaVoices.first(where: { Self.sameName(base, $0) }) {
            return .success(.mbrola(entry, base: String(base), variant: variant.map(String.init)))
        }
        if let listed = variants.first(where: { Self.sameName(base, $0) }) {
            // Its file name as listed (`m3` for `M3`): the advice must be a name that is taken.
            return .failure(.variantWithoutVoice(String(listed.fileName)))
        }
        return .failure(.unknownVoice(value))
    }

    /// Whether `identifier` (as `espeak_GetCurrentVoice` reports it: `gmw/en`, `gmw/en+m3`) is one
    /// of ``voices`` or `chosen`, with a variant of ``variants`` or none.
    /// - Parameters:
    ///   - identifier: The voice the library says it set.
    ///   - chosen: The MBROLA voice asked for, if one was.
    /// - Returns: Whether it is what the catalog admitted.
    func admits(current identifier: String, mbrola chosen: Entry? = nil) -> Bool {
        let parts = identifier.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let file = String(parts[0])
        let voiceListed = voices.contains { $0.identifier == file } || chosen?.identifier == file
        let variantListed = parts.count == 1 || variants.contains { $0.fileName == parts[1] }
        return voiceListed && variantListed
    }

    /// Whether `name` is `entry`'s name or file name, ASCII letters in any case (as espeak-ng's
    /// `strcasecmp` compares them).
    private static func sameName(_ name: Substring, _ entry: Entry) -> Bool {
        let lower = name.lowercased()
        return lower == entry.name.lowercased() || lower == entry.fileName.lowercased()
    }
}
