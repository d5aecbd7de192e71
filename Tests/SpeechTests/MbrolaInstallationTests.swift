import Glibc
import TestSupport
import Testing

@testable import Speech

/// An MBROLA voice is taken only with its data where libespeak-ng looks for it and the `mbrola`
/// program on `PATH` (issue 40), in a private folder standing for /usr/share/mbrola and `/usr/bin`.
@Suite struct MbrolaInstallationTests {
    /// The stand-in `mbrola` program, in the private folder's `bin` (not a system file).
    private static let fakeProgram = "bin/mbrola"
    private let entry = VoiceCatalog.Entry(identifier: "mb/mb-en1", name: "english-mb-en1", languages: ["en"])

    /// A folder with `data` (paths under the MBROLA folder) and, with `program`, an executable
    /// `mbrola` in its `bin`; the installation that looks there.
    private func installation(data: [String], program: Bool, in directory: String) -> MbrolaInstallation {
        mkdir(directory + "/mbrola", 0o700)
        mkdir(directory + "/mbrola/voices", 0o700)
        mkdir(directory + "/bin", 0o700)
        for path in data {
            if let folder = path.split(separator: "/").dropLast().first {
                mkdir(directory + "/mbrola/\(folder)", 0o700)
            }
            writeFile(directory + "/mbrola/" + path, Array("MBROLA data".utf8))
        }
        if program { writeFile(directory + "/" + Self.fakeProgram, Array("#!/bin/sh\n".utf8), mode: 0o755) }
        return MbrolaInstallation(dataFolder: directory + "/mbrola", searchPath: "/nonexistent:" + directory + "/bin")
    }

    @Test(arguments: [["en1"], ["en1/en1"], ["voices/en1"]])
    func dataWhereEspeakNgLooksAndTheProgramAreInstalled(data: [String]) {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let installed = installation(data: data, program: true, in: directory)
        #expect(installed.problem(voice: "mb-en1", entry: entry, espeakData: nil) == nil)
    }

    @Test(arguments: [
        ([], true, true, false), (["en1"], false, false, true), ([], false, true, true),
        (["en2"], true, true, false), (["other/en1"], true, true, false),
    ])
    func whatIsMissingIsNamed(data: [String], program: Bool, dataMissing: Bool, programMissing: Bool) {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let installed = installation(data: data, program: program, in: directory)
        #expect(
            installed.problem(voice: "mb-en1", entry: entry, espeakData: nil)
                == .mbrolaNotInstalled(
                    voice: "mb-en1", database: "en1", dataMissing: dataMissing, programMissing: programMissing))
    }

    /// A program that cannot be run, and an empty data file, are not installed.
    @Test func anEmptyDataFileOrAProgramThatCannotRunIsNotInstalled() {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let installed = installation(data: [], program: false, in: directory)
        writeFile(directory + "/mbrola/en1", [])
        writeFile(directory + "/" + Self.fakeProgram, Array("#!/bin/sh\n".utf8), mode: 0o644)
        #expect(
            installed.problem(voice: "mb-en1", entry: entry, espeakData: nil)
                == .mbrolaNotInstalled(voice: "mb-en1", database: "en1", dataMissing: true, programMissing: true))
    }

    /// The database is the one the voice file names, found under espeak-ng-data's `voices`;
    /// without the file, guessed from the file's name.
    @Test func theDatabaseIsTheOneTheVoiceFileNames() {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let installed = installation(data: ["us3"], program: true, in: directory)
        mkdir(directory + "/voices", 0o700)
        mkdir(directory + "/voices/mb", 0o700)
        writeFile(
            directory + "/voices/mb/mb-en1", Array("name english-mb-en1\nlanguage en 2\nmbrola us3 us3_phtrans\n".utf8))
        #expect(installed.problem(voice: "mb-en1", entry: entry, espeakData: directory) == nil)
        #expect(
            installed.problem(voice: "mb-en1", entry: entry, espeakData: directory + "/elsewhere")
                == .mbrolaNotInstalled(voice: "mb-en1", database: "en1", dataMissing: true, programMissing: false))
        #expect(
            MbrolaInstallation.database(inVoiceFile: Array("language de\nmbrola\tde6 de6_phtrans 16000\n".utf8))
                == "de6")
        #expect(MbrolaInstallation.database(inVoiceFile: Array("language de\nmbrolax de6\n".utf8)) == nil)
        #expect(MbrolaInstallation.database(guessedFrom: "mb-de6-grc") == "de6")
    }
}
