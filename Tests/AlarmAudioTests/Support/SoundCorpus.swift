import Glibc
import Testing

@testable import AlarmAudio

/// Files for the sniffer and decoder tests, made in memory: WAVs like the ones alsa-utils installs,
/// other formats' signatures, MP3 tags, and the committed MP3 fixtures.
enum SoundCorpus {
    // MARK: - MP3 fixtures (Tests/AlarmAudioTests/Fixtures, made by make-fixtures.sh)

    /// `Tests/AlarmAudioTests/Fixtures`, found from this file's location.
    static let fixturesDirectory: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)  // SoundCorpus.swift, Support/
        return parts.joined(separator: "/") + "/Fixtures"
    }()

    /// A fixture's bytes; a missing fixture stops the test with its path.
    static func fixture(_ name: String) throws -> [UInt8] {
        try #require(TestFiles.read(fixturesDirectory + "/" + name), "fixture \(fixturesDirectory)/\(name) missing")
    }

    // MARK: - WAV

    /// A canonical 44-byte-header WAV file, as alsa-utils' test sounds are (48 kHz, mono, 16-bit).
    /// - Parameters:
    ///   - samples: Interleaved 16-bit samples.
    ///   - sampleRate: In Hz.
    ///   - channels: 1 or 2.
    ///   - formatTag: 1 for PCM; anything else claims another codec (0x11: IMA ADPCM).
    /// - Returns: The whole file.
    static func wav(samples: [Int16], sampleRate: Int = 48_000, channels: Int = 1, formatTag: Int = 1) -> [UInt8] {
        let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
        return ascii("RIFF") + le32(36 + data.count) + ascii("WAVE") + ascii("fmt ") + le32(16) + le16(formatTag)
            + le16(channels) + le32(sampleRate) + le32(sampleRate * channels * 2) + le16(channels * 2) + le16(16)
            + ascii("data") + le32(data.count) + data
    }

    /// Band-limited noise like alsa-utils' Noise.wav.
    ///
    /// 1.4 s at 48 kHz, mono, peaks near ±4000 (about −18 dBFS). Small samples put many 0xFF and 0x00–0x0F bytes in the data, which read as
    /// MPEG headers: the decoder before the sniffer played this (seed 7) as 0.05 s of full-scale
    /// garbage, as it did the real Noise.wav.
    static func noiseSamples(seed: UInt64 = 7) -> [Int16] {
        var level = 0.0
        return TestFiles.randomBytes(count: 67_200, seed: seed).map { byte in
            level = 0.6 * level + 0.4 * Double(Int(byte) - 128) * 40  // one-pole low-pass
            return Int16(level)
        }
    }

    /// A spoken-word stand-in, like alsa-utils' Front_Left.wav and friends.
    ///
    /// 1.3 s at 48 kHz, mono: syllables of a gliding tone whose loudness rises and falls, with quiet gaps and low noise.
    /// The decoder before the sniffer played 768 frames of silence from it and warned "format
    /// changed mid-stream", as it did for most of the real ones.
    static func speechLikeSamples() -> [Int16] {
        let noise = TestFiles.randomBytes(count: 62_400, seed: 11)
        return (0..<62_400).map { n in
            let t = Double(n) / 48_000
            let syllable = max(0, sin(Double.pi * t * 7))  // 3.5 syllables a second, gaps between
            let pitch = 140 + 60 * sin(2 * Double.pi * 1.3 * t)
            let voiced = 14_000 * syllable * sin(2 * Double.pi * pitch * t * (1 + 0.3 * sin(2 * Double.pi * 5 * t)))
            return Int16(voiced + Double(Int(noise[n]) - 128) * 2)
        }
    }

    // MARK: - Other formats

    /// ADTS AAC: `frames` frames of `frameBytes` bytes each (44.1 kHz, stereo, AAC LC), payload random.
    static func adts(frames: Int, frameBytes: Int = 371) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<frames {
            // FFF1: sync, MPEG-4, layer 00, no CRC; 0x50: AAC LC, 44.1 kHz (index 4); channels 2.
            let header: [UInt8] = [
                0xFF, 0xF1, 0x50, 0x80 | UInt8(frameBytes >> 11), UInt8((frameBytes >> 3) & 0xFF),
                UInt8((frameBytes & 7) << 5) | 0x1F, 0xFC,
            ]
            bytes += header + TestFiles.randomBytes(count: frameBytes - 7, seed: UInt64(index + 1))
        }
        return bytes
    }

    /// An MP4/M4A start: an `ftyp` box (brand M4A) and the head of an `mdat` box of random data.
    static func mp4() -> [UInt8] {
        be32(24) + ascii("ftypM4A ") + be32(0) + ascii("M4A isom") + be32(4104) + ascii("mdat")
            + TestFiles.randomBytes(count: 4096, seed: 21)
    }

    /// An Ogg page header (Vorbis identification packet follows) and random data.
    static func ogg() -> [UInt8] {
        ascii("OggS") + [0, 2] + [UInt8](repeating: 0, count: 20) + [1, 30] + [1] + ascii("vorbis")
            + TestFiles.randomBytes(count: 4096, seed: 22)
    }

    /// A FLAC stream header (`fLaC`, STREAMINFO) and random frames.
    static func flac() -> [UInt8] {
        ascii("fLaC") + [0x80, 0, 0, 34] + TestFiles.randomBytes(count: 4096 + 34, seed: 23)
    }

    /// A 64-bit little-endian x86-64 ELF header followed by random code-like bytes.
    static func elf() -> [UInt8] {
        [0x7F] + ascii("ELF") + [2, 1, 1, 0] + [UInt8](repeating: 0, count: 8) + [3, 0, 0x3E, 0]
            + TestFiles.randomBytes(count: 8192, seed: 24)
    }

    /// About 12 KiB of English text with a few multi-byte UTF-8 characters.
    static func text() -> [UInt8] {
        ascii(
            String(
                repeating: "Boil the eggs for seven minutes — then cool them in cold water. Œufs à la coque.\n",
                count: 150))
    }

    /// Random bytes with MPEG sync words (`FF FB 90 64`: MPEG-1 Layer III, 128 kbit/s, 44.1 kHz)
    /// scattered through them: each a valid header, but never followed by a second one.
    static func randomWithStraySyncWords(seed: UInt64) -> [UInt8] {
        var bytes = TestFiles.randomBytes(count: 64 * 1024, seed: seed)
        for offset in stride(from: 100, to: bytes.count - 4, by: 4000) {
            bytes.replaceSubrange(offset..<(offset + 4), with: [0xFF, 0xFB, 0x90, 0x64])
        }
        return bytes
    }

    // MARK: - MP3 tags

    /// An ID3v2.3 tag with a title and an attached picture of `pictureBytes` bytes (random data,
    /// after a JPEG signature, so it holds stray sync words), plus `padding` zero bytes.
    static func id3v23(pictureBytes: Int, padding: Int = 0) -> [UInt8] {
        let title = id3Frame23("TIT2", [0] + ascii("Alarm"))
        let picture = id3Frame23(
            "APIC",
            [0] + ascii("image/jpeg") + [0, 3, 0] + [0xFF, 0xD8, 0xFF, 0xE0]
                + TestFiles.randomBytes(count: pictureBytes, seed: 31))
        let frames = title + picture + [UInt8](repeating: 0, count: padding)
        return ascii("ID3") + [3, 0, 0] + syncsafe(frames.count) + frames
    }

    /// An ID3v2.4 tag with the footer flag set, and its footer.
    static func id3v24WithFooter() -> [UInt8] {
        let text = [3] + ascii("Alarm")  // UTF-8 encoding
        let frames = ascii("TIT2") + syncsafe(text.count) + [0, 0] + text
        return ascii("ID3") + [4, 0, 0x10] + syncsafe(frames.count) + frames + ascii("3DI") + [4, 0, 0x10]
            + syncsafe(frames.count)
    }

    /// A 128-byte ID3v1.1 tag.
    static func id3v1() -> [UInt8] {
        func field(_ text: String, _ bytes: Int) -> [UInt8] {
            Array((ascii(text) + [UInt8](repeating: 0, count: bytes)).prefix(bytes))
        }
        return ascii("TAG") + field("Alarm", 30) + field("Eggtimer", 30) + field("Kitchen", 30) + ascii("2024")
            + field("fixture", 28) + [0, 1, 12]
    }

    /// An APEv2 tag with a header, two items and a footer.
    static func apeTag() -> [UInt8] {
        func item(_ key: String, _ value: String) -> [UInt8] {
            le32(value.utf8.count) + le32(0) + ascii(key) + [0] + ascii(value)
        }
        let items = item("Title", "Alarm") + item("Artist", "Eggtimer")
        func frame(isHeader: Bool) -> [UInt8] {
            let flags = 0x8000_0000 | (isHeader ? 0x2000_0000 : 0)  // has a header; this is the header
            return ascii("APETAGEX") + le32(2000) + le32(items.count + 32) + le32(2) + le32(flags)
                + [UInt8](repeating: 0, count: 8)
        }
        return frame(isHeader: true) + items + frame(isHeader: false)
    }

    /// Pseudo-random junk of `count` bytes with an MPEG sync word (`FF FB 90 64`) every 250 bytes.
    static func junk(count: Int) -> [UInt8] {
        var bytes = TestFiles.randomBytes(count: count, seed: 41)
        for offset in stride(from: 10, to: count - 4, by: 250) {
            bytes.replaceSubrange(offset..<(offset + 4), with: [0xFF, 0xFB, 0x90, 0x64])
        }
        return bytes
    }

    /// Junk holding two consecutive MPEG-2 frames (22.05 kHz mono, 64 kbit/s, 208 bytes each, all
    /// zeros after the header): enough for libmpg123 to start decoding there, too few for a run.
    static func junkWithTwoStrayFrames() -> [UInt8] {
        let frame = [0xFF, 0xF3, 0x80, 0xC4] + [UInt8](repeating: 0, count: 204)
        return TestFiles.randomBytes(count: 500, seed: 42) + frame + frame + TestFiles.randomBytes(count: 300, seed: 43)
    }

    // MARK: - Bytes

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16((value >> 16) & 0xFFFF) }
    static func be32(_ value: Int) -> [UInt8] { le32(value).reversed() }
    /// A 28-bit syncsafe integer, as ID3v2 sizes are written: 7 bits per byte, big-endian.
    static func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7F) } }

    private static func id3Frame23(_ id: String, _ body: [UInt8]) -> [UInt8] {
        ascii(id) + be32(body.count) + [0, 0] + body
    }
}
