import EventLoop
import Glibc
import TestSupport
import Testing

/// `recover`'s wait sees the started timer's record through a ``FolderWatch`` on the loop: an
/// event, not a polling period.
@Suite struct FolderWatchTests {
    @Test func aFileRenamedIntoTheWatchedFolderEndsTheWaitAtOnce() throws {
        let folder = makePrivateDirectory()
        defer { removeDirectory(folder) }
        let watch = try #require(FolderWatch(folder: folder))
        var loop = testLoop()
        defer { loop.close() }
        loop.add(watch) { .file($0) }
        try writeFile(folder + "/.Soft.record.tmp", "pid 1\n")
        #expect(rename(folder + "/.Soft.record.tmp", folder + "/Soft.record") == 0)
        let start = ContinuousClock.now
        var names: [String?] = []
        // A wake-up far away: the wait ends at the rename's event, or the test fails by time.
        while !names.contains("Soft.record"), ContinuousClock.now < start + .seconds(10) {
            for case .file(let name) in try loop.round(until: start + .seconds(10)) { names.append(name) }
        }
        #expect(names.contains("Soft.record"))
        // The temporary file was written and closed first: it is said too, before the rename.
        #expect(names.first == ".Soft.record.tmp")
        #expect(ContinuousClock.now < start + .seconds(5))
    }

    @Test func nothingWrittenIsNothingSaid() throws {
        let folder = makePrivateDirectory()
        defer { removeDirectory(folder) }
        let watch = try #require(FolderWatch(folder: folder))
        var loop = testLoop()
        defer { loop.close() }
        loop.add(watch) { .file($0) }
        #expect(try loop.round(until: .now) == [.tick])
    }

    @Test func aMissingFolderCannotBeWatched() {
        #expect(FolderWatch(folder: "/nonexistent-eggtimer-folder/x") == nil)
    }

    @Test func theEventRecordsAreParsedByTheirHeader() {
        func record(mask: UInt32, name: String, padded: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            for value in [UInt32(1), mask, 0, UInt32(padded)] { withUnsafeBytes(of: value) { bytes += $0 } }
            let name = Array(name.utf8)
            return bytes + name + [UInt8](repeating: 0, count: padded - name.count)
        }
        let bytes =
            record(mask: UInt32(IN_MOVED_TO), name: "Soft.record", padded: 16)
            + record(mask: UInt32(IN_Q_OVERFLOW), name: "", padded: 0)
            + record(mask: UInt32(IN_CLOSE_WRITE), name: "a", padded: 16)
            + [1, 2, 3]  // a torn header: ignored
        #expect(FolderWatch.names(in: bytes[...]) == ["Soft.record", nil, "a"])
    }
}
