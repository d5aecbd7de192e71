import Glibc
import SystemKit

/// Opening a file named on the command line or in the config file that must be a regular file
/// (the broker's CA certificates, its password file) without ever waiting in `open(2)`.
///
/// A FIFO opened for reading waits for a writer, a terminal or modem line for carrier; before the
/// countdown, with SIGTERM blocked, that would hang the timer for ever. So the file is opened with
/// O_NONBLOCK (which changes nothing for a regular file's reads) and refused unless `fstat` says
/// it is a regular file, as `--sound` is. Callable from any thread.
enum RegularFile {
    /// Why a file was refused: the reason in words.
    struct Refusal: Error, Equatable {
        /// The `strerror` text, or "not a regular file (a named pipe)" and the like.
        let reason: String
    }

    /// Opens `path` for reading, non-blocking and close-on-exec, if it is a regular file.
    /// - Parameter path: The file's path as given.
    /// - Returns: The open descriptor; the caller closes it.
    /// - Throws: ``Refusal`` with the `strerror` text, or "not a regular file (…)" naming its kind.
    /// Never blocks. C: `open`, `fstat`.
    static func open(_ path: String) throws(Refusal) -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Refusal(reason: errorText(errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw Refusal(reason: errorText(code))
        }
        let kind: String? =
            switch status.st_mode & S_IFMT {
            case S_IFREG: nil
            case S_IFDIR: "a directory"
            case S_IFIFO: "a named pipe"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFSOCK: "a socket"
            default: "an unknown kind of file"
            }
        if let kind {
            close(descriptor)
            throw Refusal(reason: "not a regular file (\(kind))")
        }
        return descriptor
    }
}
