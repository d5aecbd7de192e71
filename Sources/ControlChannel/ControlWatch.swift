import Glibc

/// A client's watch on one timer (``ControlClient/watch(label:folder:timeout:)``): the status
/// lines it sends as its status changes, until it ends.
///
/// Every line is a status line (``TimerStatus/line``) that differs from the one before it in more
/// than the time left; the last one before ``Next/ended`` is the timer's final state. Never blocks
/// longer than the deadline given to ``next(until:)``: a stalled or stopped timer costs that
/// deadline, never a hang. Owned by one thread; closing it (deinit) closes the connection, and the
/// timer forgets the watcher.
public final class ControlWatch {
    /// The connected descriptor (close-on-exec, non-blocking), for a caller's own poll set
    /// (`POLLIN`; then ``next(until:)`` with a deadline of now).
    public let descriptor: Int32
    /// The timer's socket.
    public let path: String
    /// A line read already and not handed out yet (the first, read by the watch's start).
    var pending: String?
    private var buffer: [UInt8] = []
    private var ended = false

    /// The longest line taken, in bytes: a status line is a few hundred.
    public static let maximumLineBytes = 65536

    /// What the next look found.
    public enum Next: Equatable, Sendable {
        /// A status line, without its newline.
        case line(String)
        /// Nothing new before the deadline.
        case quiet
        /// The timer closed the connection: it ended (or dropped this watcher for not reading).
        case ended
    }

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// The next status line, waiting for one until `deadline` at most (`.now`: only what arrived).
    /// - Parameter deadline: On `ContinuousClock`.
    /// - Returns: The line, ``Next/quiet`` when none came in time, ``Next/ended`` once the timer
    ///   closed.
    /// - Throws: ``ControlError/badAnswer(path:)`` for a line that is not a status line or is longer
    ///   than ``maximumLineBytes``; `.system("read", errno)` when the connection failed.
    /// C: `poll`, `read`.
    public func next(until deadline: ContinuousClock.Instant) throws(ControlError) -> Next {
        if let line = pending {
            pending = nil
            return .line(line)
        }
        let next = try readLine(until: deadline)
        if case .line(let line) = next, !line.hasPrefix("ok\t") { throw .badAnswer(path: path) }
        return next
    }

    /// The reply to a request sent by ``ControlClient/beginExchange(_:label:folder:)``: any line
    /// (`ok…` or `error<TAB>text`), waiting for it until `deadline` at most (`.now`: only what arrived).
    /// - Parameter deadline: On `ContinuousClock`.
    /// - Returns: The line, ``Next/quiet`` when none came in time, ``Next/ended`` once the timer
    ///   closed without one.
    /// - Throws: ``ControlError/badAnswer(path:)`` for a line longer than ``maximumLineBytes``;
    ///   `.system("read", errno)` when the connection failed.
    /// C: `poll`, `read`.
    public func reply(until deadline: ContinuousClock.Instant) throws(ControlError) -> Next {
        try readLine(until: deadline)
    }

    /// Reads one line, or what there is until `deadline`.
    func readLine(until deadline: ContinuousClock.Instant) throws(ControlError) -> Next {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            guard buffer.count <= Self.maximumLineBytes else { throw .badAnswer(path: path) }
            if ended { return .ended }
            let count = read(descriptor, &chunk, chunk.count)
            if count > 0 {
                buffer += chunk[0..<count]
                continue
            }
            if count == 0 {
                ended = true
                continue
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                if code == ECONNRESET {
                    ended = true
                    continue
                }
                throw .system(call: "read", code: code)
            }
            guard UnixSocket.wait(for: Int16(POLLIN), on: descriptor, until: deadline) else { return .quiet }
        }
    }
}
