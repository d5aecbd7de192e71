public import Glibc

/// A process's scheduling state as `/proc/PID/stat` gives it (proc(5)): the one letter after the
/// parenthesised command name (R running, S sleeping, T stopped, t traced, Z zombie, X dead…).
public enum ProcessState {
    /// The fields of `/proc/PID/stat` after the command name: the first is field 3 (the state).
    ///
    /// The command name (field 2) may hold spaces and parentheses, so they are counted from the
    /// last `)`.
    /// - Parameter pid: The process.
    /// - Returns: The fields; nil when the process is gone or the file cannot be read.
    /// C: `open`, `read` (``RegularFile/contents(_:limit:)``).
    public static func statFields(of pid: pid_t) -> [ArraySlice<UInt8>]? {
        guard let bytes = RegularFile.contents("/proc/\(pid)/stat", limit: 1024),
            let close = bytes.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        return bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
    }

    /// The state letter of `pid`; nil when the process is gone or the file cannot be read.
    public static func letter(of pid: pid_t) -> UInt8? { statFields(of: pid)?.first?.first }

    /// Whether `pid` has ended (a zombie not yet reaped, dead, or gone).
    public static func hasEnded(_ pid: pid_t) -> Bool {
        guard let letter = letter(of: pid) else { return true }
        return letter == UInt8(ascii: "Z") || letter == UInt8(ascii: "X")
    }

    /// Whether `pid` is stopped (SIGSTOP, SIGTSTP from Ctrl-Z, SIGTTIN/SIGTTOU) or stopped by a tracer.
    public static func isStopped(_ pid: pid_t) -> Bool {
        let letter = letter(of: pid)
        return letter == UInt8(ascii: "T") || letter == UInt8(ascii: "t")
    }
}
