import CSystem
import Glibc

/// `eggtimer` running in a new session on a pseudo-terminal, as a user's shell would run it: the
/// pty is its controlling terminal, so Ctrl-C typed into it raises SIGINT.
///
/// The test reads the screen's bytes from the master side and types into it.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    let pid: pid_t
    /// Everything the program wrote so far.
    private(set) var output: [UInt8] = []
    /// The terminal settings before the program started, byte for byte.
    let settingsBefore: [UInt8]
    private var termination: Termination?

    init(_ arguments: [String], columns: UInt16 = 80, rows: UInt16 = 24, environment: [String: String] = [:]) {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        precondition(openpty(&master, &slave, nil, nil, &size) == 0)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        var name = [CChar](repeating: 0, count: 256)
        precondition(ttyname_r(slave, &name, name.count) == 0)
        (self.master, self.slave) = (master, slave)
        settingsBefore = Self.settings(of: slave)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // After setsid, opening the pty makes it the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        pid = spawn(arguments, actions: &actions, environment: environment, newSession: true)
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: .seconds(5))
        }
        close(master)
        close(slave)
    }

    /// The terminal's settings (`termios`) as bytes.
    static func settings(of fd: Int32) -> [UInt8] {
        var settings = termios()
        tcgetattr(fd, &settings)
        return withUnsafeBytes(of: &settings) { Array($0) }
    }

    /// The output as text.
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Types `text` (bytes as given; "\u{3}" is Ctrl-C).
    func type(_ text: String) {
        _ = text.utf8CString.dropLast().withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads output until `needle` appears after `from` bytes, or `timeout` passes.
    /// - Returns: whether it appeared.
    @discardableResult
    func expect(_ needle: String, after from: Int? = nil, timeout: Duration = .seconds(10)) -> Bool {
        let start = from ?? 0
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if String(decoding: output[min(start, output.count)...], as: UTF8.self).contains(needle) { return true }
            pump(until: deadline)
        }
        return String(decoding: output[min(start, output.count)...], as: UTF8.self).contains(needle)
    }

    /// Reads whatever arrives before `deadline` (one poll).
    private func pump(until deadline: ContinuousClock.Instant) {
        var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let left = ContinuousClock.now.duration(to: deadline)
        let ms = max(1, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
        if poll(&pfd, 1, min(ms, 100)) > 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(master, &chunk, chunk.count)
            if n > 0 { output += chunk[0..<n] } else { usleep(1000) }
        }
    }

    /// Waits for the program to exit, draining its output; nil if it did not within `timeout`.
    func waitForExit(timeout: Duration = .seconds(10)) -> Termination? {
        if let termination { return termination }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                termination = Termination(waitStatus: status)
                pump(until: ContinuousClock.now + .milliseconds(20))
                return termination
            }
            pump(until: min(deadline, ContinuousClock.now + .milliseconds(20)))
        }
        return nil
    }

    /// Waits until the program is stopped (Ctrl-Z); false if it did not stop within `timeout`.
    func waitForStop(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG | WUNTRACED) == pid { return status & 0xFF == 0x7F }
            pump(until: min(deadline, ContinuousClock.now + .milliseconds(20)))
        }
        return false
    }

    /// Resizes the terminal, as a terminal emulator does; the kernel sends SIGWINCH.
    func resize(columns: UInt16, rows: UInt16) {
        _ = CSystem_setWindowSize(master, rows, columns)
    }

    /// Sends `signal` to the program.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// The terminal's settings now.
    var settingsNow: [UInt8] { Self.settings(of: slave) }
}
