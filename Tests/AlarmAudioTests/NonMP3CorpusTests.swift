import Glibc
import TestSupport
import Testing

@testable import AlarmAudio

/// Files that are not MP3 are refused before decoding, with a reason that says what they look
/// like and how to convert them (issue 9, item 7): the alsa-utils test WAVs (made here to the same
/// recipe, so the test does not need that package), other audio formats, programs, text and
/// random bytes with stray MPEG sync words.
@Suite struct NonMP3CorpusTests {
    /// One generated file and the kind it must be called.
    struct Sample: CustomTestStringConvertible, Sendable {
        let label: String
        let bytes: [UInt8]
        let kind: FileKind
        var testDescription: String { label }
    }

    static let samples: [Sample] = [
        // alsa-utils' WAVs: 48 kHz mono 16-bit PCM, canonical header. Noise.wav used to play
        // full-scale decoder garbage; the spoken ones fell back behind "format changed mid-stream".
        Sample(
            label: "Noise.wav (band-limited noise)", bytes: SoundCorpus.wav(samples: SoundCorpus.noiseSamples()),
            kind: .wav(isPCM: true)),
        Sample(
            label: "Front_Left.wav (speech-like)", bytes: SoundCorpus.wav(samples: SoundCorpus.speechLikeSamples()),
            kind: .wav(isPCM: true)),
        Sample(
            label: "stereo 44.1 kHz WAV",
            bytes: SoundCorpus.wav(samples: SoundCorpus.noiseSamples(seed: 3), sampleRate: 44_100, channels: 2),
            kind: .wav(isPCM: true)),
        Sample(
            label: "IMA ADPCM WAV", bytes: SoundCorpus.wav(samples: SoundCorpus.noiseSamples(seed: 4), formatTag: 0x11),
            kind: .wav(isPCM: false)),
        Sample(
            label: "WAV after an ID3v2 tag",
            bytes: SoundCorpus.id3v23(pictureBytes: 200) + SoundCorpus.wav(samples: SoundCorpus.noiseSamples()),
            kind: .wav(isPCM: true)),
        Sample(label: "ADTS AAC", bytes: SoundCorpus.adts(frames: 40), kind: .adtsAAC),
        Sample(
            label: "ADTS AAC after an ID3v2 tag",
            bytes: SoundCorpus.id3v23(pictureBytes: 100) + SoundCorpus.adts(frames: 40), kind: .adtsAAC),
        Sample(label: "MP4/M4A (ftyp)", bytes: SoundCorpus.mp4(), kind: .mp4),
        Sample(label: "Ogg Vorbis", bytes: SoundCorpus.ogg(), kind: .ogg),
        Sample(label: "FLAC", bytes: SoundCorpus.flac(), kind: .flac),
        Sample(label: "ELF", bytes: SoundCorpus.elf(), kind: .elf),
        Sample(label: "UTF-8 text", bytes: SoundCorpus.text(), kind: .text),
        Sample(
            label: "random bytes with stray sync words 1", bytes: SoundCorpus.randomWithStraySyncWords(seed: 1),
            kind: .unknown),
        Sample(
            label: "random bytes with stray sync words 2", bytes: SoundCorpus.randomWithStraySyncWords(seed: 2),
            kind: .unknown),
        Sample(label: "a megabyte of zeros", bytes: [UInt8](repeating: 0, count: 1 << 20), kind: .unknown),
        Sample(label: "an ID3v2 tag alone", bytes: SoundCorpus.id3v23(pictureBytes: 3000), kind: .tagsWithoutAudio),
        Sample(
            label: "an ID3v2 tag cut short", bytes: Array(SoundCorpus.id3v23(pictureBytes: 3000).prefix(2000)),
            kind: .tagsWithoutAudio),
        Sample(label: "empty", bytes: [], kind: .empty),
    ]

    @Test(arguments: samples)
    func nonMP3FileIsRefusedNamingWhatItLooksLike(sample: Sample) throws {
        try expectRefused(sample.bytes, kind: sample.kind)
    }

    /// The reasons read as the issue asks: what it looks like, then how to convert it.
    @Test(
        arguments: [
            (FileKind.wav(isPCM: true), "a WAV file, not MP3; convert it with: lame in.wav out.mp3"),
            (.mp4, "an MP4/M4A file (AAC or ALAC audio), not MP3; convert it with: ffmpeg -i in.m4a out.mp3"),
            (.adtsAAC, "AAC audio (ADTS stream), not MP3; convert it with: ffmpeg -i in.aac out.mp3"),
            (.elf, "an ELF executable or library, not audio; the alarm sound must be an MP3 file"),
            (.text, "a text file, not audio; the alarm sound must be an MP3 file"),
        ])
    func reasonSaysWhatItLooksLikeAndHowToConvertIt(kind: FileKind, reason: String) {
        #expect(kind.reason == reason)
    }

    /// `ls` itself, copied: a real program, not a made-up header.
    @Test func theLsProgramIsAnELFFile() throws {
        let ls = try #require(TestFiles.read(SystemTool.ls.path), "cannot read \(SystemTool.ls)")
        try expectRefused(ls, kind: .elf)
    }

    /// Other signatures, each at the start of otherwise random data.
    @Test(
        arguments: [
            (Array("FORM".utf8) + [0, 0, 16, 0] + Array("AIFF".utf8), FileKind.aiff),
            ([0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11], .asf),
            ([0x1A, 0x45, 0xDF, 0xA3], .matroska),
            (Array("MThd".utf8), .midi),
            (Array(".snd".utf8), .sunAudio),
            ([0x1F, 0x8B, 8, 0], .gzip),
            (Array("PK".utf8) + [3, 4], .zip),
            ([0xFD] + Array("7zXZ".utf8) + [0], .xz),
            (Array("BZh9".utf8), .bzip2),
            ([0x89] + Array("PNG\r\n".utf8) + [0x1A, 0x0A], .png),
            ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
            (Array("GIF89a".utf8), .gif),
            (Array("%PDF-1.7\n".utf8) + [0xE2, 0xE3, 0xCF, 0xD3], .pdf),
        ] as [([UInt8], FileKind)])
    func signatureNamesTheFormat(signature: [UInt8], kind: FileKind) throws {
        try expectRefused(signature + TestFiles.randomBytes(count: 8192, seed: 5), kind: kind)
    }

    /// Writes `bytes` to a file named .mp3 and expects both decoders to refuse it as `kind`.
    private func expectRefused(_ bytes: [UInt8], kind: FileKind) throws {
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/sound.mp3"
        TestFiles.write(bytes, to: path)

        #expect(throws: AlarmError.unreadableSound(path: path, reason: kind.reason)) {
            try AlarmSound.decode(path: path)
        }
        #expect(throws: AlarmError.unreadableSound(path: "<memory>", reason: kind.reason)) {
            try AlarmSound.decode(bytes: bytes)
        }
    }
}
