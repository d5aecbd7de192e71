import Glibc

/// A control connection that sent `watch` (protocol version 2): the timer sends it status lines
/// as they change, and never waits for it.
///
/// Lines are written with non-blocking `send`; what the kernel does not take waits in a queue of
/// at most ``queueLimit`` bytes, sent when the descriptor polls writable (ask for `POLLOUT` only
/// while ``wantsWrite``). A line that would overflow the queue means the peer is not reading:
/// ``send(_:)`` says so and the owner drops the watcher. The kernel's own buffer for it is made
/// small (``kernelBufferBytes``), so what a stalled watcher costs the timer stays near the queue's
/// limit. Owned by the event loop's thread; closing it (deinit) closes the connection.
public final class ControlWatcher {
    private let connection: ControlConnection
    private var unsent: [UInt8] = []
    /// The last line queued with its time left taken out (``changeKey(_:)``); nil before the first.
    private var lastKey: String?
    /// The most bytes kept unsent before the watcher counts as stalled.
    public let queueLimit: Int

    /// The send buffer asked of the kernel for a watcher's socket (`SO_SNDBUF`), in bytes; the
    /// kernel doubles it for its bookkeeping.
    public static let kernelBufferBytes: Int32 = 8192

    /// Takes over `connection`, whose request was `watch`.
    /// - Parameters:
    ///   - connection: The accepted connection; closed when the watcher goes.
    ///   - queueLimit: The most unsent bytes kept, at least one line's worth (> 0).
    /// C: `setsockopt(SO_SNDBUF)`.
    public init(_ connection: ControlConnection, queueLimit: Int) {
        precondition(queueLimit > 0)
        self.connection = connection
        self.queueLimit = queueLimit
        var size = Self.kernelBufferBytes
        _ = setsockopt(connection.descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The connected descriptor, for the poll set.
    public var descriptor: Int32 { connection.descriptor }
    /// The peer's process id, as the kernel recorded it.
    public var peerProcess: Int32 { connection.peerProcess }
    /// Whether bytes wait to be sent: then poll for `POLLOUT` too.
    public var wantsWrite: Bool { !unsent.isEmpty }
    /// How many bytes wait to be sent.
    public var unsentBytes: Int { unsent.count }

    /// `line` without its `remaining_ns` field: two status lines with the same key say the same
    /// thing but the time left, which a reader derives from the deadline.
    public static func changeKey(_ line: String) -> String {
        line.split(separator: "\t", omittingEmptySubsequences: false).filter { !$0.hasPrefix("remaining_ns=") }
            .joined(separator: "\t")
    }

    /// Sends `line` and a newline if it says something new (``changeKey(_:)`` differs from the
    /// last line's), or always when `always`; writes what the kernel takes now, queues the rest.
    /// - Returns: false when the watcher must be dropped: the queue would pass ``queueLimit``
    ///   (the peer does not read) or the connection failed.
    /// Never blocks. C: `send`.
    public func send(_ line: String, always: Bool = false) -> Bool {
        let key = Self.changeKey(line)
        guard always || key != lastKey else { return true }
        lastKey = key
        let bytes = Array((line + "\n").utf8)
        guard unsent.count + bytes.count <= queueLimit else { return false }
        unsent += bytes
        return flush()
    }

    /// Writes as much of the queue as the kernel takes now.
    /// - Returns: false when the connection failed (the peer went away).
    /// Never blocks. C: `send`.
    public func flush() -> Bool {
        while !unsent.isEmpty {
            let written = unsent.withUnsafeBytes {
                Glibc.send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written > 0 {
                unsent.removeFirst(written)
                continue
            }
            if written < 0, errno == EINTR { continue }
            return written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
        return true
    }

    /// Reads and discards what the peer sent (a watcher has nothing more to say).
    /// - Returns: false at end of file or on an error: the peer went away.
    /// Never blocks. C: `read`.
    public func drain() -> Bool {
        var chunk = [UInt8](repeating: 0, count: ControlConnection.maximumLineBytes)
        let count = read(connection.descriptor, &chunk, chunk.count)
        if count < 0 { return errno == EAGAIN || errno == EINTR }
        return count > 0
    }
}
