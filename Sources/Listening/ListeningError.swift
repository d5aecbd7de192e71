/// Why a recogniser could not be made; each case is one line for the user (``message``).
public enum ListeningError: Error, Sendable, Equatable {
    /// libpocketsphinx or libsphinxbase cannot be loaded, or lacks a function: the library and
    /// `dlerror()`'s word.
    case libraryMissing(String)
    /// The model folder lacks a file or folder the recogniser needs: its path.
    case modelMissing(path: String)
    /// PocketSphinx refused the configuration or the model (`ps_init` failed) in this folder.
    case modelRejected(folder: String)
    /// Words of the grammar that the model's dictionary lacks, in the grammar's order, each once.
    case unknownWords([String])
    /// PocketSphinx refused the JSGF grammar text (its syntax), or the grammar holds no word.
    case grammarRejected(String)

    /// One line for the user, without a trailing full stop.
    public var message: String {
        switch self {
        case .libraryMissing(let detail):
            "cannot load the speech recogniser (install libpocketsphinx3 and libsphinxbase3): \(detail)"
        case .modelMissing(let path):
            "the speech recogniser's model is missing \(path) (install pocketsphinx-en-us)"
        case .modelRejected(let folder): "the speech recogniser cannot load its model from \(folder)"
        case .unknownWords(let words):
            "the recogniser's dictionary lacks the word\(words.count == 1 ? "" : "s") "
                + words.map { "'\($0)'" }.joined(separator: ", ")
        case .grammarRejected(let why): "the recogniser refused the grammar: \(why)"
        }
    }
}
