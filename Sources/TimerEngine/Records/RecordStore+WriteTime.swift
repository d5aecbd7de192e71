import Glibc
package import TimerText

extension RecordStore {
    /// When the record file `path` was last written, by the wall clock at that moment (its
    /// modification time): a floor for "now" after a reboot (``RecoveredDeadline/floor``).
    /// - Parameter path: The record file.
    /// - Returns: The time, or nil when the file cannot be looked at.
    /// C: `lstat`.
    package static func writeTime(path: String) -> WallInstant? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return WallInstant(unixNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}
