public import Glibc
import SystemKit

/// A program (eggtimer: ``Eggtimer/terminal(columns:rows:)``) running in a new session on a pseudo-terminal, as a user's shell would run it: the
/// pty is its controlling terminal, so Ctrl-C typed into it raises SIGINT.
///
/// The test reads the screen's bytes from the master side and types into it. Every descriptor it
/// holds (master, slave, the child's pidfd) is close-on-exec from birth, so children other tests
/// spawn in parallel never hold this terminal open. Not thread-safe: use it from one test thread.
public final class PseudoTerminal {
    /// The master side, non-blocking: reads return what is there and never wait.
    public let master: Int32
    /// The test's own descriptor on the slave side, kept open to read the terminal's settings.
    public let slave: Int32
    public let pid: pid_t
    /// Polls readable once the program has exited.
    private let pidfd: Int32
    /// Everything the program wrote so far.
    public private(set) var output: [UInt8] = []
    /// The terminal settings before the program started, byte for byte.
    public let settingsBefore: [UInt8]
    private var termination: Termination?
    /// The master reported end of file or an error: nothing more can arrive on it.
    private var masterClosed = false
    /// The test closed the master (``hangUp()``): the descriptor is not closed again.
    private var hungUp = false
    /// The pidfd polled readable: the program has exited (reaped or not), so it writes no more.
    private var exited = false

    /// Starts eggtimer with `arguments`, `environment` added to its private one, on a fresh pty:
    /// shorthand for `Eggtimer(arguments, environment: environment).terminal(columns:rows:)`.
    public convenience init(
        _ arguments: [String], columns: UInt16 = 80, rows: UInt16 = 24, environment: [String: String] = [:]
    ) {
        self.init(columns: columns, rows: rows) {
            Eggtimer(arguments, environment: environment).spawn(&$0, newSession: true)
        }
    }

    /// Starts a child through `start` in a new session whose controlling terminal is a fresh pty of that size.
    /// - Parameters:
    ///   - columns: The terminal's width, in cells.
    ///   - rows: The terminal's height, in lines.
    ///   - start: Spawns the child in a new session with the file actions given (descriptors 0, 1
    ///     and 2 on the terminal) and returns its pid.
    init(columns: UInt16, rows: UInt16, start: (inout posix_spawn_file_actions_t) -> pid_t) {
        // Not openpty: it cannot make its descriptors close-on-exec atomically.
        let master: Int32
        let name: String
        do {
            master = try FileDescriptor.pseudoTerminal(flags: O_NONBLOCK).release()
            name = try pseudoTerminalPath(of: master)
            try setWindowSize(of: master, to: WindowSize(rows: rows, columns: columns))
        } catch {
            preconditionFailure("cannot make a pseudo-terminal: \(error)")
        }
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        precondition(slave >= 0, "cannot open the pty slave: errno \(errno)")
        (self.master, self.slave) = (master, slave)
        settingsBefore = Self.settings(of: slave)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // After setsid, opening the pty (without O_NOCTTY) makes it the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        pid = start(&actions)
        do { pidfd = try FileDescriptor.process(pid).release() } catch { preconditionFailure("pidfd_open: \(error)") }
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: .seconds(5))
        }
        close(pidfd)
        if !hungUp { close(master) }
        close(slave)
    }

    /// The terminal's settings (`termios`) as bytes.
    public static func settings(of fd: Int32) -> [UInt8] {
        var settings = termios()
        tcgetattr(fd, &settings)
        return withUnsafeBytes(of: &settings) { Array($0) }
    }

    /// The output as text.
    public var text: String { String(decoding: output, as: UTF8.self) }

    /// Types `text` (bytes as given; "\u{3}" is Ctrl-C), waiting for room if the terminal's input is full.
    public func type(_ text: String) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes.removeFirst(n)
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                var pfd = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, 1000)
            } else {
                preconditionFailure("cannot type into the terminal: errno \(errno)")
            }
        }
    }

    /// Reads output until `needle` appears after `from` bytes, or `timeout` passes.
    /// - Returns: whether it appeared.
    @discardableResult
    public func expect(_ needle: String, after from: Int? = nil, timeout: Duration = .seconds(10)) -> Bool {
        let start = from ?? 0
        let deadline = ContinuousClock.now + timeout
        func seen() -> Bool { String(decoding: output[min(start, output.count)...], as: UTF8.self).contains(needle) }
        drain()
        while !seen() && !masterClosed && !exited && ContinuousClock.now < deadline {
            pump(until: deadline)
        }
        return seen()
    }

    /// Keeps reading output until `deadline`, for a test about time passing (nothing to wait for).
    public func readOutput(until deadline: ContinuousClock.Instant) {
        while ContinuousClock.now < deadline {
            pump(until: deadline)
        }
    }

    /// Waits for output or the program's exit, at most until `deadline`, then reads what is there.
    ///
    /// With neither left to wait for (the program has exited, the master is closed), it waits
    /// until `deadline`.
    private func pump(until deadline: ContinuousClock.Instant) {
        var fds: [pollfd] = []
        if !exited { fds.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
        if !masterClosed { fds.append(pollfd(fd: master, events: Int16(POLLIN), revents: 0)) }
        _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), pollTimeout(until: deadline)) }
        if fds.contains(where: { $0.fd == pidfd && $0.revents != 0 }) { exited = true }
        drain()
    }

    /// Reads the master until it has nothing more right now.
    ///
    /// A read of a pty master first pushes the slave's pending writes through (the kernel's
    /// `tty_buffer_flush_work`), so after the program has exited this gets everything it wrote;
    /// `poll` alone does not guarantee that.
    private func drain() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !masterClosed {
            let n = read(master, &chunk, chunk.count)
            if n > 0 {
                output += chunk[0..<n]
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                if n == 0 || errno != EAGAIN { masterClosed = true }
                return
            }
        }
    }

    /// Waits for the program to exit, draining its output; nil if it did not within `timeout`.
    public func waitForExit(timeout: Duration = .seconds(10)) -> Termination? {
        if let termination { return termination }
        let deadline = ContinuousClock.now + timeout
        while true {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                termination = Termination(waitStatus: status)
                drain()
                return termination
            }
            guard ContinuousClock.now < deadline else { return nil }
            pump(until: deadline)
        }
    }

    /// Waits until the program is stopped (Ctrl-Z); false if it did not stop within `timeout`.
    ///
    /// A stop sends no event this class can poll (a pidfd reports exits only), so this checks
    /// `waitpid` every 5 ms while reading output.
    public func waitForStop(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG | WUNTRACED) == pid {
                if status & 0xFF == 0x7F { return true }
                termination = Termination(waitStatus: status)
                return false
            }
            guard ContinuousClock.now < deadline else { return false }
            pump(until: min(deadline, ContinuousClock.now + .milliseconds(5)))
        }
    }

    /// Resizes the terminal, as a terminal emulator does; the kernel sends SIGWINCH.
    public func resize(columns: UInt16, rows: UInt16) {
        try? setWindowSize(of: master, to: WindowSize(rows: rows, columns: columns))
    }

    /// Closes the master side, as sshd does when a connection drops or a terminal emulator when
    /// its window closes: the kernel hangs the terminal up (SIGHUP and SIGCONT to the session's
    /// leader; reads of the slave give end of file, writes EIO, poll POLLHUP).
    ///
    /// Nothing more is read; the test's own slave descriptor stays open (hung up too).
    public func hangUp() {
        guard !hungUp else { return }
        hungUp = true
        masterClosed = true
        close(master)
    }

    /// Sends `signal` to the program.
    public func send(_ signal: Int32) { kill(pid, signal) }

    /// The terminal's settings now.
    public var settingsNow: [UInt8] { Self.settings(of: slave) }
}
