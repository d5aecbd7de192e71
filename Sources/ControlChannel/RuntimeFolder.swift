import Glibc

/// Where running timers keep their control sockets: one private folder per user.
///
/// `$XDG_RUNTIME_DIR/eggtimer` (the XDG Base Directory specification's place for sockets), else
/// `/run/user/UID/eggtimer` when systemd-logind made that folder, else `/tmp/eggtimer-UID`.
/// Whichever it is, eggtimer creates it with mode 0700 and refuses it unless it is a real
/// directory (not a symlink) owned by this user and closed to others, so no other user can plant
/// or read a socket there; a `$XDG_RUNTIME_DIR` must itself be this user's with mode 0700, as the
/// specification requires. The timer and its clients apply the same rules
/// (``checkForUse(_:)``): a client never believes a socket in a folder the timer would refuse.
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
        var info = stat()
        return path(runtimeDirectory: runtimeDirectory(), uid: uid, runUserExists: stat("/run/user/\(uid)", &info) == 0)
    }

    /// `$XDG_RUNTIME_DIR`, or nil when it is unset, empty or not absolute (then it is not used).
    static func runtimeDirectory() -> String? {
        getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// Creates the folder if it is missing (mode 0700) and checks that it is safe, as
    /// ``checkForUse(_:)`` does.
    /// - Parameter path: The folder, from ``current()``.
    /// - Throws: ``ControlError/unsafeFolder(path:reason:)`` when it (or the `$XDG_RUNTIME_DIR` it
    ///   lies in) is unsafe; `.system` when it cannot be made.
    /// C: `mkdir`, `stat`, `lstat`.
    public static func prepare(_ path: String) throws(ControlError) {
        try checkRuntimeDirectory(containing: path)
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system(call: "mkdir \(path)", code: errno) }
        try check(path)
    }

    /// The rules both ends apply before they use the control folder `path`: the timer before it
    /// listens there, a client before it connects to a socket there.
    ///
    /// When `path` is `$XDG_RUNTIME_DIR/eggtimer`, that directory must be this user's with mode
    /// 0700; `path` itself must pass ``check(_:)``.
    /// - Parameter path: The folder, from ``current()``.
    /// - Throws: ``ControlError/unsafeFolder(path:reason:)`` naming what is wrong; `.system` with
    ///   `ENOENT` when a folder does not exist (then no timer runs there).
    /// C: `stat`, `lstat`.
    public static func checkForUse(_ path: String) throws(ControlError) {
        try checkRuntimeDirectory(containing: path)
        try check(path)
    }

    /// Checks `$XDG_RUNTIME_DIR` when `path` lies in it: a directory (a symlink to one is followed)
    /// owned by this user, mode 0700.
    /// - Throws: ``ControlError/unsafeFolder(path:reason:)`` naming the variable's folder.
    /// C: `stat`.
    private static func checkRuntimeDirectory(containing path: String) throws(ControlError) {
        guard let base = runtimeDirectory(), path == base + "/eggtimer" else { return }
        var info = stat()
        guard stat(base, &info) == 0 else { throw .system(call: "stat \(base)", code: errno) }
        let type = info.st_mode & S_IFMT
        if type != S_IFDIR { throw .unsafeFolder(path: base, reason: "it is $XDG_RUNTIME_DIR but not a directory") }
        if info.st_uid != getuid() {
            throw .unsafeFolder(path: base, reason: "it is $XDG_RUNTIME_DIR but belongs to user \(info.st_uid)")
        }
        if info.st_mode & 0o777 != 0o700 {
            throw .unsafeFolder(
                path: base,
                reason: "it is $XDG_RUNTIME_DIR but has mode \(String(info.st_mode & 0o777, radix: 8)), not 700")
        }
    }

    /// The one line for a runtime folder that cannot be used (issue 40): what is wrong, then
    /// which folder would work.
    ///
    /// `/run/user/UID` when it is this user's with mode 0700 and not the one that failed (an
    /// `XDG_RUNTIME_DIR` left over from `su`, a `/tmp/eggtimer-UID` another user made first);
    /// else a private folder of the user's own, named by `XDG_RUNTIME_DIR`.
    /// - Parameter error: Why ``prepare(_:)`` or ``checkForUse(_:)`` refused the folder.
    /// - Returns: The line, without a program prefix.
    /// C: `stat`.
    public static func advice(_ error: ControlError) -> String {
        let uid = getuid()
        let runUser = "/run/user/\(uid)"
        var info = stat()
        let usable = stat(runUser, &info) == 0 && info.st_uid == uid && info.st_mode & 0o777 == 0o700
        let fix =
            usable && path(runtimeDirectory: runtimeDirectory(), uid: uid, runUserExists: true) != runUser + "/eggtimer"
            ? "XDG_RUNTIME_DIR=\(runUser) would work"
            : "set XDG_RUNTIME_DIR to a folder of yours with mode 700 (mkdir -m 700 ~/.run; XDG_RUNTIME_DIR=~/.run)"
        return "\(error.description); \(fix)"
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
