import Testing

@testable import AlarmAudio

@Suite struct AlarmSoundDecodingTests {
    /// 1.5 s at 44.1 kHz, as scripts/make-alarm-sound.sh generates it.
    static let expectedFrames = 66_150
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

    @Test func shippedSoundPeaksAtOrBelowMinus3dBFS() throws {
        let sound = try AlarmSound.decode(path: TestFiles.shippedSoundPath())
        #expect(TestFiles.peak(of: sound.samples) <= Self.peakLimit)
        #expect(TestFiles.peak(of: sound.samples) > 10_000)  // and it is not silent
    }

    @Test func decodingFromMemoryGivesTheSameSoundAsFromTheFile() throws {
        let path = TestFiles.shippedSoundPath()
        let bytes = try #require(TestFiles.read(path))
        #expect(try AlarmSound.decode(bytes: bytes) == AlarmSound.decode(path: path))
    }

    @Test func missingFileIsSoundNotFound() {
        #expect(throws: AlarmError.soundNotFound(path: "/nonexistent/alarm.mp3", reason: "No such file or directory")) {
            try AlarmSound.decode(path: "/nonexistent/alarm.mp3")
        }
    }

    @Test func directoryIsSoundNotFound() {
        #expect(throws: AlarmError.soundNotFound(path: "/tmp", reason: "Is a directory")) {
            try AlarmSound.decode(path: "/tmp")
        }
    }

    @Test func emptyFileIsUnreadable() throws {
        try expectUnreadable([], reason: "the file is empty")
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomBytesAreUnreadable(seed: UInt64) throws {
        try expectUnreadable(TestFiles.randomBytes(count: 64 * 1024, seed: seed))
    }

    @Test func textFileIsUnreadable() throws {
        let text = String(repeating: "Boil the eggs for seven minutes, then cool them in cold water.\n", count: 200)
        try expectUnreadable(Array(text.utf8), reason: "no MPEG audio frames found")
    }

    @Test func wavFileNamedMP3IsUnreadable() throws {
        try expectUnreadable(TestFiles.wavBytes())
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

    @Test func truncatedSoundIsAPrefixOfTheWholeSound() throws {
        let bytes = try #require(TestFiles.read(TestFiles.shippedSoundPath()))
        let whole = try AlarmSound.decode(bytes: bytes)
        let part = try AlarmSound.decode(bytes: Array(bytes.prefix(bytes.count * 6 / 10)))
        #expect(Array(whole.samples.prefix(part.samples.count)) == part.samples)
    }

    /// Writes `bytes` to a file named .mp3 and expects both decoders to call it unreadable.
    private func expectUnreadable(_ bytes: [UInt8], reason: String? = nil) throws {
        let directory = TestFiles.makeTemporaryDirectory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/sound.mp3"
        TestFiles.write(bytes, to: path)

        let fileError = #expect(throws: AlarmError.self) { try AlarmSound.decode(path: path) }
        let memoryError = #expect(throws: AlarmError.self) { try AlarmSound.decode(bytes: bytes) }

        guard case .unreadableSound(let errorPath, let fileReason) = try #require(fileError) else {
            Issue.record("expected .unreadableSound, got \(String(describing: fileError))")
            return
        }
        #expect(errorPath == path)
        if let reason { #expect(fileReason == reason) }
        #expect(memoryError == .unreadableSound(path: "<memory>", reason: fileReason))
    }
}
