import Glibc

/// Close-on-exec for descriptors libmosquitto makes without it.
///
/// libmosquitto 2.0.11 makes a socketpair in `mosquitto_new` (its wake-up pair for
/// `mosquitto_loop`, unused here) and its broker socket in `mosquitto_connect`, all without
/// `SOCK_CLOEXEC` (checked with `fcntl(F_GETFD)`), and exposes only the broker socket. A child
/// spawned meanwhile by another thread without closing descriptors would inherit them.
enum CloseOnExec {
    /// Runs `body`, then sets `FD_CLOEXEC` on every descriptor that appeared meanwhile without it.
    ///
    /// The window is the time between libmosquitto's `socketpair` and the `fcntl` here
    /// (microseconds, on the calling thread). A descriptor another thread opened meanwhile is
    /// close-on-exec already by the project's rule, so marking it changes nothing. Without
    /// /proc mounted this only runs `body`.
    /// - Complexity: O(n) in the number of open descriptors (two reads of /proc/self/fd).
    /// C: `opendir`, `readdir`, `fcntl`.
    static func markingNewDescriptors<Result>(_ body: () -> Result) -> Result {
        let before = openDescriptors()
        let result = body()
        for descriptor in openDescriptors().subtracting(before) {
            mark(descriptor)
        }
        return result
    }

    /// Sets `FD_CLOEXEC` on `descriptor` unless it is set already.
    static func mark(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFD)
        if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// The process's open descriptors (the directory's own excepted), from /proc/self/fd.
    static func openDescriptors() -> Set<Int32> {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var descriptors = Set<Int32>()
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let descriptor = Int32(name) { descriptors.insert(descriptor) }
        }
        descriptors.remove(dirfd(directory))
        return descriptors
    }
}
