import Glibc
import TestSupport
import Testing
import TimerEngine

@testable import Kitchen

@Suite struct PairingStoreTests {
    let hashA = String(repeating: "a", count: 64)
    let hashB = String(repeating: "0123456789abcdef", count: 4)

    /// The mode bits (permissions) of `path`.
    func mode(_ path: String) -> UInt32? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : nil
    }

    @Test func theFileIsWrittenMode0600InAFolderMode0700AndReadBack() throws {
        let scratch = makePrivateDirectory()
        defer { removeDirectory(scratch) }
        let store = PairingStore(folder: scratch + "/state/eggtimer/kitchen")
        #expect(try store.read() == PairingStore.Contents(hashes: [], lines: []), "no file: no devices")
        try store.write([hashA, hashB])
        #expect(mode(store.path) == 0o600)
        #expect(mode(store.folder) == 0o700)
        #expect(readText(store.path) == hashA + "\n" + hashB + "\n")
        #expect(try store.read().hashes == [hashA, hashB])
        #expect(folderEntries(store.folder).map(\.name) == ["paired-devices"], "no temporary file is left")
    }

    @Test func aWriteReplacesTheFileByRenameNeverInPlace() throws {
        let scratch = makePrivateDirectory()
        defer { removeDirectory(scratch) }
        let store = PairingStore(folder: scratch + "/kitchen")
        try store.write([hashA])
        // A second name for the old file: written in place, it would change too; renamed over,
        // it keeps the old text (what a reader that had it open, or a power cut, sees).
        #expect(link(store.path, scratch + "/old") == 0)
        try store.write([hashA, hashB])
        #expect(readText(scratch + "/old") == hashA + "\n")
        #expect(readText(store.path) == hashA + "\n" + hashB + "\n")
    }

    @Test func badLinesAreSkippedWithOneLineEach() {
        let text = hashA + "\n" + "not a hash\n" + hashA.uppercased() + "\n\n" + hashB + "\n" + hashB + "x"
        let contents = PairingStore.parse(Array(text.utf8), path: "/s/paired-devices")
        #expect(contents.hashes == [hashA, hashB])
        #expect(
            contents.lines == [
                "pairing: /s/paired-devices line 2 is not a token hash: skipped",
                "pairing: /s/paired-devices line 3 is not a token hash: skipped",
                "pairing: /s/paired-devices line 6 is not a token hash: skipped",
            ])
    }

    @Test func removeDeletesTheFileAndAMissingOneIsNoError() throws {
        let scratch = makePrivateDirectory()
        defer { removeDirectory(scratch) }
        let store = PairingStore(folder: scratch + "/kitchen")
        #expect(store.remove() == nil)
        try store.write([hashA])
        #expect(store.remove() == nil)
        #expect(mode(store.path) == nil)
    }

    @Test func aFolderOthersMayUseIsRefused() throws {
        let scratch = makePrivateDirectory()
        defer { removeDirectory(scratch) }
        #expect(mkdir(scratch + "/kitchen", 0o755) == 0)
        #expect(chmod(scratch + "/kitchen", 0o755) == 0)
        #expect(throws: RecordError.self) { try PairingStore(folder: scratch + "/kitchen").write([hashA]) }
    }
}
