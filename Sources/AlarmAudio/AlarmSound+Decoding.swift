import Glibc

extension AlarmSound {
    /// The bytes read from a file per `read(2)` call.
    private static let readChunkBytes = 64 * 1024

    /// Decodes a whole MP3 file with libmpg123.
    ///
    /// Gapless decoding is on, so a LAME-encoded file gives back exactly the frames that were encoded.
    /// The output is signed 16-bit at the file's own sample rate and channel count; if a later part of
    /// the stream has another format, decoding stops there with a warning. A file that ends early or
    /// breaks mid-stream keeps what decoded, with a line in ``warnings``. At most 5 minutes are kept.
    ///
    /// Only regular files (or symbolic links to them) are read. The file is opened non-blocking and
    /// checked before any read, so a named pipe, a terminal or a device such as `/dev/zero` is
    /// refused at once instead of blocking forever or reading without end.
    ///
    /// Blocks while reading the file (a regular file never blocks for long); callable from any thread.
    /// - Parameter path: A file system path, absolute or relative to the working directory.
    /// - Returns: The decoded sound.
    /// - Throws: ``AlarmError/soundNotFound(path:reason:)`` if the file cannot be opened or is not a
    ///   regular file (a directory, named pipe, device or socket; the reason says which);
    ///   ``AlarmError/unreadableSound(path:reason:)`` if it is empty, holds no MPEG audio frames, or
    ///   cannot be read.
    /// - Complexity: O(*n*) in the file's length.
    /// C: `open`, `fstat`, `read`, `mpg123_feed`, `mpg123_read`.
    public static func decode(path: String) throws(AlarmError) -> AlarmSound {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, and a terminal
        // or a modem line for carrier. It changes nothing for the regular files we go on to read.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .soundNotFound(path: path, reason: errnoText(errno)) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .soundNotFound(path: path, reason: errnoText(errno)) }
        if let kind = notRegularFileKind(mode: status.st_mode) {
            throw .soundNotFound(path: path, reason: "not a regular file (\(kind))")
        }

        var reader = try MP3SoundReader(name: path)
        var chunk = [UInt8](repeating: 0, count: readChunkBytes)
        var readError: String?
        while reader.wantsMoreInput {
            let bytesRead = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if bytesRead < 0 {
                if errno == EINTR { continue }
                readError = errnoText(errno)
                break
            }
            if bytesRead == 0 { break }
            chunk.withUnsafeBytes { reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<bytesRead])) }
        }
        return try reader.finish(readError: readError)
    }

    /// What a file that is not a regular file is, in words, for an error message.
    /// - Parameter mode: `st_mode` from `stat`.
    /// - Returns: For example "a named pipe"; `nil` for a regular file.
    private static func notRegularFileKind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "an unknown kind of file"
        }
    }

    /// Decodes MP3 bytes held in memory, exactly as ``decode(path:)`` decodes a file.
    ///
    /// Callable from any thread.
    /// - Parameter bytes: A whole MP3 stream.
    /// - Returns: The decoded sound.
    /// - Throws: ``AlarmError/unreadableSound(path:reason:)`` with path `"<memory>"` if the bytes are
    ///   empty or hold no MPEG audio frames.
    /// - Complexity: O(*n*) in `bytes.count`.
    /// C: `mpg123_feed`, `mpg123_read`.
    public static func decode(bytes: [UInt8]) throws(AlarmError) -> AlarmSound {
        var reader = try MP3SoundReader(name: "<memory>")
        var offset = 0
        bytes.withUnsafeBytes { all in
            while reader.wantsMoreInput, offset < all.count {
                let end = min(offset + readChunkBytes, all.count)
                reader.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        return try reader.finish(readError: nil)
    }
}

/// The C library's text for an `errno` value, for example "No such file or directory".
///
/// - Parameter code: A positive `errno` value.
/// - Returns: The message, without a trailing newline. C: `strerror`.
func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
