import CSystem
import Glibc

/// Reads `byteCount` bytes from the kernel's random number generator (the pool `/dev/urandom`
/// serves, without a descriptor).
///
/// Loops on `EINTR` and on short reads until every byte is filled. It blocks only at boot, until
/// the kernel first seeded its pool (never after that). Any thread.
/// - Parameter byteCount: How many bytes, 0 to 65 536.
/// - Returns: `byteCount` bytes, uniform and independent.
/// - Throws: ``Errno`` when the call fails (`ENOSYS` on a kernel older than 3.17, `EPERM` under a
///   seccomp filter that refuses it).
/// - Precondition: `byteCount` is in 0...65 536.
/// C: `getrandom` with no flags.
public func randomBytes(_ byteCount: Int) throws(Errno) -> [UInt8] {
    try randomBytes(byteCount) { buffer in
        let count = CSystem_getrandom(buffer.baseAddress, UInt(buffer.count))
        return (count, count < 0 ? errno : 0)
    }
}

/// The loop of ``randomBytes(_:)`` over `source`, a stand-in for `getrandom` (a test seam).
/// - Parameters:
///   - byteCount: How many bytes, 0 to 65 536.
///   - source: Fills a prefix of the buffer it gets; returns how many bytes it wrote and, when
///     that is negative, the errno.
/// - Returns: `byteCount` bytes from `source`.
/// - Throws: ``Errno`` for a failure other than `EINTR`, and `EIO` when the source writes nothing
///   or more than it was given (which `getrandom` never does).
func randomBytes(
    _ byteCount: Int, from source: (UnsafeMutableRawBufferPointer) -> (count: Int, code: Int32)
) throws(Errno) -> [UInt8] {
    precondition((0...65_536).contains(byteCount), "randomBytes: \(byteCount) bytes")
    var bytes = [UInt8](repeating: 0, count: byteCount)
    var filled = 0
    var failure: Errno?
    bytes.withUnsafeMutableBytes { whole in
        while filled < byteCount {
            let (count, code) = source(UnsafeMutableRawBufferPointer(rebasing: whole[filled...]))
            if count < 0, code == EINTR { continue }
            guard count > 0, count <= byteCount - filled else {
                failure = Errno(count < 0 ? code : EIO)
                return
            }
            filled += count
        }
    }
    if let failure { throw failure }
    return bytes
}
