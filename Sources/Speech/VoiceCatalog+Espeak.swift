import CEspeak
import Glibc

// Reading the catalog through the loaded library, as `espeak-ng --voices`, `--voices=variant` and
// `--voices=mb` do.

extension VoiceCatalog {
    /// espeak-ng's three lists, read through `library`.
    ///
    /// Reads every voice file of espeak-ng-data three times (about 320 small files each). Call it
    /// with ``SpeechEngine``'s lock held, after `espeak_Initialize`: the library lists into globals.
    /// - Parameter library: The loaded library.
    /// - Returns: The voices, the variants (files under `!v/`) and the MBROLA voices (under `mb/`).
    /// C: `espeak_ListVoices`.
    static func read(from library: EspeakLibrary) -> VoiceCatalog {
        VoiceCatalog(
            voices: list(library, language: nil),
            variants: list(library, language: "variant").filter { $0.identifier.hasPrefix("!v/") },
            mbrolaVoices: list(library, language: "mb").filter { $0.identifier.hasPrefix("mb/") })
    }

    /// One list: every voice but variants and MBROLA voices (`language` nil), else those that
    /// `espeak_ListVoices` selects for `language` (`variant`; `mb`, a folder: every file in it).
    ///
    /// Each call frees the list the call before returned, so the entries are copied at once.
    private static func list(_ library: EspeakLibrary, language: String?) -> [Entry] {
        guard let language else { return entries(library.listVoices(nil)) }
        return language.withCString { language in
            var spec = espeak_VOICE()
            spec.languages = language
            return entries(library.listVoices(&spec))
        }
    }

    /// The entries of a list `espeak_ListVoices` returned: a NULL-terminated array.
    private static func entries(_ list: UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>?) -> [Entry] {
        guard let list else { return [] }
        var entries: [Entry] = []
        var index = 0
        while let voice = list[index] {
            index += 1
            guard let identifier = voice.pointee.identifier else { continue }
            entries.append(
                Entry(
                    identifier: String(cString: identifier), name: voice.pointee.name.map { String(cString: $0) } ?? "",
                    languages: languages(voice.pointee.languages)))
        }
        return entries
    }

    /// The languages of a voice's `languages` field: pairs of a priority byte and a NUL-terminated
    /// name, ended by a zero byte.
    private static func languages(_ field: UnsafePointer<CChar>?) -> [String] {
        guard var cursor = field else { return [] }
        var languages: [String] = []
        while cursor.pointee != 0 {
            languages.append(String(cString: cursor + 1))
            cursor += strlen(cursor + 1) + 2  // the bytes, not the repaired text's
        }
        return languages
    }
}
