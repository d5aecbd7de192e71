import Glibc

/// A process's scheduling state as `/proc/PID/stat` gives it (proc(5)): the one letter after the
/// parenthesised command name (R running, S sleeping, T stopped, t traced, Z zombie, X dead…).
enum ProcessState {
    /// The state letter of `pid`; nil when the process is gone or the file cannot be read.
    static func letter(of pid: pid_t) -> UInt8? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0, let close = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")), close + 2 < count else {
            return nil
        }
        return buffer[close + 2]
    }

    /// Whether `pid` has ended (a zombie not yet reaped, dead, or gone).
    static func hasEnded(_ pid: pid_t) -> Bool {
        guard let letter = letter(of: pid) else { return true }
        return letter == UInt8(ascii: "Z") || letter == UInt8(ascii: "X")
    }

    /// Whether `pid` is stopped (SIGSTOP, SIGTSTP from Ctrl-Z, SIGTTIN/SIGTTOU) or stopped by a tracer.
    static func isStopped(_ pid: pid_t) -> Bool {
        let letter = letter(of: pid)
        return letter == UInt8(ascii: "T") || letter == UInt8(ascii: "t")
    }
}
