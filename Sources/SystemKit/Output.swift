import Glibc
import TextCoding

/// Writes bytes to a file descriptor whole, retrying short writes and EINTR.
///
/// A broken pipe or closed descriptor is reported once through `failed`, never as a crash
/// (eggtimer ignores SIGPIPE). Not thread-safe: owned by one thread (the event loop's).
public struct Output {
    /// The descriptor written to.
    public let descriptor: Int32
    /// Set once a write fails (EPIPE, EBADF, EIO, …): the errno.
    public private(set) var failed: Int32?

    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes all of `text` as UTF-8; does nothing once a write has failed.
    public mutating func write(_ text: String) {
        guard failed == nil, !text.isEmpty else { return }
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        var pfd = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&pfd, 1, 100)
                        continue
                    }
                    failed = errno
                    return
                }
                offset += written
            }
        }
    }
}

/// One line to standard error, for warnings and errors outside the UI; control characters in it
/// (from a user's argument, say) are escaped, so it stays one line and cannot move the cursor.
public func printError(_ line: String) {
    var output = Output(descriptor: STDERR_FILENO)
    output.write(line.escapingControlCharacters + "\n")
}

/// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, so that nothing the app opens
/// later (a signalfd, the timerfd, an ALSA socket) can land there and be written to as standard
/// output or read as standard input.
///
/// Call first, before anything opens a descriptor.
///
/// The replacements are close-on-exec like every descriptor eggtimer opens; when /dev/null cannot
/// be opened the descriptor stays closed (writes to it then fail with EBADF, which only stops the log).
public func reopenClosedStandardDescriptors() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
        // The lowest free descriptor: `descriptor` itself, since the ones below it are open by now.
        let opened = open("/dev/null", (descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY) | O_CLOEXEC)
        if opened >= 0, opened != descriptor {
            close(opened)
            return
        }
    }
}
