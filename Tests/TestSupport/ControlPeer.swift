import Glibc

/// A client end of a timer's control socket for the inbox tests: a blocking socket that sends
/// lines and reads them back.
public final class ControlPeer {
    public let fd: Int32
    private var bytes: [UInt8] = []

    /// Connects to `path`; with `receiveBuffer`, asks the kernel for that small a receive buffer.
    public init(_ path: String, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        guard withUnixAddress(path, { connect(fd, $0, $1) }) == 0 else {
            throw TestFailure("connect to \(path): errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends `line` and a newline.
    public func send(_ line: String) {
        _ = Array((line + "\n").utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `count` whole lines have come (or end of file, or 5 s) and returns them all.
    public func lines(_ count: Int) -> [String] {
        let deadline = ContinuousClock.now + .seconds(5)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.filter({ $0 == UInt8(ascii: "\n") }).count < count, waitReadable(fd, timeout: deadline - .now) {
            let got = read(fd, &chunk, chunk.count)
            if got <= 0 { break }
            bytes += chunk[0..<got]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Whether the timer closed its end (after what it sent, which is read and kept).
    public var ended: Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while waitReadable(fd, timeout: .seconds(5)) {
            let got = read(fd, &chunk, chunk.count)
            if got <= 0 { return got == 0 }
            bytes += chunk[0..<got]
        }
        return false
    }

    /// Whether the timer hung up, without reading anything (POLLHUP).
    public var hungUp: Bool {
        var ready = pollfd(fd: fd, events: 0, revents: 0)
        return poll(&ready, 1, 0) == 1 && ready.revents & Int16(POLLHUP) != 0
    }
}
