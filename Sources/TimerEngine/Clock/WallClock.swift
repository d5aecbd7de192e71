package import Glibc
import SystemKit
import TextCoding
import TimerCore

/// Wall-clock time for the log: CLOCK_BOOTTIME nanoseconds (the events' instants) as UTC ISO 8601
/// for JSON and as local `HH:MM:SS` for plain lines.
///
/// The mapping reads CLOCK_REALTIME and CLOCK_BOOTTIME as a pair each time an event is logged,
/// and places the event's own instant on it: an event logged late (an acknowledgement held for
/// the audio stop) keeps the time it happened, and a wall clock set after eggtimer started (NTP
/// at boot, before a service's clock is synced) is honoured. Immutable; safe from any thread.
package struct WallClock: Sendable {
    /// CLOCK_REALTIME minus CLOCK_BOOTTIME now, in nanoseconds.
    package var offset: @Sendable () -> Int64
    /// Local broken-down time of a Unix time in seconds (`localtime_r`, TZ honoured).
    package var local: @Sendable (time_t) -> tm

    /// The system's clocks and time zone.
    package static let system = WallClock(
        offset: {
            // CLOCK_REALTIME read between two CLOCK_BOOTTIME reads, the tightest of a few tries:
            // a preemption between two plain reads would shift `time` by its length.
            func read(_ clock: clockid_t) -> Int64 {
                var spec = timespec()
                clock_gettime(clock, &spec)
                return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
            }
            var best: (offset: Int64, width: Int64)?
            for _ in 0..<8 {
                let before = read(CLOCK_BOOTTIME)
                let real = read(CLOCK_REALTIME)
                let width = read(CLOCK_BOOTTIME) - before
                if best == nil || width < best!.width { best = (real - (before + width / 2), width) }
                if width < 2_000 { break }
            }
            return best!.offset
        },
        local: { seconds in
            var seconds = seconds
            var parts = tm()
            tzset()
            localtime_r(&seconds, &parts)
            return parts
        })

    /// Unix time in nanoseconds of an instant given as CLOCK_BOOTTIME nanoseconds.
    package func unixNanoseconds(bootNanoseconds: Int64) -> Int64 { bootNanoseconds + offset() }

    /// `2026-11-30T09:12:03.456Z`: UTC, milliseconds rounded down (``UTCTimestamp``).
    package func utcText(bootNanoseconds: Int64) -> String {
        UTCTimestamp.text(unixNanoseconds: unixNanoseconds(bootNanoseconds: bootNanoseconds))
    }

    /// `09:12:03`: the local time of day, 24-hour.
    package func localClockText(bootNanoseconds: Int64) -> String {
        let unix = unixNanoseconds(bootNanoseconds: bootNanoseconds)
        let parts = local(time_t(WholeSeconds.wallSecond(unixNanoseconds: unix)))
        return "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
    }

}
