import Testing

@testable import AlarmAudio

/// MP3 files of every kind the alarm must still play, exactly: the committed fixtures (CBR, VBR
/// with a Xing tag, MPEG-2 and MPEG-2.5 rates, mono, LAME's own tags, two frames) and copies of
/// one of them with tags, padding and junk added, which must decode to the same samples.
@Suite struct MP3CorpusTests {
    /// One committed fixture and what a gapless decoder gives back (FIXTURES.txt).
    struct Fixture: CustomTestStringConvertible, Sendable {
        let name: String
        let sampleRate: Int
        let channels: Int
        let frames: Int
        var testDescription: String { name }
    }

    static let fixtures: [Fixture] = [
        Fixture(name: "cbr-44100-stereo.mp3", sampleRate: 44_100, channels: 2, frames: 4410),
        Fixture(name: "vbr-44100-stereo.mp3", sampleRate: 44_100, channels: 2, frames: 8820),
        Fixture(name: "cbr-48000-stereo.mp3", sampleRate: 48_000, channels: 2, frames: 4800),
        Fixture(name: "cbr-32000-stereo.mp3", sampleRate: 32_000, channels: 2, frames: 3200),
        Fixture(name: "mono-44100.mp3", sampleRate: 44_100, channels: 1, frames: 4410),
        Fixture(name: "mpeg2-22050.mp3", sampleRate: 22_050, channels: 2, frames: 4410),
        Fixture(name: "mpeg2-24000.mp3", sampleRate: 24_000, channels: 1, frames: 4800),
        Fixture(name: "mpeg2-16000.mp3", sampleRate: 16_000, channels: 2, frames: 3200),
        Fixture(name: "mpeg25-11025.mp3", sampleRate: 11_025, channels: 2, frames: 2205),
        Fixture(name: "mpeg25-12000.mp3", sampleRate: 12_000, channels: 1, frames: 2400),
        Fixture(name: "mpeg25-8000.mp3", sampleRate: 8000, channels: 1, frames: 1600),
        Fixture(name: "lame-tags.mp3", sampleRate: 44_100, channels: 2, frames: 4410),
        Fixture(name: "two-frames.mp3", sampleRate: 44_100, channels: 2, frames: 2 * 1152),
    ]

    /// The table above is what make-fixtures.sh checked with mpg123 and recorded.
    @Test func fixtureTableMatchesTheManifestTheGeneratorWrote() throws {
        let manifest = try #require(TestFiles.read(SoundCorpus.fixturesDirectory + "/FIXTURES.txt"))
        let lines = String(decoding: manifest, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let table = Self.fixtures.map { "\($0.name) \($0.sampleRate) \($0.channels) \($0.frames)" }
        #expect(lines.map(String.init) == table)
    }

    @Test(arguments: fixtures)
    func fixtureDecodesGaplesslyToItsSourceLength(fixture: Fixture) throws {
        let path = SoundCorpus.fixturesDirectory + "/" + fixture.name
        let sound = try AlarmSound.decode(path: path)
        #expect(sound.sampleRate == fixture.sampleRate)
        #expect(sound.channels == fixture.channels)
        #expect(sound.frames == fixture.frames)
        #expect(sound.warnings.isEmpty)
        // The source is a sine at half of full scale (16 384); lossy coding moves the peak a little.
        #expect((13_000...20_000).contains(sound.peakAmplitude), "peak \(sound.peakAmplitude)")
        #expect(try AlarmSound.decode(bytes: SoundCorpus.fixture(fixture.name)) == sound)
    }

    @Test func lameTaggedFixtureDecodesLikeTheUntaggedOne() throws {
        let tagged = try AlarmSound.decode(bytes: SoundCorpus.fixture("lame-tags.mp3"))
        let plain = try AlarmSound.decode(bytes: SoundCorpus.fixture("cbr-44100-stereo.mp3"))
        #expect(tagged == plain)
    }

    /// How a copy of cbr-44100-stereo.mp3 is dressed up.
    struct Dressing: CustomTestStringConvertible, Sendable {
        let label: String
        let before: [UInt8]
        let after: [UInt8]
        var testDescription: String { label }
    }

    static let dressings: [Dressing] = [
        Dressing(label: "100 KB ID3v2.3 picture", before: SoundCorpus.id3v23(pictureBytes: 100_000), after: []),
        Dressing(
            label: "ID3v2.3 with 4 KB padding", before: SoundCorpus.id3v23(pictureBytes: 300, padding: 4096), after: []),
        Dressing(label: "ID3v2.4 with footer", before: SoundCorpus.id3v24WithFooter(), after: []),
        Dressing(
            label: "two ID3v2 tags", before: SoundCorpus.id3v24WithFooter() + SoundCorpus.id3v23(pictureBytes: 2000),
            after: []),
        Dressing(label: "leading APE tag", before: SoundCorpus.apeTag(), after: []),
        Dressing(label: "ID3v1 tail", before: [], after: SoundCorpus.id3v1()),
        Dressing(label: "APE tail", before: [], after: SoundCorpus.apeTag()),
        Dressing(label: "APE and ID3v1 tails", before: [], after: SoundCorpus.apeTag() + SoundCorpus.id3v1()),
        Dressing(
            label: "ID3v2 head, APE and ID3v1 tails", before: SoundCorpus.id3v23(pictureBytes: 5000),
            after: SoundCorpus.apeTag() + SoundCorpus.id3v1()),
        Dressing(label: "1000 bytes of junk with sync words first", before: SoundCorpus.junk(count: 1000), after: []),
        Dressing(label: "junk at the limit", before: SoundCorpus.junk(count: MPEGStreamSniffer.junkLimit), after: []),
        Dressing(
            label: "junk after an ID3v2 tag",
            before: SoundCorpus.id3v23(pictureBytes: 500) + SoundCorpus.junk(count: 700), after: []),
        Dressing(
            label: "junk with two stray frames of another format", before: SoundCorpus.junkWithTwoStrayFrames(),
            after: []),
        Dressing(label: "zeros before the first frame", before: [UInt8](repeating: 0, count: 3000), after: []),
    ]

    @Test(arguments: dressings)
    func taggedOrPaddedCopyDecodesToTheSameSamples(dressing: Dressing) throws {
        let plainBytes = try SoundCorpus.fixture("cbr-44100-stereo.mp3")
        let plain = try AlarmSound.decode(bytes: plainBytes)
        let bytes = dressing.before + plainBytes + dressing.after
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        TestFiles.write(bytes, to: directory + "/dressed.mp3")

        #expect(try AlarmSound.decode(path: directory + "/dressed.mp3") == plain)
        #expect(try AlarmSound.decode(bytes: bytes) == plain)
    }

    /// Issue 21: the shipped sound after kilobytes of other bytes (a damaged or unknown tag, junk
    /// with stray sync words) decodes to the same samples, from a file and from memory.
    @Test(arguments: [4 * 1024, 64 * 1024])
    func theShippedSoundAfterKilobytesOfJunkDecodes(junkBytes: Int) throws {
        let plainBytes = try #require(TestFiles.read(TestFiles.shippedSoundPath()))
        let plain = try AlarmSound.decode(bytes: plainBytes)
        let bytes = SoundCorpus.junk(count: junkBytes) + plainBytes
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        TestFiles.write(bytes, to: directory + "/junk-first.mp3")
        #expect(try AlarmSound.decode(path: directory + "/junk-first.mp3") == plain)
        #expect(try AlarmSound.decode(bytes: bytes) == plain)
    }

    /// One byte more junk than the scan covers, and the file is not taken for MP3.
    @Test func junkBeyondTheScanLimitIsNotAnMP3File() throws {
        let bytes =
            try SoundCorpus.junk(count: MPEGStreamSniffer.scanLimit + 1) + SoundCorpus.fixture("cbr-44100-stereo.mp3")
        #expect(throws: AlarmError.unreadableSound(path: "<memory>", reason: FileKind.unknown.reason)) {
            try AlarmSound.decode(bytes: bytes)
        }
    }

    /// The two-frame fixture with an ID3v1 tag after it still passes: the run ends at the tag.
    @Test func twoFrameFileWithATrailingTagPlays() throws {
        let bytes = try SoundCorpus.fixture("two-frames.mp3")
        let tagged = try AlarmSound.decode(bytes: bytes + SoundCorpus.id3v1())
        #expect(tagged == (try AlarmSound.decode(bytes: bytes)))
        #expect(tagged.frames == 2304)
    }

    /// One frame is too little to tell from a stray sync word: refused.
    @Test func oneFrameIsNotEnough() throws {
        let bytes = try SoundCorpus.fixture("two-frames.mp3")
        let first = try #require(MPEGFrameHeader(bytes[...]))
        #expect(throws: AlarmError.unreadableSound(path: "<memory>", reason: FileKind.unknown.reason)) {
            try AlarmSound.decode(bytes: Array(bytes.prefix(first.frameBytes)))
        }
    }
}
