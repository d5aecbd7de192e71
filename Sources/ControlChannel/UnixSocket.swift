import Glibc
import SystemKit

/// Small helpers over `AF_UNIX` stream sockets: every descriptor close-on-exec and
/// non-blocking from birth.
enum UnixSocket {
    /// The longest socket path: `sun_path` holds 108 bytes with the terminating NUL.
    static let maximumPathBytes = 107

    /// `folder/name.sock`, checked to fit a `sockaddr_un`: the one length check, for the timer
    /// that binds and every client that connects.
    /// - Parameters:
    ///   - folder: The runtime folder.
    ///   - name: The socket's file name without `.sock` (``ControlServer/socketName(for:)``).
    /// - Returns: The path, at most ``maximumPathBytes`` bytes.
    /// - Throws: ``ControlError/pathTooLong(path:)`` when it is longer.
    static func path(in folder: String, name: String) throws(ControlError) -> String {
        let path = folder + "/" + name + ".sock"
        guard path.utf8.count <= maximumPathBytes else { throw .pathTooLong(path: path) }
        return path
    }

    /// A new unbound socket (`SOCK_CLOEXEC | SOCK_NONBLOCK`).
    ///
    /// C: `socket`.
    /// - Throws: `.system` when the kernel refuses.
    static func make() throws(ControlError) -> Int32 {
        do {
            return try FileDescriptor.socket(
                domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            ).release()
        } catch {
            throw .system(call: "socket", code: error.code)
        }
    }

    /// Calls `body` with `path` as a `sockaddr_un`.
    /// - Precondition: `path` fits ``maximumPathBytes``.
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count <= maximumPathBytes, "socket path too long")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// Connects a fresh socket to `path`.
    /// - Parameters:
    ///   - path: The socket's path.
    ///   - deadline: Until when a full queue (`EAGAIN`) is tried again, every 2 ms (the kernel
    ///     cannot be polled for room in a listener's queue); nil: not tried again.
    /// - Returns: The connected descriptor (the caller closes it).
    /// - Throws: `.system("connect", errno)`: `ECONNREFUSED` or `ENOENT` mean no timer listens
    ///   there (a stale socket), `EAGAIN` that its queue stayed full.
    /// Blocks until `deadline` at most. C: `socket`, `connect`, `nanosleep`.
    static func connect(to path: String, retryingUntil deadline: ContinuousClock.Instant? = nil) throws(ControlError)
        -> Int32
    {
        while true {
            let fd = try make()
            let result = withAddress(path) { Glibc.connect(fd, $0, $1) }
            if result == 0 { return fd }
            let code = errno
            close(fd)
            guard code == EAGAIN || code == EINTR, let deadline, ContinuousClock.now < deadline else {
                throw .system(call: "connect", code: code)
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            _ = nanosleep(&pause, nil)
        }
    }

    /// Writes all of `bytes` within `deadline`, waiting for room with `poll`.
    /// - Returns: whether everything was written.
    static func write(_ bytes: [UInt8], to fd: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EINTR else { return false }
            guard wait(for: Int16(POLLOUT), on: fd, until: deadline) else { return false }
        }
        return true
    }

    /// Polls `fd` for `events` until `deadline`.
    /// - Returns: whether it became ready in time.
    static func wait(for events: Int16, on fd: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            var ready = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(clamping: left.wholeMilliseconds(rounding: .up))
            let result = poll(&ready, 1, milliseconds)
            if result > 0 { return true }
            if result < 0, errno != EINTR { return false }
        }
    }
}
