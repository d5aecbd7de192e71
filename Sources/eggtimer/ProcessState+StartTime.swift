import Glibc

extension ProcessState {
    /// When `pid` started, in clock ticks after boot (`/proc/PID/stat` field 22, `starttime`):
    /// with the pid, it names one process for the whole boot, since a pid is reused only by a
    /// process that starts later.
    /// - Parameter pid: The process.
    /// - Returns: The start time, or nil when the process is gone or the file cannot be read.
    /// C: `open`, `read`.
    static func startTime(of pid: pid_t) -> UInt64? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = read(fd, &buffer, buffer.count)
        // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
        guard count > 0, let close = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}
