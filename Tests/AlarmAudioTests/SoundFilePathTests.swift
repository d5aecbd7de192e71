import Glibc
import SystemKit
import Testing

@testable import AlarmAudio

/// File names are bytes (issue 9, item 8): a Latin-1 name such as `R\xE9veil.mp3` opens and plays,
/// and messages show invalid bytes as `\xHH`.
@Suite struct SoundFilePathTests {
    @Test(
        arguments: [
            (Array("alarm.mp3".utf8), "alarm.mp3"),
            (Array("Réveil ⏰.mp3".utf8), "Réveil ⏰.mp3"),
            (Array("R".utf8) + [0xE9] + Array("veil.mp3".utf8), "R\\xE9veil.mp3"),
            ([0xC3], "\\xC3"),  // a sequence cut short
            ([0xC3, 0x28], "\\xC3("),  // a lead byte without its continuation
            ([0xED, 0xA0, 0x80], "\\xED\\xA0\\x80"),  // a surrogate
            (Array("line\nbreak\u{1B}[2J".utf8), "line\\x0Abreak\\x1B[2J"),
            (Array("c1 \u{85}".utf8), "c1 \\xC2\\x85"),  // a C1 control, both of its bytes
            ([], ""),
        ] as [([UInt8], String)])
    func descriptionShowsValidUTF8AsTextAndEscapesTheRest(bytes: [UInt8], shown: String) {
        #expect(SoundFilePath(bytes: bytes).description == shown)
    }

    @Test func pathFromTextIsItsUTF8Bytes() {
        #expect(SoundFilePath("/tmp/Réveil.mp3").bytes == Array("/tmp/Réveil.mp3".utf8))
    }

    /// Before, `--sound "$(printf 'R\xe9veil.mp3')"` exited 66 "No such file": the name went
    /// through a `String`, which replaced the byte with U+FFFD.
    @Test func fileWhoseNameIsNotUTF8Plays() throws {
        let directory = TestFiles.makeTemporaryDirectory()
        let name = Array(directory.utf8) + Array("/R".utf8) + [0xE9] + Array("veil.mp3".utf8)
        defer {
            _ = Self.unlink(name)
            TestFiles.remove(directory)
        }
        let sound = try #require(TestFiles.read(TestFiles.shippedSoundPath()))
        try Self.write(sound, to: name)

        #expect(
            try AlarmSound.decode(path: SoundFilePath(bytes: name))
                == AlarmSound.decode(path: TestFiles.shippedSoundPath()))
    }

    @Test func missingFileWhoseNameIsNotUTF8IsNamedWithEscapes() {
        let name = Array("/nonexistent/R".utf8) + [0xE9] + Array("veil.mp3".utf8)
        #expect(
            throws: AlarmError.soundNotFound(path: "/nonexistent/R\\xE9veil.mp3", reason: "No such file or directory")
        ) {
            try AlarmSound.decode(path: SoundFilePath(bytes: name))
        }
    }

    /// A file that is not MP3 is named in the display form too.
    @Test func unreadableFileWhoseNameIsNotUTF8IsNamedWithEscapes() throws {
        let directory = TestFiles.makeTemporaryDirectory()
        let name =
            Array(directory.utf8) + Array("/Fr".utf8) + [0xFC] + Array("hst".utf8) + [0xFC] + Array("ck.mp3".utf8)
        defer {
            _ = Self.unlink(name)
            TestFiles.remove(directory)
        }
        try Self.write(SoundCorpus.wav(samples: SoundCorpus.noiseSamples()), to: name)

        #expect(
            throws: AlarmError.unreadableSound(
                path: directory + "/Fr\\xFChst\\xFCck.mp3", reason: FileKind.wav(isPCM: true).reason)
        ) {
            try AlarmSound.decode(path: SoundFilePath(bytes: name))
        }
    }

    /// No file name holds a NUL byte; the path is not cut short at it.
    @Test func pathWithANULByteIsNotFound() {
        let name = Array(TestFiles.shippedSoundPath().utf8) + [0] + Array("x".utf8)
        #expect(
            throws: AlarmError.soundNotFound(
                path: TestFiles.shippedSoundPath() + "\\x00x", reason: "the path contains a NUL byte")
        ) {
            try AlarmSound.decode(path: SoundFilePath(bytes: name))
        }
    }

    /// Creates the file named by exactly these bytes.
    private static func write(_ bytes: [UInt8], to name: [UInt8]) throws {
        let fd = (name + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            }
        }
        try #require(fd >= 0, "cannot create the file: \(errorText(errno))")
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
    }

    private static func unlink(_ name: [UInt8]) -> Int32 {
        (name + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { Glibc.unlink($0.baseAddress!) }
        }
    }
}
