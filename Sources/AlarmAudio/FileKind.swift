/// What a file that is not an MPEG audio stream looks like, as ``MPEGStreamSniffer`` judges it,
/// with the words to tell the user and how to convert it.
enum FileKind: Hashable, Sendable {
    /// No bytes at all.
    case empty
    /// ID3v2 or APE tags and nothing after them (or a tag that claims more bytes than the file has).
    case tagsWithoutAudio
    /// RIFF/WAVE; `isPCM` when its format chunk says plain PCM (format tag 1), which LAME reads.
    case wav(isPCM: Bool)
    /// FORM/AIFF or FORM/AIFC.
    case aiff
    case flac
    /// An Ogg container: Vorbis, Opus, FLAC or Speex.
    case ogg
    /// An ISO base media file (`ftyp` box): MP4, M4A, M4B, 3GP; AAC or ALAC audio.
    case mp4
    /// Raw AAC in ADTS frames (`.aac`), found as a run of consistent ADTS headers.
    case adtsAAC
    /// ASF: WMA or WMV.
    case asf
    /// Matroska or WebM.
    case matroska
    /// Standard MIDI: notes, not recorded sound.
    case midi
    /// Sun/NeXT `.au`.
    case sunAudio
    case elf
    case gzip
    case zip
    case xz
    case bzip2
    case png
    case jpeg
    case gif
    case pdf
    /// Valid UTF-8 (so also ASCII) without control characters other than tab, line feed, form
    /// feed and carriage return.
    case text
    /// None of the above.
    case unknown

    /// Why the file cannot be the alarm, for ``AlarmError/unreadableSound(path:reason:)``: what it
    /// looks like, then how to make an MP3 of it (or that it is not audio at all).
    var reason: String {
        switch self {
        case .empty: "empty file"
        case .tagsWithoutAudio: "MP3 tags (ID3/APE) but no audio frames after them"
        case .wav(isPCM: true): Self.convert("a WAV file", with: "lame in.wav out.mp3")
        case .wav(isPCM: false): Self.convert("a WAV file (not plain PCM)", with: "ffmpeg -i in.wav out.mp3")
        case .aiff: Self.convert("an AIFF file", with: "ffmpeg -i in.aiff out.mp3")
        case .flac: Self.convert("a FLAC file", with: "ffmpeg -i in.flac out.mp3")
        case .ogg: Self.convert("an Ogg file (Vorbis or Opus)", with: "ffmpeg -i in.ogg out.mp3")
        case .mp4: Self.convert("an MP4/M4A file (AAC or ALAC audio)", with: "ffmpeg -i in.m4a out.mp3")
        case .adtsAAC: Self.convert("AAC audio (ADTS stream)", with: "ffmpeg -i in.aac out.mp3")
        case .asf: Self.convert("a WMA/ASF file", with: "ffmpeg -i in.wma out.mp3")
        case .matroska: Self.convert("a Matroska/WebM file", with: "ffmpeg -i in.webm out.mp3")
        case .sunAudio: Self.convert("a Sun AU file", with: "ffmpeg -i in.au out.mp3")
        case .midi:
            "a MIDI file (notes, not recorded sound), not MP3; render it with: "
                + "timidity in.mid -Ow -o - | lame - out.mp3"
        case .elf: Self.notAudio("an ELF executable or library")
        case .gzip: Self.notAudio("gzip-compressed data")
        case .zip: Self.notAudio("a ZIP archive")
        case .xz: Self.notAudio("xz-compressed data")
        case .bzip2: Self.notAudio("bzip2-compressed data")
        case .png: Self.notAudio("a PNG image")
        case .jpeg: Self.notAudio("a JPEG image")
        case .gif: Self.notAudio("a GIF image")
        case .pdf: Self.notAudio("a PDF document")
        case .text: Self.notAudio("a text file")
        case .unknown:
            "unknown data, not MP3 (no run of MPEG audio frames found); "
                + "if it is audio, convert it with: ffmpeg -i input out.mp3"
        }
    }

    private static func convert(_ kind: String, with command: String) -> String {
        "\(kind), not MP3; convert it with: \(command)"
    }

    private static func notAudio(_ kind: String) -> String {
        "\(kind), not audio; the alarm sound must be an MP3 file"
    }

    /// The most bytes ``recognize(_:)`` looks at.
    static let magicBytes = 24

    /// Names a file by the signature at its start (after any ID3v2 tags).
    /// - Parameter head: The first ``magicBytes`` bytes, or all of them if the file is shorter.
    /// - Returns: The kind, or `nil` if no signature matches. Text and ADTS AAC have no signature
    ///   and are never returned here.
    static func recognize(_ head: ArraySlice<UInt8>) -> FileKind? {
        func has(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && head.dropFirst(offset).starts(with: signature)
        }
        func has(_ signature: String, at offset: Int = 0) -> Bool { has(Array(signature.utf8), at: offset) }
        if has("RIFF") && has("WAVE", at: 8) { return .wav(isPCM: has("fmt ", at: 12) && has([1, 0], at: 20)) }
        if has("FORM") && (has("AIFF", at: 8) || has("AIFC", at: 8)) { return .aiff }
        let signatures: [(signature: [UInt8], offset: Int, kind: FileKind)] = [
            (Array("fLaC".utf8), 0, .flac), (Array("OggS".utf8), 0, .ogg), (Array("ftyp".utf8), 4, .mp4),
            ([0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11], 0, .asf), ([0x1A, 0x45, 0xDF, 0xA3], 0, .matroska),
            (Array("MThd".utf8), 0, .midi), (Array(".snd".utf8), 0, .sunAudio),
            ([0x7F] + Array("ELF".utf8), 0, .elf), ([0x1F, 0x8B], 0, .gzip), (Array("PK\u{3}\u{4}".utf8), 0, .zip),
            (Array("PK\u{5}\u{6}".utf8), 0, .zip), ([0xFD] + Array("7zXZ".utf8) + [0], 0, .xz),
            (Array("BZh".utf8), 0, .bzip2), ([0x89] + Array("PNG\r\n".utf8), 0, .png),
            ([0xFF, 0xD8, 0xFF], 0, .jpeg), (Array("GIF8".utf8), 0, .gif), (Array("%PDF-".utf8), 0, .pdf),
        ]
        return signatures.first { has($0.signature, at: $0.offset) }?.kind
    }
}
