import Glibc

/// The read end of a child's standard output, read on demand on the test's thread.
///
/// Not thread-safe: one test owns it. It owns the descriptor and closes it at ``close()`` or deinit.
public final class PipeReader {
    private var fd: Int32
    /// Everything read so far.
    public private(set) var text = ""

    /// - Parameter fd: A pipe's read end (close-on-exec), now owned by the reader.
    public init(_ fd: Int32) { self.fd = fd }

    deinit { close() }

    /// Closes the descriptor (once); later reads find end of file.
    public func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// Reads until the text contains `expected` (after the first `after` characters), end of file
    /// or `deadline` (`ContinuousClock`).
    /// - Returns: Whether the text appeared.
    @discardableResult
    public func expect(_ expected: String, after: Int = 0, until deadline: ContinuousClock.Instant) -> Bool {
        while !String(text.dropFirst(after)).contains(expected) {
            if !readSome(until: deadline) { return false }
        }
        return true
    }

    /// Reads what comes until end of file or `deadline`, for a test that must let time pass.
    public func readAll(until deadline: ContinuousClock.Instant) { while readSome(until: deadline) {} }

    /// One read, waiting (poll) until `deadline` for something to read.
    /// - Returns: false at end of file or once `deadline` has passed.
    public func readSome(until deadline: ContinuousClock.Instant) -> Bool {
        guard fd >= 0 else { return false }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let count = poll(&ready, 1, pollTimeout(until: deadline))
        if count < 0 { return errno == EINTR }
        if count == 0 { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &chunk, chunk.count)
        if n < 0 { return errno == EINTR || errno == EAGAIN }
        if n == 0 { return false }
        text += String(decoding: chunk[0..<n], as: UTF8.self)
        return true
    }
}
