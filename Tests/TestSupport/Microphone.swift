public import Glibc
import SystemKit

/// A microphone for a child process.
///
/// An ALSA capture PCM `mic` (alsa-lib's `file` plugin with
/// `infile`) that reads a FIFO this value writes, defined in the `.asoundrc` of a private HOME
/// (``environment``). No sound card, no network.
///
/// The FIFO is opened for reading and writing here, so the child's open never waits, and is
/// made 1 MiB large (32 s of audio), so a write of a few seconds never blocks. alsa-lib reads it
/// in periods and pads a short read with stale samples, so each write is padded with quiet
/// noise to a whole number of 3.2 s (a multiple of both the 100 ms period and the 4 KiB page).
/// Not thread-safe: one test owns it; the folder goes with it.
public final class Microphone {
    /// The private HOME with the `.asoundrc`.
    public let home = makePrivateDirectory("eggtimer-microphone")
    /// The FIFO's path.
    public var fifo: String { home + "/mic.fifo" }
    private var writer: Int32
    private var written = 0

    /// Makes the FIFO and the `.asoundrc`.
    /// - Throws: `TestFailure` when the FIFO cannot be made or opened.
    public init() throws(TestFailure) {
        let path = home + "/mic.fifo"
        guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo \(path): \(errorText(errno))") }
        writer = open(path, O_RDWR | O_CLOEXEC)
        guard writer >= 0 else { throw TestFailure("open \(path): \(errorText(errno))") }
        _ = fcntl(writer, 1031, 1 << 20)  // F_SETPIPE_SZ (Linux), which Glibc does not import
        let text = "pcm.mic { type file slave.pcm \"null\" file \"/dev/null\" infile \"\(path)\" format \"raw\" }\n"
        writeFile(home + "/.asoundrc", Array(text.utf8))
    }

    deinit {
        if writer >= 0 { close(writer) }
        removeDirectory(home)
    }

    /// Closes the FIFO's only writer: the child's reads then meet the end of the input, where
    /// alsa-lib's `file` plugin hands back its last buffer again and again.
    public func unplug() {
        if writer >= 0 { close(writer) }
        writer = -1
    }

    /// `HOME`, for the child whose `--listen mic` this is.
    public var environment: [String: String] { ["HOME": home] }

    /// Writes `samples` (16 kHz mono S16), padded with quiet noise to a whole number of 3.2 s.
    /// - Parameter samples: What the microphone hears.
    /// - Throws: `TestFailure` when the write fails or is short (the FIFO is full).
    public func hear(_ samples: [Int16]) throws(TestFailure) {
        let block = 51_200
        let padding = (block - samples.count % block) % block
        written += 1
        let all =
            samples
            + Signal.noise(milliseconds: padding / 16 + 1, amplitude: 20, seed: UInt32(written) + 1_000).prefix(padding)
        let bytes = all.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let done = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        guard done == bytes.count else {
            throw TestFailure("the microphone's FIFO took \(done) of \(bytes.count) bytes")
        }
    }
}
