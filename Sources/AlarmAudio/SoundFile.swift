import Glibc
import SystemKit

/// A regular file opened for reading; sole owner of its descriptor.
///
/// Not thread-safe: create, use and drop it on one thread.
struct SoundFile: ~Copyable {
    /// A failed `read(2)`: the `strerror` text.
    struct ReadError: Error {
        let reason: String
    }

    private let file: FileDescriptor
    /// Whether a read has returned end-of-file.
    private(set) var isAtEnd = false

    /// Opens `path` non-blocking and close-on-exec (``FileDescriptor/open(_:_:permissions:)``), and checks that it is a regular file.
    ///
    /// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, and a terminal
    /// or a modem line for carrier. It changes nothing for the regular files read afterwards.
    /// - Parameter path: The path's exact bytes.
    /// - Throws: ``AlarmError/soundNotFound(path:reason:)`` with the `strerror` text, or "not a
    ///   regular file (…)", naming the path in its display form. C: `open`, `fstat`.
    init(opening path: SoundFilePath) throws(AlarmError) {
        guard !path.bytes.contains(0) else {
            throw .soundNotFound(path: path.description, reason: "the path contains a NUL byte")
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path.bytes, O_RDONLY | O_NONBLOCK)
        } catch {
            throw .soundNotFound(path: path.description, reason: error.text)
        }
        var status = stat()
        let failure =
            fstat(file.rawValue, &status) != 0
            ? errorText(errno) : RegularFile.kind(mode: status.st_mode).map { "not a regular file (\($0))" }
        if let failure { throw .soundNotFound(path: path.description, reason: failure) }  // `file` closes itself
        self.file = file
    }

    /// Reads the next bytes, retrying when a signal interrupts.
    /// - Parameter limit: The most bytes to read, greater than 0.
    /// - Returns: 1 to `limit` bytes; empty at end-of-file, which also sets ``isAtEnd``.
    /// - Throws: `ReadError` if `read(2)` fails. C: `read`.
    mutating func read(upTo limit: Int) throws(ReadError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: limit)
        while true {
            let bytesRead = chunk.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) }
            if bytesRead < 0, errno == EINTR { continue }
            guard bytesRead >= 0 else { throw ReadError(reason: errorText(errno)) }
            if bytesRead == 0 { isAtEnd = true }
            chunk.removeLast(limit - bytesRead)
            return chunk
        }
    }
}
