import Glibc
import SystemKit

/// Whether an MBROLA voice espeak-ng lists can speak here: its MBROLA voice data and the `mbrola`
/// program, looked for where libespeak-ng looks for them.
///
/// espeak-ng lists its `mb-*` voices whether MBROLA is installed or not (Debian's espeak-ng-data
/// ships 90); selecting one without MBROLA makes the library print five lines on standard error
/// and try to start `mbrola`. So ``SpeechEngine`` asks here first and passes the voice on only
/// when both are found. Reads a few small files and `stat`s a few paths; any thread.
struct MbrolaInstallation: Sendable {
    /// The folder of MBROLA's voice data: a database `DB` is `DB`, `DB/DB` or `voices/DB` in it
    /// (the paths libespeak-ng 1.51 tries and names when it finds none).
    let dataFolder: String
    /// The folders searched for the `mbrola` program, `:`-separated, as `PATH`.
    let searchPath: String

    /// The system's: `/usr/share/mbrola` and the process's `PATH` (`/usr/bin:/bin` without one).
    static var system: MbrolaInstallation {
        MbrolaInstallation(
            dataFolder: "/usr/share/mbrola", searchPath: getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
    }

    /// What keeps the MBROLA voice `entry` (asked for as `voice`) from speaking, or nil when its
    /// data and the program are both installed.
    /// - Parameters:
    ///   - voice: The name as given, for the message (`mb-en1`).
    ///   - entry: The voice as espeak-ng lists it (`mb/mb-en1`).
    ///   - espeakData: espeak-ng-data's folder (`espeak_Info`), where the voice file names its
    ///     database; nil when unknown (the database is then guessed from the file name).
    /// - Returns: ``SpeechError/mbrolaNotInstalled(voice:database:dataMissing:programMissing:)``, or nil.
    func problem(voice: String, entry: VoiceCatalog.Entry, espeakData: String?) -> SpeechError? {
        let file = espeakData.flatMap { RegularFile.contents($0 + "/voices/" + entry.identifier, limit: 16 * 1024) }
        let database = file.flatMap(Self.database(inVoiceFile:)) ?? Self.database(guessedFrom: entry.fileName)
        let dataMissing = !hasData(database)
        let programMissing = !hasProgram()
        guard dataMissing || programMissing else { return nil }
        return .mbrolaNotInstalled(
            voice: voice, database: database, dataMissing: dataMissing, programMissing: programMissing)
    }

    /// The MBROLA database a voice file names on its `mbrola` line (`mbrola en1 en1_phtrans`: `en1`).
    /// - Parameter contents: The voice file's bytes.
    /// - Returns: The first word after `mbrola`, or nil when no line names one.
    static func database(inVoiceFile contents: [UInt8]) -> String? {
        for line in contents.split(separator: UInt8(ascii: "\n")) {
            let words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
            guard words.count >= 2, words[0].elementsEqual("mbrola".utf8) else { continue }
            return String(decoding: words[1], as: UTF8.self)
        }
        return nil
    }

    /// The database of an MBROLA voice by its file name, as espeak-ng-data names them: `mb-en1` is
    /// `en1`, `mb-de6-grc` is `de6`.
    static func database(guessedFrom fileName: Substring) -> String {
        let rest = fileName.hasPrefix("mb-") ? fileName.dropFirst(3) : fileName
        return String(rest.prefix { $0 != "-" })
    }

    /// Whether `database` is a non-empty regular file where espeak-ng looks for it.
    private func hasData(_ database: String) -> Bool {
        guard !database.isEmpty, !database.contains("/") else { return false }
        let candidates = [database, database + "/" + database, "voices/" + database]
        return candidates.contains { path in
            var status = stat()
            return stat(dataFolder + "/" + path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
                && status.st_size > 0
        }
    }

    /// Whether a folder of ``searchPath`` holds an executable regular file `mbrola`.
    private func hasProgram() -> Bool {
        searchPath.split(separator: ":").contains { folder in
            let path = String(folder) + "/mbrola"
            var status = stat()
            return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
        }
    }
}
