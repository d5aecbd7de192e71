import ControlChannel
import Glibc
import SystemKit

/// The folder of timer records: `$XDG_STATE_HOME/eggtimer` (default `~/.local/state/eggtimer`),
/// one file `<name>.timer` per running timer, `<name>` being its control socket's name
/// (``ControlServer/socketName(for:)``).
///
/// Records are replaced atomically: a temporary file `.<name>.timer.<pid>.tmp` in the same
/// folder (mode 0600, close-on-exec), written, `fsync`ed, renamed over the record, and the folder
/// `fsync`ed, so a power cut leaves the old record or the new one, never a mix. The folder is
/// made with mode 0700 and refused unless it is this user's and closed to others.
///
/// Blocking file I/O (an `fsync` takes a few milliseconds on a disk, more on an SD card); call it
/// where that is acceptable. Any thread; one store per caller.
package struct RecordStore {
    /// The folder's path (absolute).
    package let folder: String
    /// A seam for tests: asked before each write's bytes go out, an errno it returns fails the
    /// write there (ENOSPC for a full disk), after the temporary file was made; nil: none.
    package var injectedWriteError: (() -> Int32?)?

    /// A store over `folder` (absolute); nothing is touched until used.
    package init(folder: String, injectedWriteError: (() -> Int32?)? = nil) {
        (self.folder, self.injectedWriteError) = (folder, injectedWriteError)
    }

    /// The file name suffix of records.
    package static let suffix = ".timer"

    /// The folder for this environment (pure).
    /// - Parameters:
    ///   - stateHome: `$XDG_STATE_HOME`, used when absolute.
    ///   - home: `$HOME`, or the password database's home folder.
    /// - Returns: The path, or nil when neither is known.
    package static func path(stateHome: String?, home: String?) -> String? {
        if let stateHome, stateHome.hasPrefix("/") { return stateHome + "/eggtimer" }
        if let home, home.hasPrefix("/") { return (home == "/" ? "" : home) + "/.local/state/eggtimer" }
        return nil
    }

    /// The store for this process's environment and user, or nil when no home folder is known.
    package static func current() -> RecordStore? {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        var home = variable("HOME")
        if home?.hasPrefix("/") != true, let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            home = String(cString: directory)
        }
        return path(stateHome: variable("XDG_STATE_HOME"), home: home).map { RecordStore(folder: $0) }
    }

    /// The record file's name for a timer whose control socket is labelled `label`.
    package static func fileName(label: String) -> String { ControlServer.socketName(for: label) + suffix }

    /// Creates the folder (and missing parents, mode 0700) and checks that it is safe.
    /// - Throws: ``RecordError/system(call:path:code:)`` when it cannot be made,
    ///   ``RecordError/unsafeFolder(path:reason:)`` when it is not a private folder of this user's.
    /// C: `mkdir`, `lstat`.
    package func prepare() throws(RecordError) {
        var partial = ""
        for component in folder.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0, errno != EEXIST { throw .system(call: "mkdir", path: partial, code: errno) }
        }
        try check()
    }

    /// Checks that the folder exists and is safe.
    /// - Throws: As ``prepare()``; `.system` with ENOENT when it does not exist.
    package func check() throws(RecordError) {
        do {
            try RuntimeFolder.check(folder)
        } catch .unsafeFolder(let path, let reason) {
            throw .unsafeFolder(path: path, reason: reason)
        } catch .system(_, let code) {
            throw .system(call: "lstat", path: folder, code: code)
        } catch {
            throw .unsafeFolder(path: folder, reason: "\(error)")
        }
    }

    /// Replaces (or creates) the record `name` with `record`, atomically and durably.
    /// - Throws: ``RecordError/system(call:path:code:)``; the temporary file is removed.
    /// C: `open`, `write`, `fsync`, `rename`.
    package func write(_ record: TimerRecord, name: String) throws(RecordError) {
        try write(text: record.text, name: name)
    }

    /// Replaces (or creates) the file `name` with `text`, atomically and durably, mode 0600 (as
    /// records are; the kitchen's paired devices too).
    /// - Throws: ``RecordError/system(call:path:code:)``; the temporary file is removed.
    /// C: `open`, `write`, `fsync`, `rename`.
    package func write(text: String, name: String) throws(RecordError) {
        let path = folder + "/" + name
        let temporary = folder + "/." + name + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system(call: "open", path: temporary, code: errno) }
        var failure = injectedWriteError?().map { RecordError.system(call: "write", path: temporary, code: $0) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count, failure == nil {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0, errno != EINTR {
                failure = .system(call: "write", path: temporary, code: errno)
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = .system(call: "fsync", path: temporary, code: errno) }
        if close(fd) != 0, failure == nil { failure = .system(call: "close", path: temporary, code: errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = .system(call: "rename", path: path, code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        syncFolder()
    }

    /// Removes the record `name` (durably); a missing one is no error.
    /// - Returns: The errno when the file could not be removed (a read-only folder: EROFS, EACCES);
    ///   nil when it was, or was not there.
    @discardableResult
    package func remove(name: String) -> Int32? {
        if unlink(folder + "/" + name) == 0 {
            syncFolder()
            return nil
        }
        return errno == ENOENT ? nil : errno
    }

    /// Flushes the folder's entries (a rename or unlink) to disk.
    ///
    /// C: `open`, `fsync`.
    private func syncFolder() {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Reads and parses the record file `path`, which must be a regular file of this user's.
    /// - Throws: ``RecordError``: `.system` (missing, unreadable), `.foreign`, `.corrupt`,
    ///   `.unknownVersion`. C: `open`, `fstat`, `read` (``RegularFile/read(_:limit:)``).
    package static func read(path: String) throws(RecordError) -> TimerRecord {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .system(call: "open", path: path, code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(call: "fstat", path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .corrupt(line: 0, reason: "not a regular file") }
        guard info.st_uid == getuid() else { throw .foreign(uid: info.st_uid) }
        let content: [UInt8]
        do throws(Errno) {
            content = try RegularFile.read(fd, limit: TimerRecord.maximumBytes)
        } catch {
            throw .system(call: "read", path: path, code: error.code)
        }
        return try TimerRecord(parsing: content)
    }

    /// The record files' names (`*.timer`, not hidden), sorted.
    ///
    /// C: `opendir`, `readdir`.
    package func names() -> [String] {
        entries().filter { $0.hasSuffix(Self.suffix) && !$0.hasPrefix(".") && $0.count > Self.suffix.count }.sorted()
    }

    /// Removes temporary files left by a process that died while writing (its pid is gone).
    package func removeAbandonedTemporaries() {
        for name in entries() where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.dropLast(4).split(separator: ".")
            if let pid = parts.last.flatMap({ Int32($0) }), kill(pid, 0) != 0, errno == ESRCH {
                unlink(folder + "/" + name)
            }
        }
    }

    private func entries() -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }
}
