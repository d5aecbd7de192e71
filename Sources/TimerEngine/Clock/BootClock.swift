import SystemKit

/// The boot clock (CLOCK_BOOTTIME, what `ContinuousClock` reads on Linux) across processes: the
/// boot's identity, and its instants as nanoseconds, which a record carries to another process.
///
/// Stateless; safe from any thread.
package enum BootClock {
    /// The kernel's random id for this boot (`/proc/sys/kernel/random/boot_id`): a boot-clock
    /// reading means the same instant in another process only while it is unchanged.
    /// - Returns: The id (36 characters), or nil when it cannot be read.
    package static func bootID() -> String? {
        guard let bytes = RegularFile.contents("/proc/sys/kernel/random/boot_id", limit: 64) else { return nil }
        let id = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return id.isEmpty ? nil : id
    }

    /// The instant of this boot whose CLOCK_BOOTTIME reading is `nanoseconds` (exact to the
    /// nanoseconds of ``MonotonicClock/anchor``).
    package static func instant(bootNanoseconds nanoseconds: Int64) -> ContinuousClock.Instant {
        MonotonicClock.instant(bootNanoseconds: nanoseconds)
    }

    /// The instant of this boot at which the wall clock (as set now) reads `unixNanoseconds`.
    package static func instant(unixNanoseconds: Int64) -> ContinuousClock.Instant {
        instant(bootNanoseconds: unixNanoseconds - WallClock.system.offset())
    }
}
