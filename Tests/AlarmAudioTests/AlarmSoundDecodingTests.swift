import Dispatch
import Glibc
import Synchronization
import SystemKit
import Testing

@testable import AlarmAudio

@Suite struct AlarmSoundDecodingTests {
    /// A sound cut at the length cap (or at a format change) is cut on purpose: one "longer than"
    /// warning, never a false "truncated" one.
    @Test func aSoundCutAtTheLengthCapIsNotReportedTruncated() throws {
        let bytes = try #require(TestFiles.read(TestFiles.shippedSoundPath()))
        var reader = try MP3SoundReader(name: "capped.mp3", cutAfter: .seconds(1))
        bytes.withUnsafeBytes { reader.feed($0) }
        let sound = try reader.finish(readError: nil)
        #expect(sound.frames == 44_100)
        #expect(sound.warnings == ["longer than 1.0 s: playing the first part only"])
    }

    /// 1.5 s at 44.1 kHz, as scripts/make-alarm-sound.sh generates it.
    static let expectedFrames = 66_150
    /// The shipped sound's largest |sample|, about −4.4 dBFS.
    ///
    /// 19 689 from libmpg123 and the mpg123 CLI here, 19 690 by the generator's account. libmpg123
    /// picks a CPU-specific synthesis filter whose rounding can differ in the last bit, hence the
    /// few units of slack.
    static let shippedPeak = 19_680...19_700
    /// −3 dBFS of full scale (32 767).
    static let peakLimit = 23_197

    @Test func shippedSoundDecodesGaplesslyToItsExactSourceLength() throws {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        #expect(sound.sampleRate == 44_100)
        #expect(sound.channels == 2)
        #expect(sound.frames == Self.expectedFrames)
        #expect(sound.samples.count == Self.expectedFrames * 2)
        #expect(sound.duration == .milliseconds(1500))
        #expect(sound.warnings.isEmpty)
    }

    @Test func shippedSoundPeaksAtItsGeneratedLevelBelowMinus3dBFS() throws {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        #expect(Self.shippedPeak.contains(sound.peakAmplitude), "peak \(sound.peakAmplitude)")
        #expect(sound.peakAmplitude <= Self.peakLimit)
    }

    @Test(
        arguments: [
            ([], 0),
            ([0, 0, 0, 0], 0),
            ([3, -7, 5, 1], 7),
            ([Int16.max, 0], 32_767),
            ([0, Int16.min], 32_768),
        ] as [([Int16], Int)])
    func peakAmplitudeIsTheLargestAbsoluteSample(samples: [Int16], peak: Int) {
        #expect(AlarmSound(samples: samples, sampleRate: 44_100, channels: 2).peakAmplitude == peak)
    }

    @Test func decodingFromMemoryGivesTheSameSoundAsFromTheFile() throws {
        let path = TestFiles.shippedSoundPath()
        let bytes = try #require(TestFiles.read(path))
        #expect(try AlarmSound.decode(bytes: bytes) == AlarmSound.decode(path: path))
    }

    @Test func symbolicLinkToTheSoundDecodesLikeTheSoundItself() throws {
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let link = directory + "/alarm.mp3"
        try #require(symlink(TestFiles.shippedSoundPath(), link) == 0)

        #expect(try AlarmSound.decode(path: link) == AlarmSound.decode(path: TestFiles.shippedSoundPath()))
    }

    @Test func missingFileIsSoundNotFound() {
        #expect(throws: AlarmError.soundNotFound(path: "/nonexistent/alarm.mp3", reason: "No such file or directory")) {
            try AlarmSound.decode(path: "/nonexistent/alarm.mp3")
        }
    }

    @Test func directoryIsSoundNotFound() throws {
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/sounds.mp3"
        try #require(mkdir(path, 0o700) == 0)

        #expect(throws: AlarmError.soundNotFound(path: path, reason: "not a regular file (a directory)")) {
            try AlarmSound.decode(path: path)
        }
    }

    /// A named pipe is refused before anything blocks on it.
    ///
    /// Before the fix `open` waited forever for a writer. The decode runs on a thread of its own,
    /// so if that comes back the test fails (after a safety valve) instead of hanging.
    @Test func namedPipeIsRefusedAtOnceInsteadOfBlocking() throws {
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/alarm.mp3"
        try #require(mkfifo(path, 0o600) == 0)

        let (outcome, unblocked) = try decodeUnblockingFIFO(path)

        #expect(!unblocked, "decode(path:) blocked on a named pipe until the test opened its write end")
        #expect(outcome == .failure(.soundNotFound(path: path, reason: "not a regular file (a named pipe)")))
    }

    /// A device would block (a terminal) or never end (`/dev/zero`): refused before any read.
    @Test(arguments: ["/dev/zero", "/dev/null", "/dev/urandom"])
    func deviceIsSoundNotFound(path: String) {
        #expect(throws: AlarmError.soundNotFound(path: path, reason: "not a regular file (a device)")) {
            try AlarmSound.decode(path: path)
        }
    }

    @Test func emptyFileIsUnreadable() throws {
        try expectUnreadable([], reason: "empty file")
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomBytesAreUnknownData(seed: UInt64) throws {
        try expectUnreadable(TestFiles.randomBytes(count: 64 * 1024, seed: seed), reason: FileKind.unknown.reason)
    }

    /// Enough zeros that libmpg123 would give up resyncing (`MPG123_RESYNC_FAIL`); the sniffer
    /// refuses them before libmpg123 sees them.
    @Test func megabyteOfZerosIsUnknownData() throws {
        try expectUnreadable([UInt8](repeating: 0, count: 1 << 20), reason: FileKind.unknown.reason)
    }

    @Test func textFileIsCalledText() throws {
        let text = String(repeating: "Boil the eggs for seven minutes, then cool them in cold water.\n", count: 200)
        try expectUnreadable(Array(text.utf8), reason: FileKind.text.reason)
    }

    /// Short and long WAV files both say what they are; before the sniffer, the long one (libmpg123
    /// gives up resyncing) and the short one took different paths to their messages.
    @Test(arguments: [22_050, 441_000])
    func wavFileNamedMP3IsCalledAWAVFile(frames: Int) throws {
        try expectUnreadable(TestFiles.wavBytes(frames: frames), reason: FileKind.wav(isPCM: true).reason)
    }

    @Test(
        arguments: [
            (Array("fLaC".utf8), FileKind.flac),
            (Array("OggS".utf8), .ogg),
            ([0, 0, 0, 32] + Array("ftypM4A ".utf8), .mp4),
            (Array("FORM".utf8) + [0, 0, 16, 0] + Array("AIFF".utf8), .aiff),
        ] as [([UInt8], FileKind)])
    func otherAudioFormatsSayWhatTheyLookLike(head: [UInt8], kind: FileKind) throws {
        try expectUnreadable(head + [UInt8](repeating: 0, count: 4096), reason: kind.reason)
    }

    /// A truncated MP3 does not throw: it decodes fewer frames and says so in `warnings`.
    @Test func truncatedMP3DecodesFewerFramesWithATruncationWarning() throws {
        let bytes = try #require(TestFiles.read(TestFiles.shippedSoundPath()))
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/truncated.mp3"
        TestFiles.write(Array(bytes.prefix(bytes.count * 6 / 10)), to: path)

        let sound = try AlarmSound.decode(path: path)

        #expect(sound.frames > 0)
        #expect(sound.frames < Self.expectedFrames)
        #expect(sound.warnings.count == 1)
        #expect(sound.warnings.first?.hasPrefix("truncated: decoded 0.") == true)
        #expect(sound.warnings.first?.contains("of 1.5 s") == true)
    }

    /// MP3 data that turns into garbage keeps what decoded, and the warning says the data is
    /// corrupt, with libmpg123's text (without its "(code N)") as the detail.
    @Test func mp3FollowedByGarbageKeepsWhatDecodedWithACorruptionWarning() throws {
        let bytes = try #require(TestFiles.read(TestFiles.shippedSoundPath()))
        let sound = try AlarmSound.decode(
            bytes: Array(bytes.prefix(bytes.count / 2)) + [UInt8](repeating: 0, count: 1 << 20))

        #expect(sound.frames > 0)
        #expect(sound.frames < Self.expectedFrames)
        #expect(
            sound.warnings == [
                "truncated: decoded \(sound.frames * 10 / 44_100 / 10).\(sound.frames * 10 / 44_100 % 10) s, then the data is "
                    + "corrupt (Failed to find valid MPEG data within limit on resync)"
            ])
    }

    @Test func truncatedSoundIsAPrefixOfTheWholeSound() throws {
        let bytes = try #require(TestFiles.read(TestFiles.shippedSoundPath()))
        let whole = try AlarmSound.decode(bytes: bytes)
        let part = try AlarmSound.decode(bytes: Array(bytes.prefix(bytes.count * 6 / 10)))
        #expect(Array(whole.samples.prefix(part.samples.count)) == part.samples)
    }

    @Test(
        arguments: [
            (28, "Failed to find valid MPEG data within limit on resync"),
            (11, "Unable to initialize frame buffers (out of memory?)"),
            (33, "Inappropriate NULL-pointer provided"),
        ] as [(Int32, String)])
    func libraryTextLosesItsCodeSuffixWhenQuoted(code: Int32, text: String) {
        #expect(MPG123Error(code: code, function: "mpg123_read").plainMessage == text)
    }

    /// Writes `bytes` to a file named .mp3 and expects both decoders to call it unreadable.
    private func expectUnreadable(_ bytes: [UInt8], reason: String) throws {
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/sound.mp3"
        TestFiles.write(bytes, to: path)

        #expect(throws: AlarmError.unreadableSound(path: path, reason: reason)) { try AlarmSound.decode(path: path) }
        #expect(throws: AlarmError.unreadableSound(path: "<memory>", reason: reason)) {
            try AlarmSound.decode(bytes: bytes)
        }
    }

    /// What a decode on another thread returned, written on that thread before it ends.
    private final class Outcome: Sendable {
        let result = Mutex<Result<AlarmSound, AlarmError>?>(nil)
    }

    /// Decodes `path` on a thread of its own, unblocking it if it hangs on a FIFO.
    ///
    /// If that has not returned within 10 s (blocked opening
    /// the FIFO, the bug this guards against), opens the FIFO's write end and closes it again: the
    /// blocked `open` then returns and the read sees end-of-file, so the test fails and never hangs.
    /// - Returns: What the decode returned or threw, and whether it had to be unblocked.
    private func decodeUnblockingFIFO(
        _ path: String
    ) throws -> (outcome: Result<AlarmSound, AlarmError>?, unblocked: Bool) {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = try SystemThread.start {
            let result = Result { () throws(AlarmError) in try AlarmSound.decode(path: path) }
            outcome.result.withLock { $0 = result }
            done.signal()
        }.get()
        var unblocked = false
        if done.wait(timeout: .now() + 10) == .timedOut {
            unblocked = true
            let writer = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            if writer >= 0 { close(writer) }
        }
        thread.join()
        return (outcome.result.withLock { $0 }, unblocked)
    }
}
