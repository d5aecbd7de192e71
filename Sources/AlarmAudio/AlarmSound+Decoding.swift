import Glibc

extension AlarmSound {
    /// The bytes read from a file per `read(2)` call.
    private static let readChunkBytes = 64 * 1024

    /// Decodes a whole MP3 file with libmpg123; the path given as text.
    ///
    /// The same as ``decode(path:)-(SoundFilePath)`` with the path's UTF-8 bytes; use that one
    /// for a path that came from outside (`argv`), which need not be valid UTF-8.
    /// - Parameter path: A file system path, absolute or relative to the working directory.
    /// - Returns: The decoded sound.
    /// - Throws: ``AlarmError``, as ``decode(path:)-(SoundFilePath)`` does.
    /// - Complexity: O(*n*) in the file's length.
    public static func decode(path: String) throws(AlarmError) -> AlarmSound {
        try decode(path: SoundFilePath(path))
    }

    /// Decodes a whole MP3 file with libmpg123.
    ///
    /// Only an MPEG audio stream is decoded: the file's first bytes go to ``MPEGStreamSniffer``,
    /// which skips ID3v2/APE tags and up to 1 MiB of junk and requires a run of consistent frame
    /// headers; anything else (WAV, AAC, Ogg, FLAC, a program, text, …) is refused with a reason
    /// that says what it looks like and how to convert it. Decoding starts at the first frame the
    /// sniffer found, so junk before it never reaches the decoder.
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
    /// - Parameter path: A file system path as bytes (opened exactly as given), absolute or relative
    ///   to the working directory. Errors name it in its display form, ``SoundFilePath/description``.
    /// - Returns: The decoded sound.
    /// - Throws: ``AlarmError/soundNotFound(path:reason:)`` if the file cannot be opened or is not a
    ///   regular file (a directory, named pipe, device or socket; the reason says which);
    ///   ``AlarmError/unreadableSound(path:reason:)`` if it is empty, is not an MPEG audio stream (the
    ///   reason names what it looks like, see ``FileKind``), holds no decodable frame, or cannot be read.
    /// - Complexity: O(*n*) in the file's length.
    /// C: `open`, `fstat`, `read`, `mpg123_feed`, `mpg123_read`.
    public static func decode(path: SoundFilePath) throws(AlarmError) -> AlarmSound {
        let name = path.description
        var file = try SoundFile(opening: path)
        // Read until the sniffer can decide; that takes the tags plus about 1 MiB at most.
        var head: [UInt8] = []
        var verdict = MPEGStreamSniffer.Verdict.needMoreBytes
        while verdict == .needMoreBytes {
            do {
                head += try file.read(upTo: readChunkBytes)
            } catch {
                throw .unreadableSound(path: name, reason: "cannot read the file (\(error.reason))")
            }
            verdict = MPEGStreamSniffer.sniff(head, isWholeFile: file.isAtEnd)
        }
        let stream = try acceptedStream(verdict, name: name)

        var reader = try MP3SoundReader(name: name)
        head[stream.firstFrameOffset...].withUnsafeBytes { reader.feed($0) }
        head = []
        var readError: String?
        while reader.wantsMoreInput, !file.isAtEnd {
            do {
                let chunk = try file.read(upTo: readChunkBytes)
                chunk.withUnsafeBytes { reader.feed($0) }
            } catch {
                readError = error.reason
                break
            }
        }
        return try reader.finish(readError: readError)
    }

    /// Decodes MP3 bytes held in memory, exactly as ``decode(path:)-(SoundFilePath)`` decodes a file.
    ///
    /// Callable from any thread.
    /// - Parameter bytes: A whole MP3 file.
    /// - Returns: The decoded sound.
    /// - Throws: ``AlarmError/unreadableSound(path:reason:)`` with path `"<memory>"` if the bytes are
    ///   empty, are not an MPEG audio stream, or hold no decodable frame.
    /// - Complexity: O(*n*) in `bytes.count`.
    /// C: `mpg123_feed`, `mpg123_read`.
    public static func decode(bytes: [UInt8]) throws(AlarmError) -> AlarmSound {
        let name = "<memory>"
        let stream = try acceptedStream(MPEGStreamSniffer.sniff(bytes, isWholeFile: true), name: name)
        var reader = try MP3SoundReader(name: name)
        var offset = stream.firstFrameOffset
        bytes.withUnsafeBytes { all in
            while reader.wantsMoreInput, offset < all.count {
                let end = min(offset + readChunkBytes, all.count)
                reader.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        return try reader.finish(readError: nil)
    }

    /// The stream to decode, or the error that says what the file is instead.
    /// - Parameters:
    ///   - verdict: The sniffer's verdict on the whole file or a deciding prefix of it.
    ///   - name: The path or `"<memory>"`, for the error.
    /// - Returns: Where the MPEG audio starts.
    /// - Throws: ``AlarmError/unreadableSound(path:reason:)`` with ``FileKind/reason`` when the
    ///   file is not an MPEG audio stream.
    /// - Precondition: `verdict` is decided (not ``MPEGStreamSniffer/Verdict/needMoreBytes``).
    private static func acceptedStream(
        _ verdict: MPEGStreamSniffer.Verdict, name: String
    ) throws(AlarmError) -> MPEGStreamSniffer.Stream {
        switch verdict {
        case .mpegAudio(let stream): return stream
        case .notMPEGAudio(let kind): throw .unreadableSound(path: name, reason: kind.reason)
        case .needMoreBytes: preconditionFailure("the sniffer decides every whole file")
        }
    }
}
