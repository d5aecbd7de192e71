public import Glibc

extension ProcessState {
    /// When `pid` started, in clock ticks after boot (`/proc/PID/stat` field 22, `starttime`):
    /// with the pid, it names one process for the whole boot, since a pid is reused only by a
    /// process that starts later.
    /// - Parameter pid: The process.
    /// - Returns: The start time, or nil when the process is gone or the file cannot be read.
    /// C: `open`, `read` (``statFields(of:)``).
    public static func startTime(of pid: pid_t) -> UInt64? {
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        guard let fields = statFields(of: pid), fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}
