import Glibc

/// A named pipe in a private temporary directory, for pointing ALSA's `file` plugin at.
///
/// The plugin writes with blocking `write(2)` whatever the PCM's non-blocking flag says, so a pipe
/// nobody reads stalls it like a hung sound server. Owns the directory and the read end once opened.
///
/// Not thread-safe: used on the test's thread.
final class Fifo {
    /// `F_SETPIPE_SZ` and `F_GETPIPE_SZ` from <linux/fcntl.h> (`F_LINUX_SPECIFIC_BASE` 1024 + 7
    /// and + 8); glibc declares them only under _GNU_SOURCE.
    private static let setPipeSize: Int32 = 1031
    private static let getPipeSize: Int32 = 1032

    let directory: String
    let path: String
    /// The read end; -1 until ``openReader()``.
    private(set) var reader: Int32 = -1

    /// Makes the FIFO.
    init() {
        directory = TestFiles.makeTemporaryDirectory()
        path = directory + "/stall.fifo"
        precondition(mkfifo(path, 0o600) == 0, "mkfifo failed: \(errno)")
    }

    deinit {
        // Closing the read end under a writer still inside write(2) would kill the process with
        // SIGPIPE; callers drain to end-of-file first, and a reader that could not is left open.
        if reader >= 0, !leaveReaderOpen { close(reader) }
        TestFiles.remove(directory)
    }

    /// Set when the writer never closed: the read end is then leaked rather than closed.
    var leaveReaderOpen = false

    /// The ALSA PCM name of a `file` plugin writing raw samples into the FIFO.
    var deviceName: String { "file:'\(path)',raw" }

    /// Opens the read end, non-blocking and close-on-exec; returns at once even with no writer.
    func openReader() {
        reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        precondition(reader >= 0, "cannot open the FIFO for reading: \(errno)")
    }

    /// Shrinks the pipe to its minimum (one page), so a writer fills it at once.
    /// - Returns: The capacity now, in bytes.
    func shrink() -> Int {
        _ = fcntl(reader, Self.setPipeSize, 1)
        return Int(fcntl(reader, Self.getPipeSize))
    }

    /// The bytes waiting in the pipe.
    ///
    /// C: `ioctl(FIONREAD)`.
    func bytesWaiting() -> Int {
        var bytes: Int32 = 0
        guard ioctl(reader, UInt(FIONREAD), &bytes) == 0 else { return -1 }
        return Int(bytes)
    }

    /// Waits up to `timeout` for data (or end-of-file) in `poll`.
    /// - Returns: Whether the read end became readable.
    func waitReadable(timeout: Duration) -> Bool {
        var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, Int32(timeout / .milliseconds(1))) > 0
    }

    /// Reads everything waiting now, without blocking.
    /// - Returns: The bytes read; `nil` at end-of-file (every writer closed).
    func readWaiting() -> Int? {
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(reader, &chunk, chunk.count)
            if count > 0 {
                total += count
            } else if count == 0 {
                return total == 0 ? nil : total
            } else {
                return total  // EAGAIN: empty for now
            }
        }
    }

    /// Reads until the writer closes, waiting in `poll` up to `timeout` in all.
    /// - Returns: Whether end-of-file came; if not, the read end will be left open.
    func drainToEndOfFile(timeout: Duration) -> Bool {
        let giveUp = ContinuousClock.now + timeout
        while ContinuousClock.now < giveUp {
            _ = waitReadable(timeout: min(.milliseconds(100), ContinuousClock.now.duration(to: giveUp)))
            if readWaiting() == nil { return true }
        }
        leaveReaderOpen = true
        return false
    }
}
