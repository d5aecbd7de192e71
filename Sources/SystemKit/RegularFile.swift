public import Glibc

/// The one home of small-file reads: opening a file that must be a regular file without ever
/// waiting in `open(2)`, naming what it is instead, and reading a small file into bytes with a
/// bound (a config file, a password or certificate file, a record, a `/proc` or sysfs file).
///
/// A FIFO opened for reading waits for a writer, a terminal or modem line for carrier; before the
/// countdown, with SIGTERM blocked, that would hang the timer for ever. So a file named on the
/// command line or in the config file (the broker's CA certificates, its password file) is opened
/// with O_NONBLOCK (which changes nothing for a regular file's reads) and refused unless `fstat`
/// says it is a regular file, as `--sound` is. Callable from any thread.
public enum RegularFile {
    /// Why a file was refused: the reason in words.
    public struct Refusal: Error, Equatable {
        /// The `strerror` text, or "not a regular file (a named pipe)" and the like.
        public let reason: String

        /// A refusal for `reason`.
        public init(reason: String) { self.reason = reason }
    }

    /// Opens `path` for reading, non-blocking and close-on-exec, if it is a regular file.
    /// - Parameter path: The file's path as given.
    /// - Returns: The open descriptor; the caller closes it.
    /// - Throws: ``Refusal`` with the `strerror` text, or "not a regular file (…)" naming its kind.
    /// Never blocks. C: `open`, `fstat`.
    public static func open(_ path: String) throws(Refusal) -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Refusal(reason: errorText(errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw Refusal(reason: errorText(code))
        }
        if let kind = kind(mode: status.st_mode) {
            close(descriptor)
            throw Refusal(reason: "not a regular file (\(kind))")
        }
        return descriptor
    }

    /// What a file that is not a regular file is, in words, for an error message.
    /// - Parameter mode: `st_mode` from `stat`.
    /// - Returns: For example "a named pipe"; nil for a regular file.
    public static func kind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "an unknown kind of file"
        }
    }

    /// Reads `descriptor` to its end, or until more than `limit` bytes came, retrying when a
    /// signal interrupts.
    ///
    /// Blocks only as a read of the descriptor does (a regular file's: never for long).
    /// - Parameters:
    ///   - descriptor: An open, readable descriptor; the caller keeps and closes it.
    ///   - limit: The most bytes the caller takes, 0 or more.
    /// - Returns: The bytes: at most `limit` when the file ended within it, else `limit + 1` or a
    ///   few more (the file is longer than the caller takes: check `count > limit`).
    /// - Throws: ``Errno`` as `read` left it (`EIO`, `EISDIR`, `EAGAIN` for a descriptor that would wait).
    /// C: `read`.
    public static func read(_ descriptor: Int32, limit: Int) throws(Errno) -> [UInt8] {
        precondition(limit >= 0)
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit + 1, 64 * 1024))
        while contents.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .current }
            if count == 0 { break }
            contents += chunk[..<count]
        }
        return contents
    }

    /// A small file's bytes, up to `limit` (a `/proc` or sysfs file, a boot id): nil when it
    /// cannot be opened or read.
    ///
    /// Opened non-blocking and without becoming a controlling terminal, so a path that names a
    /// FIFO or a terminal cannot hang the caller.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limit: The most bytes taken; the rest of a longer file is left unread.
    /// - Returns: The first `limit` bytes at most (empty for an empty file), or nil.
    /// C: `open`, `read`.
    public static func contents(_ path: String, limit: Int) -> [UInt8]? {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(Array(path.utf8), O_RDONLY | O_NONBLOCK | O_NOCTTY) } catch { return nil }
        return (try? read(file.rawValue, limit: limit)).map { Array($0.prefix(limit)) }
    }
}
