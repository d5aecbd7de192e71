import Glibc

/// A pipe used to wake a thread waiting in `poll`: ``ring()`` makes the read end readable, so a
/// thread polling ``descriptor`` for `POLLIN` wakes up; ``drain()`` makes it quiet again.
///
/// Both ends are close-on-exec and non-blocking from birth (``FileDescriptor/pipe(flags:)``), so
/// neither ringing nor draining ever blocks and no child spawned by another thread inherits them.
/// Sole owner of the two descriptors; closes them when dropped.
///
/// Thread-safe: the descriptors never change, and `read`/`write` on a pipe may be called from any
/// thread at once.
public struct WakePipe: ~Copyable, Sendable {
    /// The read end, for a poll set (`POLLIN`); -1 if no pipe could be made (out of descriptors),
    /// in which case ``ring()`` does nothing and waiters must poll on a timeout instead.
    public let descriptor: Int32
    private let writeDescriptor: Int32
    /// Why no pipe could be made (`EMFILE`, `ENFILE`), or nil when ``descriptor`` is valid.
    public let failure: Errno?

    /// Makes the pipe; never throws: a failure leaves ``descriptor`` at -1 and sets ``failure``.
    ///
    /// C: `pipe2` with `O_CLOEXEC | O_NONBLOCK`.
    public init() {
        do {
            let ends = try FileDescriptor.pipe(flags: O_NONBLOCK)
            descriptor = ends.read.release()
            writeDescriptor = ends.write.release()
            failure = nil
        } catch {
            (descriptor, writeDescriptor, failure) = (-1, -1, error)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    /// Makes ``descriptor`` readable; does not block; any thread.
    ///
    /// A full pipe (`EAGAIN`) is already readable, so that failure is harmless. C: `write`.
    public func ring() {
        guard writeDescriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Reads everything waiting in the pipe, so ``descriptor`` polls quiet until the next ring;
    /// does not block; any thread.
    ///
    /// C: `read`.
    public func drain() {
        guard descriptor >= 0 else { return }
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
