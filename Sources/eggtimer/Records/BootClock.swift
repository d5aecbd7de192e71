import Glibc
import TimerEngine

/// The boot clock (CLOCK_BOOTTIME, what `ContinuousClock` reads on Linux) across processes: the
/// boot's identity, and its instants as nanoseconds, which a record carries to another process.
///
/// Stateless; safe from any thread.
enum BootClock {
    /// The kernel's random id for this boot (`/proc/sys/kernel/random/boot_id`): a boot-clock
    /// reading means the same instant in another process only while it is unchanged.
    /// - Returns: The id (36 characters), or nil when it cannot be read.
    /// C: `open`, `read`.
    static func bootID() -> String? {
        let fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let id = String(decoding: buffer[0..<count].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return id.isEmpty ? nil : id
    }

    /// The instant of this boot whose CLOCK_BOOTTIME reading is `nanoseconds` (exact to the
    /// nanoseconds of ``MonotonicClock/anchor``).
    static func instant(bootNanoseconds nanoseconds: Int64) -> ContinuousClock.Instant {
        MonotonicClock.instant(bootNanoseconds: nanoseconds)
    }

    /// The instant of this boot at which the wall clock (as set now) reads `unixNanoseconds`.
    static func instant(unixNanoseconds: Int64) -> ContinuousClock.Instant {
        instant(bootNanoseconds: unixNanoseconds - WallClock.system.offset())
    }
}
