import Glibc

/// Where running timers keep their control sockets: one private folder per user.
///
/// `$XDG_RUNTIME_DIR/eggtimer` (the XDG Base Directory specification's place for sockets), else
/// `/run/user/UID/eggtimer` when systemd-logind made that folder, else `/tmp/eggtimer-UID`.
/// Whichever it is, eggtimer creates it with mode 0700 and refuses it unless it is a real
/// directory (not a symlink) owned by this user and closed to others, so no other user can plant
/// or read a socket there.
public enum RuntimeFolder {
    /// The folder's path for this process (pure: every input is passed in).
    /// - Parameters:
    ///   - runtimeDirectory: `$XDG_RUNTIME_DIR`, or nil when unset or empty.
    ///   - uid: The real user id.
    ///   - runUserExists: Whether `/run/user/UID` exists.
    /// - Returns: An absolute path.
    public static func path(runtimeDirectory: String?, uid: UInt32, runUserExists: Bool) -> String {
        if let runtimeDirectory, runtimeDirectory.hasPrefix("/") { return runtimeDirectory + "/eggtimer" }
        if runUserExists { return "/run/user/\(uid)/eggtimer" }
        return "/tmp/eggtimer-\(uid)"
    }

    /// The folder for this process, from its environment and real user id.
    public static func current() -> String {
        let uid = getuid()
        let variable = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        var info = stat()
        return path(runtimeDirectory: variable, uid: uid, runUserExists: stat("/run/user/\(uid)", &info) == 0)
    }

    /// Creates the folder if it is missing (mode 0700) and checks that it is safe.
    /// - Parameter path: The folder, from ``path(runtimeDirectory:uid:runUserExists:)``.
    /// - Throws: ``ControlError/unsafeFolder(path:reason:)`` when it is a symlink, not a directory,
    ///   owned by another user, or open to group or others; `.system` when it cannot be made.
    /// C: `mkdir`, `lstat`.
    public static func prepare(_ path: String) throws(ControlError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system(call: "mkdir \(path)", code: errno) }
        try check(path)
    }

    /// Checks that `path` is a real directory of this user's, closed to others.
    /// - Throws: ``ControlError/unsafeFolder(path:reason:)`` naming what is wrong.
    /// C: `lstat`.
    public static func check(_ path: String) throws(ControlError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .system(call: "lstat \(path)", code: errno) }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { throw .unsafeFolder(path: path, reason: "it is a symbolic link") }
        if type != S_IFDIR { throw .unsafeFolder(path: path, reason: "it is not a directory") }
        if info.st_uid != getuid() { throw .unsafeFolder(path: path, reason: "it belongs to user \(info.st_uid)") }
        if info.st_mode & 0o077 != 0 {
            throw .unsafeFolder(
                path: path, reason: "others may use it (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
    }
}
