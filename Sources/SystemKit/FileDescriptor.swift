import CSystem
import Glibc

/// An open file descriptor, close-on-exec from birth; its sole owner, which closes it when dropped.
///
/// Made only by calls given `O_CLOEXEC`, `SOCK_CLOEXEC`, `TFD_CLOEXEC`, `SFD_CLOEXEC` or
/// `pipe2(O_CLOEXEC)` (`posix_openpt` too), or by calls whose descriptors always are, as
/// `pidfd_open` (the makers are here and in `SystemCalls+*.swift`), so no child that another thread
/// spawns meanwhile can inherit it. Not thread-safe to drop while another thread uses the
/// number: keep it with its user.
public struct FileDescriptor: ~Copyable {
    /// The descriptor number, for system calls and poll sets; valid while this value lives.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, a descriptor a SystemKit maker opened close-on-exec.
    init(owning rawValue: Int32) { self.rawValue = rawValue }

    deinit { Glibc.close(rawValue) }

    /// Gives up ownership without closing: the caller closes the number.
    /// - Returns: The descriptor number.
    public consuming func release() -> Int32 {
        let rawValue = self.rawValue
        discard self
        return rawValue
    }

    /// Opens `path` with `flags` and `O_CLOEXEC`, retrying when a signal interrupts.
    /// - Parameters:
    ///   - path: The path; a NUL byte in it gives `EINVAL`.
    ///   - flags: `O_RDONLY`, `O_RDWR`, `O_NONBLOCK`, … (`O_CLOEXEC` is added).
    ///   - permissions: The mode for a file `O_CREAT` makes (a `mode_t`, such as `0o600`).
    /// - Returns: The open descriptor.
    /// - Throws: ``Errno`` as `open` left it (`ENOENT`, `EACCES`, …). C: `open`.
    public static func open(_ path: [UInt8], _ flags: Int32, permissions: UInt32 = 0) throws(Errno) -> FileDescriptor {
        guard !path.contains(0) else { throw Errno(EINVAL) }
        while true {
            let result = (path + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    Glibc.open($0.baseAddress!, flags | O_CLOEXEC, mode_t(permissions))
                }
            }
            if result >= 0 { return FileDescriptor(owning: result) }
            if errno != EINTR { throw .current }
        }
    }

    /// A pipe whose ends are close-on-exec from birth.
    /// - Parameter flags: More `pipe2` flags (`O_NONBLOCK`); `O_CLOEXEC` is added.
    /// - Returns: The read and the write end.
    /// - Throws: ``Errno`` (`EMFILE`, `ENFILE`). C: `pipe2`.
    public static func pipe(flags: Int32 = 0) throws(Errno) -> Pipe {
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, flags | O_CLOEXEC) == 0 else { throw .current }
        return Pipe(read: FileDescriptor(owning: ends[0]), write: FileDescriptor(owning: ends[1]))
    }

    /// A new socket, close-on-exec from birth.
    /// - Parameters:
    ///   - domain: `AF_UNIX`, `AF_INET`, ….
    ///   - type: `SOCK_STREAM`, …, optionally with `SOCK_NONBLOCK` (`SOCK_CLOEXEC` is added).
    ///   - protocol: Usually 0.
    /// - Returns: The unbound socket.
    /// - Throws: ``Errno`` as `socket` left it. C: `socket`.
    public static func socket(domain: Int32, type: Int32, protocol: Int32 = 0) throws(Errno) -> FileDescriptor {
        let result = Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
        guard result >= 0 else { throw .current }
        return FileDescriptor(owning: result)
    }

    /// Accepts one waiting connection on this listening socket, close-on-exec from birth.
    /// - Parameter flags: More `accept4` flags (`SOCK_NONBLOCK`); `SOCK_CLOEXEC` is added.
    /// - Returns: The connected socket.
    /// - Throws: ``Errno`` (`EAGAIN` when none waits on a non-blocking listener). C: `accept4`.
    public func accept(flags: Int32 = 0) throws(Errno) -> FileDescriptor {
        let result = acceptConnection(on: rawValue, flags: flags)
        guard result >= 0 else { throw .current }
        return FileDescriptor(owning: result)
    }

    /// A timer descriptor on `clock`, close-on-exec from birth.
    /// - Parameters:
    ///   - clock: `CLOCK_BOOTTIME`, `CLOCK_REALTIME`, … (a `clockid_t`).
    ///   - nonBlocking: Whether reads fail with `EAGAIN` instead of waiting (`TFD_NONBLOCK`).
    /// - Returns: The unarmed timer.
    /// - Throws: ``Errno`` as `timerfd_create` left it. C: `timerfd_create`.
    public static func timer(clock: Int32, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        let result = timerfd_create(clockid_t(clock), Int32(TFD_CLOEXEC) | (nonBlocking ? Int32(TFD_NONBLOCK) : 0))
        guard result >= 0 else { throw .current }
        return FileDescriptor(owning: result)
    }
}

extension FileDescriptor {
    /// The two ends of a pipe, each its own owner.
    @frozen public struct Pipe: ~Copyable {
        /// The read end.
        public var read: FileDescriptor
        /// The write end.
        public var write: FileDescriptor
    }
}
