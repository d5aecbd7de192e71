import Glibc
import SystemKit

/// A pipe whose ends are close-on-exec from birth, so a child that another test's thread spawns
/// meanwhile cannot inherit them (and keep a reader or writer alive that the test thinks is gone).
/// - Returns: The read and write ends; the caller closes both.
public func makePipe() -> (read: Int32, write: Int32) {
    do {
        let pipe = try FileDescriptor.pipe()
        return (pipe.read.release(), pipe.write.release())
    } catch {
        preconditionFailure("pipe2 failed: \(error)")
    }
}

/// A new empty folder `/tmp/<prefix>-XXXXXX`, mode 0700; the caller removes it (``removeDirectory(_:)``).
public func makePrivateDirectory(_ prefix: String = "eggtimer-test") -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress, let made = mkdtemp(base) else {
            preconditionFailure("mkdtemp failed: errno \(errno)")
        }
        return String(cString: made)
    }
}

/// The entries of a folder, without `.` and `..`, as `readdir` gives them (unsorted).
/// - Returns: Each entry's name and whether it is a folder (by `lstat`: a link is not one); none
///   when the folder cannot be opened.
public func folderEntries(_ path: String) -> [(name: String, isFolder: Bool)] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var entries: [(name: String, isFolder: Bool)] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard name != "." && name != ".." else { continue }
        var info = stat()
        entries.append((name, lstat(path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR))
    }
    return entries
}

/// Removes a folder and everything in it, folders that a child made inside (a sound server's
/// `pulse/`) too; symbolic links are removed, not followed.
public func removeDirectory(_ path: String) {
    for entry in folderEntries(path) {
        let child = path + "/" + entry.name
        if entry.isFolder { removeDirectory(child) } else { unlink(child) }
    }
    rmdir(path)
}

/// Reads a whole file (EINTR is retried).
/// - Returns: Its bytes, or nil when it cannot be opened.
public func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

/// A whole file as UTF-8 text, or "" when it cannot be read (a log that is not written yet).
public func readText(_ path: String) -> String {
    String(decoding: readFile(path) ?? [], as: UTF8.self)
}

/// Writes a whole file (created with `mode`, or truncated); a failure stops the test process.
/// - Parameters:
///   - path: The file.
///   - bytes: Its new contents.
///   - mode: The permissions of a new file.
public func writeFile(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o644) {
    if let problem = write(bytes, to: path, mode: mode) { preconditionFailure(problem) }
}

/// Writes `text` to a whole file (created 0600, or truncated).
/// - Throws: `TestFailure` when it cannot be created or written.
public func writeFile(_ path: String, _ text: String) throws(TestFailure) {
    if let problem = write(Array(text.utf8), to: path, mode: 0o600) { throw TestFailure(problem) }
}

/// Writes `bytes` to the file `path` (close-on-exec descriptor).
/// - Returns: What went wrong, or nil.
private func write(_ bytes: [UInt8], to path: String, mode: UInt32) -> String? {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
    guard fd >= 0 else { return "cannot create \(path): errno \(errno)" }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    return written == bytes.count ? nil : "short write to \(path)"
}
