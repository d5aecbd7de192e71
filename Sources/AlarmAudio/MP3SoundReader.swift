/// Collects the output of an ``MP3Decoder`` fed in pieces into an ``AlarmSound``, deciding what
/// counts as unreadable and what only earns a warning.
///
/// Not thread-safe: create, use and drop it on one thread.
struct MP3SoundReader: ~Copyable {
    /// The longest sound kept; anything longer is cut here with a warning.
    static let maximumDuration: Duration = .seconds(300)

    private var decoder: MP3Decoder
    private let name: String
    /// Where this reader cuts (``maximumDuration`` unless a test asks for less).
    private let cutAfter: Duration
    /// Whether decoding stopped on purpose (the length cap, a format change): not a truncation.
    private var stoppedOnPurpose = false
    private var scratch: [Int16]
    private var samples: [Int16] = []
    private var format: MP3Decoder.Format?
    private var announcedFrames: Int?
    private var bytesFed = 0
    private var warnings: [String] = []
    /// Why decoding stopped early, for the unreadable error when nothing decoded.
    private var failure: Failure?
    private var ended = false

    /// Why decoding stopped before the end of the data.
    private enum Failure {
        /// libmpg123 gave up on the stream.
        case stream(MPG123Error)
        /// Reading the input failed; the `strerror` text.
        case read(String)
        /// The first frame's format is not one we can play.
        case unsupported(MP3Decoder.Format)
        /// libmpg123 produced samples before announcing their format.
        case samplesBeforeFormat

        /// The end of a truncation warning: "truncated: decoded 0.8 s, then …".
        var afterAudio: String {
            switch self {
            case .stream(let error): "the data is corrupt (\(error.plainMessage))"
            case .read(let reason): "a read error (\(reason))"
            case .unsupported(let format):
                "an unsupported format (\(format.channels) channels at \(format.sampleRate) Hz)"
            case .samplesBeforeFormat: "the data is corrupt (samples before any format)"
            }
        }
    }

    /// Creates a reader whose errors name `name`.
    /// - Parameters:
    ///   - name: The file path, or `"<memory>"`, used in errors and warnings.
    ///   - cutAfter: The longest sound kept, whole seconds; ``maximumDuration`` by default.
    /// - Throws: ``AlarmError/unreadableSound(path:reason:)`` if libmpg123 cannot create a decoder.
    init(name: String, cutAfter: Duration = Self.maximumDuration) throws(AlarmError) {
        self.cutAfter = cutAfter
        do {
            decoder = try MP3Decoder()
        } catch {
            throw .unreadableSound(path: name, reason: "cannot start the MP3 decoder (\(error.plainMessage))")
        }
        self.name = name
        scratch = [Int16](repeating: 0, count: decoder.outputBlockSamples)
    }

    /// `false` once the stream has ended, failed or reached ``maximumDuration``: stop feeding.
    var wantsMoreInput: Bool { !ended }

    /// Feeds the next bytes of the stream and decodes all that they complete.
    /// - Parameter bytes: The next part of the MP3 stream, in order; copied.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard !ended else { return }
        bytesFed += bytes.count
        do {
            try decoder.feed(bytes)
        } catch {
            end(failure: .stream(error))
            return
        }
        drain()
    }

    /// Ends the stream and returns what decoded.
    /// - Parameter readError: Why reading the input failed, if it did; treated like a stream error.
    /// - Returns: The decoded sound, with warnings if it is incomplete.
    /// - Throws: ``AlarmError/unreadableSound(path:reason:)`` if no audio frame decoded.
    consuming func finish(readError: String?) throws(AlarmError) -> AlarmSound {
        if let readError, !ended { end(failure: .read(readError)) }
        guard let format, !samples.isEmpty else { throw .unreadableSound(path: name, reason: unreadableReason) }
        let frames = samples.count / format.channels
        if failure == nil, !stoppedOnPurpose, let announcedFrames, frames < announcedFrames {
            warnings.append(
                "truncated: decoded \(Self.seconds(frames, format)) of \(Self.seconds(announcedFrames, format)), "
                    + "then the data ended")
        }
        return AlarmSound(
            samples: samples, sampleRate: format.sampleRate, channels: format.channels, warnings: warnings)
    }

    /// Decodes until the decoder needs more input or the stream ends.
    private mutating func drain() {
        while !ended {
            let (count, status): (Int, MP3Decoder.Status)
            do {
                (count, status) = try scratch.withUnsafeMutableBufferPointer { buffer throws(MPG123Error) in
                    try decoder.read(into: buffer)
                }
            } catch {
                end(failure: .stream(error))
                return
            }
            if count > 0 { append(count) }
            switch status {
            case .decoded: continue
            case .needMore: return
            case .done: ended = true
            case .newFormat(let new): accept(new)
            }
        }
    }

    /// Takes the first format; stops at any later, different one, so the output never changes
    /// format (libmpg123 would otherwise resample the rest crudely).
    private mutating func accept(_ new: MP3Decoder.Format) {
        guard let format else {
            guard new.channels == 1 || new.channels == 2, new.sampleRate > 0 else {
                end(failure: .unsupported(new))
                return
            }
            format = new
            announcedFrames = decoder.announcedFrames
            if let announcedFrames {
                samples.reserveCapacity(min(announcedFrames, maximumFrames(new)) * new.channels)
            }
            return
        }
        guard new != format else { return }
        ended = true
        stoppedOnPurpose = true
        warnings.append(
            "format changed mid-stream after \(Self.seconds(samples.count / format.channels, format)) "
                + "(\(format.sampleRate) Hz × \(format.channels) → \(new.sampleRate) Hz × \(new.channels)); "
                + "playing the first part only")
    }

    /// Appends `count` decoded samples from the scratch buffer, cutting at ``maximumDuration``.
    private mutating func append(_ count: Int) {
        guard let format else {
            // libmpg123 announces the format before any samples; anything else is a broken stream.
            end(failure: .samplesBeforeFormat)
            return
        }
        let limit = maximumFrames(format) * format.channels
        let kept = min(count, limit - samples.count)
        samples.append(contentsOf: scratch[0..<kept])
        if kept < count || samples.count == limit {
            ended = true
            stoppedOnPurpose = true
            warnings.append("longer than \(Self.seconds(maximumFrames(format), format)): playing the first part only")
        }
    }

    /// Stops decoding because of `failure`; a warning if some audio decoded, the error otherwise.
    private mutating func end(failure reason: Failure) {
        ended = true
        failure = reason
        if let format, !samples.isEmpty {
            let decoded = Self.seconds(samples.count / format.channels, format)
            warnings.append("truncated: decoded \(decoded), then \(reason.afterAudio)")
        }
    }

    /// Why nothing decoded, in words: what is wrong first, libmpg123's text in parentheses only
    /// where it says more than "no MPEG data here".
    ///
    /// The bytes reach the reader only after ``MPEGStreamSniffer`` has found a run of MPEG frames
    /// in them, so "no frame decoded" means corrupt MP3 data, never another kind of file.
    private var unreadableReason: String {
        switch failure {
        case .read(let reason): return "cannot read the file (\(reason))"
        case .unsupported(let format):
            return "unsupported MP3 format (\(format.channels) channels at \(format.sampleRate) Hz)"
        case .samplesBeforeFormat: return "corrupt MP3 data (samples before any format)"
        case .stream(let error) where !error.meansNoMPEGData:
            return format == nil
                ? "cannot decode the file (\(error.plainMessage))" : "corrupt MP3 data (\(error.plainMessage))"
        case .stream, nil:
            if bytesFed == 0 { return "empty file" }
            if format != nil { return "corrupt MP3 data (no complete audio frame)" }
            return "corrupt MP3 data (the decoder found no audio frame)"
        }
    }

    private func maximumFrames(_ format: MP3Decoder.Format) -> Int {
        Int(cutAfter.components.seconds) * format.sampleRate
    }

    /// `frames` as seconds with one decimal, for example "0.8 s".
    private static func seconds(_ frames: Int, _ format: MP3Decoder.Format) -> String {
        let tenths = (frames * 10 + format.sampleRate / 2) / format.sampleRate
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
