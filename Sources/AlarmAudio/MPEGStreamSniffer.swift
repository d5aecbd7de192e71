import TextCoding

/// Decides from a file's first bytes whether it is an MPEG audio stream (MP3, or MP2/MP1), and if
/// not, what it looks like instead.
///
/// Pure: no I/O and no state; bytes in, verdict out. Callable from any thread.
///
/// The rule, in order:
/// 1. ID3v2 tags (10-byte header, syncsafe size, plus 10 when the footer flag is set) and APEv2
///    tags with a header are skipped, as many as follow one another.
/// 2. A known signature there names the file: WAV, AIFF, FLAC, Ogg, MP4, ELF, … (``FileKind``).
///    This comes first so that another container holding MP3 data, or a WAV that by chance holds
///    frame-like bytes, is named for what it is rather than played.
/// 3. A *run* of MPEG frames must start within ``scanLimit`` (1 MiB) after the tags: headers,
///    each consistent with the first (``MPEGFrameHeader/isConsistent(with:)``) and each exactly
///    where the previous frame's length says; ``runFrames`` of them when the run starts within
///    ``junkLimit`` bytes after the tags, ``distantRunFrames`` when it starts further (a damaged or
///    unknown tag, junk before the first frame: players such as mpg123 skip it too). Near the
///    tags, a stream of fewer frames passes when at least ``shortestRun`` frames end exactly at
///    the end of the file or where a trailing tag (ID3v1 `TAG`, `APETAGEX`, `LYRICSBEGIN`, an
///    appended `ID3`) begins, so a two-frame file plays.
/// 4. Otherwise: a run of ADTS headers is AAC; valid UTF-8 without control characters is text;
///    anything else is unknown data.
///
/// The verdict for a prefix of a file is either ``Verdict/needMoreBytes`` or the verdict for the
/// whole file, so a reader can feed a growing prefix and stop as soon as it is decided; that
/// takes at most the tags plus about 1 MiB (``scanLimit`` and a run of the longest frames), and
/// far less for an MP3 file or a file with a known signature.
enum MPEGStreamSniffer {
    /// How many consecutive, consistent frame headers make a run.
    ///
    /// Random bytes almost never hold even three (about 1 in 10¹⁴ per position), but structured
    /// data does: tables of 0xFFFF (which reads as an MPEG-1 Layer I header) or icon pixel rows
    /// repeat at a frame's length. Measured over the 116 020 files under /usr, /etc and /var of the
    /// build machine: runs of 3 accepted 7 files that are not audio, runs of 4 accepted 2, runs of
    /// 5 none; the one real MP3 among them passed each time. mkvmerge's MP3 probe also asks for 5.
    static let runFrames = 5
    /// The fewest frames a stream shorter than ``runFrames`` may have and still be accepted.
    static let shortestRun = 2
    /// How far after the tags a run of ``runFrames`` may start, in bytes.
    ///
    /// Junk before the first frame is mostly what taggers leave (zero padding after a tag, a tag
    /// size off by its footer) or a stream cut in the middle of a frame; the longest MPEG frame is
    /// 2881 bytes (Layer II, 160 kbit/s at 8 kHz), so 4 KiB covers a whole cut frame with room to
    /// spare.
    static let junkLimit = 4096
    /// How far after the tags the first frame header may start at all, in bytes (1 MiB).
    ///
    /// A damaged or unknown tag, or other bytes before the first frame, can be kilobytes long,
    /// and players decode such a file; beyond ``junkLimit`` a run must be ``distantRunFrames``
    /// long, since more bytes searched hold more chance runs. The bound keeps the search (and
    /// what a reader must read before a verdict) small for a file that is not audio at all.
    static let scanLimit = 1 << 20
    /// How many consecutive, consistent frame headers make a run that starts beyond ``junkLimit``
    /// (32 frames: 0.8 s of audio at 44.1 kHz, so any alarm sound has them).
    ///
    /// Searching a megabyte finds runs in structured data that repeats at a frame's length.
    /// Measured over the 107 938 files under /usr, /etc and /var of the build machine (their first
    /// 1 MiB each): runs of 8 accepted 13 files that are not audio (static libraries, X cursors, a
    /// dictionary trie), runs of 16 one, runs of 32 none; the one real MP3 among them passed.
    static let distantRunFrames = 32
    /// How many leading bytes must be valid UTF-8 text for a file to be called text.
    static let textWindow = 4096

    /// Where an accepted stream's audio starts and what its first frame says.
    struct Stream: Hashable {
        /// The first frame header's byte offset in the file: after the tags and any junk.
        let firstFrameOffset: Int
        /// The first frame's header (often LAME's Info/Xing frame, which has the stream's format).
        let firstHeader: MPEGFrameHeader
    }

    /// What the bytes are.
    enum Verdict: Hashable {
        /// An MPEG audio stream: decode it from ``Stream/firstFrameOffset``.
        case mpegAudio(Stream)
        /// Not MPEG audio; the kind says what it looks like.
        case notMPEGAudio(FileKind)
        /// The prefix is too short to decide: call again with more of the file.
        case needMoreBytes
    }

    /// Judges a file, or the prefix of one read so far.
    /// - Parameters:
    ///   - bytes: The file's first bytes, from offset 0.
    ///   - isWholeFile: `true` when `bytes` is the whole file (the read reached end-of-file).
    /// - Returns: The verdict; ``Verdict/needMoreBytes`` only when `isWholeFile` is `false`.
    /// - Complexity: O(``scanLimit`` + ``textWindow``) after skipping the tags, which is O(1) each.
    static func sniff(_ bytes: [UInt8], isWholeFile: Bool) -> Verdict {
        do {
            return try sniff(Prefix(bytes: bytes, isWholeFile: isWholeFile))
        } catch {
            return .needMoreBytes
        }
    }

    private static func sniff(_ input: Prefix) throws(NeedMoreBytes) -> Verdict {
        let audioStart = try endOfLeadingTags(input)
        if try input.endsExactly(at: audioStart) { return .notMPEGAudio(audioStart == 0 ? .empty : .tagsWithoutAudio) }
        if audioStart > input.bytes.count { return .notMPEGAudio(.tagsWithoutAudio) }
        let head = try input.slice(audioStart, FileKind.magicBytes) ?? input.bytes[audioStart...]
        if let kind = FileKind.recognize(head) { return .notMPEGAudio(kind) }
        var offset = audioStart
        while let sync = try nextSyncByte(in: input, from: offset, through: audioStart + scanLimit) {
            let near = sync - audioStart <= junkLimit
            let frames = near ? runFrames : distantRunFrames
            let shortest = near ? shortestRun : distantRunFrames
            if let header = try run(of: MPEGFrameHeader.self, in: input, at: sync, frames: frames, shortest: shortest) {
                return .mpegAudio(Stream(firstFrameOffset: sync, firstHeader: header))
            }
            if near,
                try run(of: ADTSFrameHeader.self, in: input, at: sync, frames: runFrames, shortest: shortestRun) != nil
            {
                return .notMPEGAudio(.adtsAAC)
            }
            offset = sync + 1
        }
        return .notMPEGAudio(try isText(input) ? .text : .unknown)
    }

    /// The offset just past the ID3v2 and APEv2 tags at the start; beyond the end of the bytes if
    /// the last tag claims more than the file holds.
    private static func endOfLeadingTags(_ input: Prefix) throws(NeedMoreBytes) -> Int {
        var offset = 0
        while let head = try input.slice(offset, 10) {
            if let tagBytes = id3v2TagBytes(head) {
                offset += tagBytes
            } else if head.starts(with: Array("APETAGEX".utf8)), let apeHeader = try input.slice(offset, 32),
                let tagBytes = apeTagBytes(apeHeader)
            {
                offset += tagBytes
            } else {
                break
            }
        }
        return offset
    }

    /// The length of the ID3v2 tag whose 10-byte header is `head`, header and footer included.
    /// - Returns: `nil` if `head` is not an ID3v2 header (wrong magic, version byte 0xFF, or a size
    ///   byte with its top bit set, which a syncsafe integer never has).
    static func id3v2TagBytes(_ head: ArraySlice<UInt8>) -> Int? {
        let h = Array(head.prefix(10))
        guard h.count == 10, h.starts(with: Array("ID3".utf8)), h[3] != 0xFF, h[4] != 0xFF,
            h[6..<10].allSatisfy({ $0 < 0x80 })
        else { return nil }
        let size = h[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let hasFooter = h[5] & 0x10 != 0
        return 10 + size + (hasFooter ? 10 : 0)
    }

    /// The length of the APEv2 tag whose 32-byte header is `header`, header and footer included.
    /// - Returns: `nil` if the size field is smaller than the footer it must include.
    static func apeTagBytes(_ header: ArraySlice<UInt8>) -> Int? {
        let h = Array(header.prefix(32))
        guard h.count == 32 else { return nil }
        // Bytes 12...15: the tag's size without the header, little-endian.
        let size = h[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
        return size >= 32 ? 32 + size : nil
    }

    /// The offset of the next 0xFF byte (where a frame header could start, with a byte after
    /// it) from `offset` up to `last`; nil when there is none.
    /// - Throws: `NeedMoreBytes` if the prefix read so far ends before `last` without one.
    /// - Complexity: O(`last - offset`).
    private static func nextSyncByte(in input: Prefix, from offset: Int, through last: Int) throws(NeedMoreBytes)
        -> Int?
    {
        let end = min(last, input.bytes.count - 2)  // the last offset with two bytes read
        if offset <= end, let index = input.bytes[offset...end].firstIndex(of: 0xFF) { return index }
        if end >= last || input.isWholeFile { return nil }
        throw NeedMoreBytes()
    }

    /// Follows frames of type `Header` from `offset`.
    /// - Parameters:
    ///   - _: The kind of frame header.
    ///   - input: The bytes read so far.
    ///   - offset: Where the first header would start.
    ///   - frames: How many headers make a run.
    ///   - shortest: How many suffice when the audio ends right after them.
    /// - Returns: The first header if a run starts there (see the type's rule 3), else `nil`.
    /// - Throws: `NeedMoreBytes` when the run goes past the bytes read so far.
    private static func run<Header: SniffedFrameHeader>(
        of _: Header.Type, in input: Prefix, at offset: Int, frames: Int, shortest: Int
    ) throws(NeedMoreBytes) -> Header? {
        var position = offset
        var first: Header?
        var found = 0
        while found < frames {
            if found >= shortest, try endsAudio(input, at: position) { return first }
            guard let bytes = try input.slice(position, Header.headerBytes), let header = Header(bytes),
                first.map({ $0.isConsistent(with: header) }) ?? true
            else { return nil }
            first = first ?? header
            found += 1
            position += header.frameBytes
        }
        return first
    }

    /// Whether the audio ends exactly at `offset`: the end of the file, or a trailing tag.
    private static func endsAudio(_ input: Prefix, at offset: Int) throws(NeedMoreBytes) -> Bool {
        if try input.endsExactly(at: offset) { return true }
        for tag in ["TAG", "ID3", "APETAGEX", "LYRICSBEGIN"] {
            if let bytes = try input.slice(offset, tag.utf8.count), bytes.elementsEqual(tag.utf8) { return true }
        }
        return false
    }

    /// Whether the file's first ``textWindow`` bytes (all of it, if shorter) are valid UTF-8
    /// without control characters other than tab, line feed, form feed and carriage return.
    private static func isText(_ input: Prefix) throws(NeedMoreBytes) -> Bool {
        let window = try input.slice(0, textWindow) ?? input.bytes[...]
        // Cut unless the file is known to end where the window does.
        let isCut = !(input.isWholeFile && window.count == input.bytes.count)
        var index = window.startIndex
        while index < window.endIndex {
            switch UTF8Unit.read(window, at: index) {
            case .scalar(let scalar, let length):
                if scalar.isControlCharacter, !["\t", "\n", "\u{C}", "\r"].contains(scalar) { return false }
                index += length
            case .truncated: return isCut
            case .invalid: return false
            }
        }
        return true
    }
}

/// Thrown inside ``MPEGStreamSniffer`` when the verdict depends on bytes not yet read.
private struct NeedMoreBytes: Error {}

/// A file's first bytes, and whether they are all of it.
private struct Prefix {
    let bytes: [UInt8]
    let isWholeFile: Bool

    /// The `count` bytes at `offset`.
    /// - Returns: `nil` if the whole file ends before `offset + count`.
    /// - Throws: `NeedMoreBytes` if only the prefix read so far ends before it.
    func slice(_ offset: Int, _ count: Int) throws(NeedMoreBytes) -> ArraySlice<UInt8>? {
        if offset + count <= bytes.count { return bytes[offset..<(offset + count)] }
        if isWholeFile { return nil }
        throw NeedMoreBytes()
    }

    /// Whether the file ends exactly at `offset`.
    /// - Throws: `NeedMoreBytes` if the prefix read so far ends at or before `offset`.
    func endsExactly(at offset: Int) throws(NeedMoreBytes) -> Bool {
        if offset < bytes.count { return false }
        if isWholeFile { return offset == bytes.count }
        throw NeedMoreBytes()
    }
}
