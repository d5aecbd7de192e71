import CMpg123

/// A libmpg123 decoder in feed mode that turns MP3 bytes into interleaved signed 16-bit samples;
/// sole owner of its `mpg123_handle`.
///
/// Gapless decoding is on, so a LAME-encoded file decodes to exactly the frames that were encoded
/// (the encoder delay and padding recorded in LAME's info tag are removed). Output is always
/// signed 16-bit, native-endian, at the stream's own sample rate and channel count: the format
/// table allows every rate and both channel counts but only 16-bit, so libmpg123 never resamples
/// or remixes, and a stream whose frames change format reports ``Status/newFormat(_:)`` again.
///
/// Not thread-safe: create, use and drop it on one thread.
struct MP3Decoder: ~Copyable {
    /// The decoded output's shape.
    struct Format: Hashable {
        /// Frames per second, in Hz.
        var sampleRate: Int
        /// Samples per frame: 1 (mono) or 2 (stereo).
        var channels: Int
    }

    /// What a call to ``read(into:)`` reached besides the samples it wrote.
    enum Status: Equatable {
        /// Samples were decoded; more may follow without feeding.
        case decoded
        /// The output format is now `Format`; samples that follow have it.
        case newFormat(Format)
        /// All fed bytes are used up: feed more, or stop at the end of the input.
        case needMore
        /// The stream has ended (its length is known from the info tag and all of it was decoded).
        case done
    }

    private let handle: OpaquePointer

    /// Creates a quiet, gapless decoder that accepts bytes through ``feed(_:)``.
    /// - Throws: `MPG123Error` if libmpg123 cannot allocate or configure a handle.
    /// C: `mpg123_new`, `mpg123_param2`, `mpg123_format_none`, `mpg123_format2`, `mpg123_open_feed`.
    init() throws(MPG123Error) {
        var code: Int32 = MPG123_OK.rawValue
        guard let handle = mpg123_new(nil, &code) else {
            let reason = code == MPG123_OK.rawValue ? MPG123_OUT_OF_MEM.rawValue : code
            throw MPG123Error(code: reason, function: "mpg123_new")
        }
        do {
            // Never print to stderr; report through return codes only.
            try MPG123Error.check(
                mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue), 0),
                "mpg123_param2", handle: handle)
            try MPG123Error.check(
                mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_GAPLESS.rawValue), 0),
                "mpg123_param2", handle: handle)
            try MPG123Error.check(mpg123_format_none(handle), "mpg123_format_none", handle: handle)
            // Any sample rate (0), the stream's own channel count, signed 16-bit only.
            try MPG123Error.check(
                mpg123_format2(
                    handle, 0, Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue),
                    Int32(MPG123_ENC_SIGNED_16.rawValue)),
                "mpg123_format2", handle: handle)
            try MPG123Error.check(mpg123_open_feed(handle), "mpg123_open_feed", handle: handle)
        } catch {
            mpg123_delete(handle)  // self is not initialised yet, so deinit will not run
            throw error
        }
        self.handle = handle
    }

    deinit { mpg123_delete(handle) }

    /// The largest number of samples one ``read(into:)`` call can produce; size the buffer with it.
    ///
    /// C: `mpg123_outblock`.
    var outputBlockSamples: Int { max(mpg123_outblock(handle) / MemoryLayout<Int16>.size, 1152 * 2) }

    /// The stream's length in frames as its info tag announces it, gapless-adjusted; `nil` if unknown.
    ///
    /// Known once the first MPEG frame has been parsed, and only for streams with a Xing/LAME tag.
    /// C: `mpg123_length`.
    var announcedFrames: Int? {
        let frames = mpg123_length(handle)
        return frames > 0 ? Int(frames) : nil
    }

    /// Hands bytes to the decoder; they are copied, so the buffer may be reused at once.
    /// - Parameter bytes: Any part of an MP3 stream, in order.
    /// - Throws: `MPG123Error` if libmpg123 cannot store them (out of memory). C: `mpg123_feed`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(MPG123Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try MPG123Error.check(
            mpg123_feed(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count), "mpg123_feed",
            handle: handle)
    }

    /// Decodes as many samples as fit into `buffer` from the bytes fed so far.
    /// - Parameter buffer: Room for interleaved samples; at least ``outputBlockSamples`` long.
    /// - Returns: The number of samples written (a multiple of the channel count; may be 0) and
    ///   what the decoder reached.
    /// - Throws: `MPG123Error` if the stream is corrupt beyond resynchronisation or the format is
    ///   not decodable to 16-bit. C: `mpg123_read`.
    mutating func read(
        into buffer: UnsafeMutableBufferPointer<Int16>
    ) throws(MPG123Error) -> (samples: Int, status: Status) {
        var bytes = 0
        let result = mpg123_read(
            handle, UnsafeMutableRawPointer(buffer.baseAddress), buffer.count * MemoryLayout<Int16>.size, &bytes)
        try MPG123Error.check(result, "mpg123_read", handle: handle)
        let samples = bytes / MemoryLayout<Int16>.size
        switch result {
        case MPG123_NEW_FORMAT.rawValue: return (samples, .newFormat(try currentFormat()))
        case MPG123_NEED_MORE.rawValue: return (samples, .needMore)
        case MPG123_DONE.rawValue: return (samples, .done)
        default: return (samples, .decoded)
        }
    }

    /// The output format libmpg123 has settled on.
    ///
    /// C: `mpg123_getformat`.
    private func currentFormat() throws(MPG123Error) -> Format {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        try MPG123Error.check(
            mpg123_getformat(handle, &rate, &channels, &encoding), "mpg123_getformat", handle: handle)
        precondition(encoding == Int32(MPG123_ENC_SIGNED_16.rawValue), "libmpg123 ignored the 16-bit format table")
        return Format(sampleRate: rate, channels: Int(channels))
    }
}
