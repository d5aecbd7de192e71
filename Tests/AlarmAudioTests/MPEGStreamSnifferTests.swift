import Testing

@testable import AlarmAudio

/// The sniffer alone: frame headers, the run rule, tags, junk, signatures, text, and prefixes.
@Suite struct MPEGStreamSnifferTests {
    // MARK: - Frame headers

    @Test(
        arguments: [
            // MPEG-1 Layer III 128 kbit/s 44.1 kHz joint stereo: 144 × 128000 / 44100 = 417.
            ([0xFF, 0xFB, 0x90, 0x64], MPEGFrameHeader.Version.mpeg1, 3, 128_000, 44_100, 2, 417),
            // The same, padded: 418.
            ([0xFF, 0xFB, 0x92, 0x64], .mpeg1, 3, 128_000, 44_100, 2, 418),
            // MPEG-1 Layer III 320 kbit/s 32 kHz mono: 1440.
            ([0xFF, 0xFB, 0xE8, 0xC4], .mpeg1, 3, 320_000, 32_000, 1, 1440),
            // MPEG-2 Layer III 64 kbit/s 22.05 kHz stereo: 72 × 64000 / 22050 = 208.
            ([0xFF, 0xF3, 0x80, 0x04], .mpeg2, 3, 64_000, 22_050, 2, 208),
            // MPEG-2.5 Layer III 8 kbit/s 8 kHz mono: 72.
            ([0xFF, 0xE3, 0x18, 0xC4], .mpeg25, 3, 8000, 8000, 1, 72),
            // MPEG-1 Layer II 384 kbit/s 32 kHz: 144 × 384000 / 32000 = 1728.
            ([0xFF, 0xFD, 0xE8, 0x04], .mpeg1, 2, 384_000, 32_000, 2, 1728),
            // MPEG-2 Layer II 160 kbit/s 8 kHz (2.5): the longest frame, 2881 with padding.
            ([0xFF, 0xE5, 0xEA, 0x04], .mpeg25, 2, 160_000, 8000, 2, 2881),
            // MPEG-1 Layer I 448 kbit/s 48 kHz: (12 × 448000 / 48000) × 4 = 448.
            ([0xFF, 0xFF, 0xE4, 0x00], .mpeg1, 1, 448_000, 48_000, 2, 448),
            // MPEG-1 Layer I 32 kbit/s 44.1 kHz padded: (8 + 1) × 4 = 36.
            ([0xFF, 0xFF, 0x12, 0x00], .mpeg1, 1, 32_000, 44_100, 2, 36),
        ] as [([UInt8], MPEGFrameHeader.Version, Int, Int, Int, Int, Int)])
    func headerGivesItsFormatAndFrameLength(
        bytes: [UInt8], version: MPEGFrameHeader.Version, layer: Int, bitrate: Int, sampleRate: Int, channels: Int,
        frameBytes: Int
    ) throws {
        let header = try #require(MPEGFrameHeader(bytes[...]))
        #expect(header.version == version)
        #expect(header.layer == layer)
        #expect(header.bitrate == bitrate)
        #expect(header.sampleRate == sampleRate)
        #expect(header.channels == channels)
        #expect(header.frameBytes == frameBytes)
    }

    @Test(
        arguments: [
            [0xFF, 0xFB, 0x90],  // too short
            [0xFE, 0xFB, 0x90, 0x64],  // no sync
            [0xFF, 0xDB, 0x90, 0x64],  // sync one bit short
            [0xFF, 0xEB, 0x90, 0x64],  // version 01: reserved
            [0xFF, 0xF9, 0x90, 0x64],  // layer 00: reserved (and ADTS's)
            [0xFF, 0xF1, 0x50, 0x80],  // an ADTS header
            [0xFF, 0xFB, 0x00, 0x64],  // bitrate 0: free format
            [0xFF, 0xFB, 0xF0, 0x64],  // bitrate 15: forbidden
            [0xFF, 0xFB, 0x9C, 0x64],  // sample rate 3: reserved
            [0xFF, 0xFF, 0xFF, 0xFF],  // -1 as data
        ] as [[UInt8]])
    func invalidHeaderIsRefused(bytes: [UInt8]) {
        #expect(MPEGFrameHeader(bytes[...]) == nil)
    }

    // MARK: - Runs

    /// `count` frames with `header`, each filled with zeros to its length.
    private func frames(_ header: [UInt8], count: Int) throws -> [UInt8] {
        let length = try #require(MPEGFrameHeader(header[...])).frameBytes
        return (0..<count).flatMap { _ in header + [UInt8](repeating: 0, count: length - 4) }
    }

    private let cbr: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]

    @Test func runOfFiveConsistentFramesIsMPEGAudio() throws {
        let bytes = try frames(cbr, count: 5) + TestFiles.randomBytes(count: 100, seed: 1)
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .mpegAudio(try stream(at: 0)))
    }

    @Test func fourFramesThenGarbageIsNotARun() throws {
        let bytes = try frames(cbr, count: 4) + TestFiles.randomBytes(count: 2000, seed: 1)
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .notMPEGAudio(.unknown))
    }

    /// A frame of another sample rate or channel count breaks the run; another bitrate (VBR),
    /// padding or stereo mode does not.
    @Test(
        arguments: [
            ([0xFF, 0xFB, 0xB0, 0x64], true),  // 192 kbit/s: VBR
            ([0xFF, 0xFB, 0x92, 0x64], true),  // padded
            ([0xFF, 0xFB, 0x90, 0x04], true),  // stereo instead of joint stereo
            ([0xFF, 0xFA, 0x90, 0x64], true),  // with CRC
            ([0xFF, 0xFB, 0x94, 0x64], false),  // 48 kHz
            ([0xFF, 0xFB, 0x90, 0xC4], false),  // mono
            ([0xFF, 0xF3, 0x90, 0x64], false),  // MPEG-2
            ([0xFF, 0xFD, 0x90, 0x64], false),  // Layer II
        ] as [([UInt8], Bool)])
    func runAllowsOnlyFormatPreservingChanges(third: [UInt8], continues: Bool) throws {
        let bytes = try frames(cbr, count: 2) + frames(third, count: 1) + frames(cbr, count: 2) + [0, 0, 0, 0]
        let verdict = MPEGStreamSniffer.sniff(bytes, isWholeFile: true)
        #expect((verdict == .mpegAudio(try stream(at: 0))) == continues, "\(verdict)")
    }

    @Test(
        arguments: [
            ([], true),  // two frames, then the end
            (Array("TAG".utf8) + [UInt8](repeating: 0, count: 125), true),
            (Array("APETAGEX".utf8) + [UInt8](repeating: 0, count: 24), true),
            (Array("LYRICSBEGIN".utf8), true),
            (Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0], true),
            ([0], false),  // one byte too many
            (Array("TA".utf8), false),
        ] as [([UInt8], Bool)])
    func twoFramesPassOnlyWhenTheyReachTheEndOrATrailingTag(tail: [UInt8], passes: Bool) throws {
        let bytes = try frames(cbr, count: 2) + tail
        let verdict = MPEGStreamSniffer.sniff(bytes, isWholeFile: true)
        #expect((verdict == .mpegAudio(try stream(at: 0))) == passes, "\(verdict)")
    }

    @Test func oneFrameIsNotARun() throws {
        #expect(MPEGStreamSniffer.sniff(try frames(cbr, count: 1), isWholeFile: true) == .notMPEGAudio(.unknown))
    }

    @Test func twoFramesWhoseSecondIsCutShortAreNotARun() throws {
        let bytes = try Array(frames(cbr, count: 2).dropLast())
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .notMPEGAudio(.unknown))
    }

    @Test(arguments: [0, 1, 417, 2000, MPEGStreamSniffer.junkLimit])
    func junkUpToTheLimitIsSkipped(junkBytes: Int) throws {
        let bytes = [UInt8](repeating: 0x80, count: junkBytes) + (try frames(cbr, count: 6))
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .mpegAudio(try stream(at: junkBytes)))
    }

    /// Beyond ``MPEGStreamSniffer/junkLimit`` a run must be longer: 31 frames are not enough.
    @Test func aShortRunBeyondTheJunkLimitIsNotEnough() throws {
        let count = MPEGStreamSniffer.distantRunFrames - 1
        let bytes = [UInt8](repeating: 0x80, count: MPEGStreamSniffer.junkLimit + 1) + (try frames(cbr, count: count))
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .notMPEGAudio(.unknown))
    }

    @Test(arguments: [MPEGStreamSniffer.junkLimit + 1, 64 * 1024, MPEGStreamSniffer.scanLimit])
    func aLongRunAfterKilobytesOfJunkIsFound(junkBytes: Int) throws {
        let bytes = [UInt8](repeating: 0x80, count: junkBytes) + (try frames(cbr, count: 40))
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .mpegAudio(try stream(at: junkBytes)))
        // A reader feeding a growing prefix gets the same verdict.
        #expect(MPEGStreamSniffer.sniff(Array(bytes.prefix(junkBytes)), isWholeFile: false) == .needMoreBytes)
    }

    @Test func junkBeyondTheScanLimitIsNotSearched() throws {
        let bytes = [UInt8](repeating: 0x80, count: MPEGStreamSniffer.scanLimit + 1) + (try frames(cbr, count: 40))
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .notMPEGAudio(.unknown))
        #expect(
            MPEGStreamSniffer.sniff(Array(bytes.prefix(MPEGStreamSniffer.scanLimit + 2)), isWholeFile: false)
                == .notMPEGAudio(.unknown))
    }

    // MARK: - Tags

    @Test func id3v2SizeIsSyncsafeAndCountsTheFooter() {
        #expect(MPEGStreamSniffer.id3v2TagBytes(Array("ID3".utf8)[...] + [3, 0, 0, 0, 0, 0x02, 0x01]) == 10 + 257)
        #expect(MPEGStreamSniffer.id3v2TagBytes(Array("ID3".utf8)[...] + [4, 0, 0x10, 0, 0, 0x02, 0x01]) == 20 + 257)
        #expect(MPEGStreamSniffer.id3v2TagBytes(Array("ID3".utf8)[...] + [4, 0, 0, 0, 0, 0x80, 0]) == nil)
        #expect(MPEGStreamSniffer.id3v2TagBytes(Array("ID3".utf8)[...] + [0xFF, 0, 0, 0, 0, 0, 0]) == nil)
    }

    @Test func tagsAreSkippedBeforeLookingForFrames() throws {
        let tags = SoundCorpus.id3v24WithFooter() + SoundCorpus.apeTag() + SoundCorpus.id3v23(pictureBytes: 20_000)
        let bytes = tags + (try frames(cbr, count: 5))
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .mpegAudio(try stream(at: tags.count)))
    }

    @Test func signatureAfterATagNamesTheFormat() {
        let bytes = SoundCorpus.id3v23(pictureBytes: 50) + SoundCorpus.flac()
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .notMPEGAudio(.flac))
    }

    // MARK: - Text

    @Test(
        arguments: [
            (Array("plain ASCII\n".utf8), FileKind.text),
            (Array("tabs\tand\r\nform feeds\u{C}".utf8), .text),
            (Array("caf\u{E9} \u{1F95A}".utf8), .text),
            (Array("caf".utf8) + [0xE9], .unknown),  // Latin-1: not UTF-8
            (Array("nul\u{0}".utf8), .unknown),
            (Array("escape \u{1B}[31m".utf8), .unknown),
            ([0xC0, 0xAF], .unknown),  // overlong
            ([0xED, 0xA0, 0x80], .unknown),  // surrogate
        ] as [([UInt8], FileKind)])
    func textIsValidUTF8WithoutControlCharacters(bytes: [UInt8], kind: FileKind) {
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .notMPEGAudio(kind))
    }

    /// A multi-byte character cut by the end of the text window is still text; cut by the end
    /// of the file, it is not.
    @Test func characterCutByTheWindowIsStillText() {
        let bytes = [UInt8](repeating: 0x61, count: MPEGStreamSniffer.textWindow - 1) + Array("é and more".utf8)
        #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) == .notMPEGAudio(.text))
        #expect(
            MPEGStreamSniffer.sniff(Array(bytes.prefix(MPEGStreamSniffer.textWindow)), isWholeFile: true)
                == .notMPEGAudio(.unknown))
    }

    // MARK: - Prefixes

    /// Feeding a growing prefix gives either "need more" or the whole file's verdict, and the
    /// verdict is reached within the tags plus a bounded number of bytes.
    @Test(arguments: ["cbr-44100-stereo.mp3", "vbr-44100-stereo.mp3", "two-frames.mp3", "mpeg25-8000.mp3"])
    func prefixVerdictIsNeedMoreOrTheWholeFilesVerdict(fixture: String) throws {
        let corpus: [[UInt8]] = [
            try SoundCorpus.fixture(fixture),
            SoundCorpus.id3v23(pictureBytes: 30_000) + (try SoundCorpus.fixture(fixture)),
            SoundCorpus.junk(count: 3000) + (try SoundCorpus.fixture(fixture)),
            SoundCorpus.wav(samples: SoundCorpus.noiseSamples()),
            SoundCorpus.text(),
            SoundCorpus.randomWithStraySyncWords(seed: 9),
            SoundCorpus.adts(frames: 20),
            Array("ID3".utf8),
            [],
        ]
        for bytes in corpus {
            let whole = MPEGStreamSniffer.sniff(bytes, isWholeFile: true)
            #expect(whole != .needMoreBytes)
            for length in stride(from: 0, to: bytes.count, by: 97) {
                let verdict = MPEGStreamSniffer.sniff(Array(bytes.prefix(length)), isWholeFile: false)
                #expect(verdict == .needMoreBytes || verdict == whole, "prefix \(length) of \(bytes.count): \(verdict)")
            }
        }
    }

    private func stream(at offset: Int) throws -> MPEGStreamSniffer.Stream {
        MPEGStreamSniffer.Stream(firstFrameOffset: offset, firstHeader: try #require(MPEGFrameHeader(cbr[...])))
    }

    // MARK: - Boundary bytes

    /// Fills of the boundary bytes (0x00, 0x7F, 0x80, 0xFF) at boundary lengths, and tag headers
    /// announcing the largest sizes their fields hold: a verdict, and a prefix's verdict is
    /// "need more bytes" or the whole file's, never a trap.
    @Test(arguments: [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF] as [UInt8])
    func boundaryFillsGetAVerdict(byte: UInt8) {
        for length in [0, 1, 2, 3, 4, 5, 9, 10, 31, 32, 127, 128, 255, 256, 4095, 4096, 65_536] {
            let bytes = [UInt8](repeating: byte, count: length)
            let whole = MPEGStreamSniffer.sniff(bytes, isWholeFile: true)
            #expect(whole != .needMoreBytes)
            let prefix = MPEGStreamSniffer.sniff(Array(bytes.prefix(length / 2)), isWholeFile: false)
            #expect(prefix == .needMoreBytes || prefix == whole, "\(byte) × \(length)")
        }
    }

    @Test(
        arguments: [
            [0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x7F, 0x7F, 0x7F, 0x7F],  // ID3v2, the largest syncsafe size
            [0x49, 0x44, 0x33, 0x04, 0x00, 0x10, 0x7F, 0x7F, 0x7F, 0x7F],  // … with a footer
            [0x49, 0x44, 0x33, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // not syncsafe
            [0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],  // empty
            Array("APETAGEX".utf8) + [0xD0, 0x07, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0xFF, count: 16),
            Array("APETAGEX".utf8) + [UInt8](repeating: 0x80, count: 24),
        ] as [[UInt8]])
    func tagsAnnouncingExtremeSizesGetAVerdict(header: [UInt8]) {
        for tail in [[], [UInt8](repeating: 0xFF, count: 4096), [0xFF, 0xFB, 0x90, 0x64]] as [[UInt8]] {
            let bytes = header + tail
            #expect(MPEGStreamSniffer.sniff(bytes, isWholeFile: true) != .needMoreBytes)
            _ = MPEGStreamSniffer.sniff(bytes, isWholeFile: false)
        }
    }
}
