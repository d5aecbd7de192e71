import Glibc
import SystemKit

@testable import AlarmAudio

/// Paths and file helpers for the tests; plain POSIX, no Foundation.
enum TestFiles {
    /// `Sounds/alarm_sound.mp3` in the package, found from this file's location.
    static func shippedSoundPath() -> String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // TestFiles.swift, Support/, AlarmAudioTests/, Tests/
        return parts.joined(separator: "/") + "/Sounds/alarm_sound.mp3"
    }

    /// A fresh, empty directory under /tmp, unique to this call; pair it with `defer { remove(…) }`.
    static func makeTemporaryDirectory() -> String {
        var template = Array("/tmp/alarmaudio-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let made else { preconditionFailure("mkdtemp failed: \(errorText(errno))") }
        return made
    }

    /// Removes `path` and, if it is a directory, everything in it (files, pipes, links, directories).
    ///
    /// Symbolic links are removed, never followed.
    static func remove(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        if let directory = opendir(path) {
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            for name in names { remove(path + "/" + name) }
        }
        rmdir(path)
    }

    /// Whether anything, even a dangling link, exists at `path`.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    static func read(_ path: String) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count)
    }

    /// The bytes a raw S16 native-endian file holds for these samples.
    static func rawBytes(of samples: [Int16]) -> [UInt8] {
        samples.withUnsafeBytes { Array($0) }
    }

    /// `count` pseudo-random bytes from a fixed seed (SplitMix64), the same on every run.
    static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z.littleEndian) { bytes += $0.prefix(count - bytes.count) }
        }
        return bytes
    }

    /// A valid 16-bit PCM WAV file: a 440 Hz tone, stereo, 44.1 kHz.
    /// - Parameter frames: The length in frames; 0.5 s by default.
    /// - Returns: The whole file: RIFF header, format chunk and data chunk.
    static func wavBytes(frames: Int = 22_050) -> [UInt8] {
        var samples: [Int16] = []
        for frame in 0..<frames {
            let value = Int16(10_000 * sin(2 * Double.pi * 440 * Double(frame) / 44_100))
            samples += [value, value]
        }
        func le32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian) { Array($0) } }
        func le16(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(value).littleEndian) { Array($0) } }
        let data = rawBytes(of: samples)
        return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVE".utf8) + Array("fmt ".utf8) + le32(16)
            + le16(1) + le16(2) + le32(44_100) + le32(44_100 * 4) + le16(4) + le16(16) + Array("data".utf8)
            + le32(data.count) + data
    }
}
