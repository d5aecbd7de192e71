import Glibc
import SystemKit
import TimerEngine

/// The kitchen's paired devices on disk: `STATE/kitchen/paired-devices` (`STATE` being the records'
/// folder, ``RecordStore/current()``), one token hash a line (64 lower-case hex digits, the oldest
/// first), mode 0600 in a 0700 folder.
///
/// Written atomically and durably through ``RecordStore/write(text:name:)`` (a temporary file,
/// `fsync`, `rename`, the folder `fsync`ed); read when the kitchen starts, a bad line skipped with
/// one log line. It never holds a token in clear. Blocking file I/O (an `fsync`); any thread.
package struct PairingStore {
    /// The file's name in the kitchen's state folder.
    static let fileName = "paired-devices"
    /// The longest file read, in bytes (64 lines of 65 bytes is 4 160).
    static let byteLimit = 64 * 1024

    /// The kitchen's state folder, `STATE/kitchen`.
    let folder: String

    /// A store in the kitchen's state folder `folder` (absolute); nothing is touched until used.
    init(folder: String) { self.folder = folder }

    /// The store for this process's environment and user (`$XDG_STATE_HOME/eggtimer/kitchen` or
    /// `~/.local/state/eggtimer/kitchen`), or nil when no home folder is known.
    static func current() -> PairingStore? {
        RecordStore.current().map { PairingStore(folder: $0.folder + "/kitchen") }
    }

    /// The file's path.
    var path: String { folder + "/" + Self.fileName }

    /// What ``read()`` found: the hashes, and a line for each line it skipped.
    struct Contents: Equatable {
        /// The valid hashes, in the file's order.
        var hashes: [String]
        /// One log line per skipped line.
        var lines: [String]
    }

    /// Reads the paired devices; a missing file is none.
    /// - Returns: The hashes (each 64 lower-case hex digits) and a log line per bad line skipped.
    /// - Throws: ``RecordError``: `.system` (unreadable), `.foreign` (another user's file), `.corrupt`
    ///   (not a regular file). C: `open`, `fstat`, `read`.
    func read() throws(RecordError) -> Contents {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return Contents(hashes: [], lines: []) }
            throw .system(call: "open", path: path, code: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(call: "fstat", path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .corrupt(line: 0, reason: "\(path) is not a regular file") }
        guard info.st_uid == getuid() else { throw .foreign(uid: info.st_uid) }
        let content: [UInt8]
        do { content = try RegularFile.read(fd, limit: Self.byteLimit) } catch {
            throw .system(call: "read", path: path, code: error.code)
        }
        return Self.parse(content.prefix(Self.byteLimit), path: path)
    }

    /// The hashes in `bytes` (the file's text), each bad line skipped with a log line.
    ///
    /// Pure.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - path: The file's path, for the lines.
    /// - Returns: The hashes and the lines.
    static func parse(_ bytes: some Collection<UInt8>, path: String) -> Contents {
        var contents = Contents(hashes: [], lines: [])
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty { continue }
            if isHash(line) {
                contents.hashes.append(String(decoding: line, as: UTF8.self))
            } else {
                contents.lines.append("pairing: \(path) line \(index + 1) is not a token hash: skipped")
            }
        }
        return contents
    }

    /// Whether `line` is 64 lower-case hex digits.
    static func isHash(_ line: some Collection<UInt8>) -> Bool {
        line.count == 64 && line.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Replaces the file with `hashes`, one a line (the folder is made first, 0700).
    /// - Throws: ``RecordError``: the folder is unsafe or cannot be made, or the write failed (the
    ///   old file is then left as it was).
    func write(_ hashes: [String]) throws(RecordError) {
        let store = RecordStore(folder: folder)
        try store.prepare()
        try store.write(text: hashes.map { $0 + "\n" }.joined(), name: Self.fileName)
    }

    /// Removes the file (durably).
    /// - Returns: The errno when it could not be removed; nil when it was, or was not there.
    @discardableResult
    func remove() -> Int32? { RecordStore(folder: folder).remove(name: Self.fileName) }
}
