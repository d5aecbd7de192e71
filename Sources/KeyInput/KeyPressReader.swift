public import SystemKit

/// Turns one device's input event records into key presses, each counted once.
///
/// A key event with value 1 starts a press and 0 ends it; 2 (auto-repeat) never counts as a
/// press of its own. A key still down ``longPress`` after it went down, judged by the events'
/// own time stamps (a repeat, a release or any later event of the device that late), is a long
/// press, reported at once; its release then reports nothing. When no event comes, the loop arms
/// a timer at ``holdDeadline`` and calls ``expire(at:)``: instants of the caller's clock, taken
/// when the press was read. Short reads are buffered (a FIFO may split a record); events of
/// other types, key codes past `KEY_MAX` and other values are ignored; after `SYN_DROPPED` (the
/// kernel's buffer overflowed) everything up to the next `SYN_REPORT` is dropped and the keys
/// held are forgotten, as libevdev does, so a press half lost is not counted.
///
/// Pure: no clock is read and no I/O is done. Not thread-safe: one owner.
public struct KeyPressReader<Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration, Instant: Sendable {
    /// How long a key must be held to make a long press: one second.
    public static var longPress: Duration { .seconds(1) }

    /// A key that is down and not yet counted.
    private struct Hold: Sendable {
        /// The down event's own time stamp.
        var down: Duration
        /// When the caller read the down event (the loop's timer runs from it).
        var readAt: Instant
    }

    /// The bytes of a partial record, kept for the next read; fewer than one record.
    private var partial: [UInt8] = []
    private var held: [KeyCode: Hold] = [:]
    private var dropping = false

    /// A reader with nothing buffered and no key down.
    public init() {}

    /// When the earliest key down now becomes a long press unless an event says otherwise:
    /// ``longPress`` after its down event was read; nil when no key is down.
    public var holdDeadline: Instant? { held.values.map { $0.readAt.advanced(by: Self.longPress) }.min() }

    /// Whether any key is down and not yet counted.
    public var isHolding: Bool { !held.isEmpty }

    /// Reads bytes as they came from the device.
    /// - Parameters:
    ///   - bytes: What one read gave, any length; a partial record is kept for the next call.
    ///   - now: When they were read, on the caller's clock.
    /// - Returns: The presses they complete, in order.
    /// - Complexity: O(n) in the byte count.
    public mutating func read(_ bytes: [UInt8], at now: Instant) -> [KeyPress] {
        let all = partial + bytes
        let whole = all.count - all.count % InputEvent.recordBytes
        partial = Array(all[whole...])
        return read(events: InputEvent.records(in: Array(all[..<whole])), at: now)
    }

    /// Reads records already decoded.
    /// - Parameters:
    ///   - events: The records, in the device's order.
    ///   - now: When they were read, on the caller's clock.
    /// - Returns: The presses they complete, in order.
    /// - Complexity: O(n) in the event count times the keys held.
    public mutating func read(events: [InputEvent], at now: Instant) -> [KeyPress] {
        var presses: [KeyPress] = []
        for event in events {
            if event.type == InputEvent.synchronization {
                if event.code == InputEvent.synchronizationDropped {
                    dropping = true
                    held = [:]
                } else if event.code == InputEvent.synchronizationReport {
                    dropping = false
                }
            }
            guard !dropping else { continue }
            presses += longHolds(before: event.time)
            guard event.type == InputEvent.key, event.code > 0, event.code <= InputEvent.highestKeyCode else {
                continue
            }
            let code = KeyCode(rawValue: event.code)
            switch event.value {
            case 1 where held[code] == nil: held[code] = Hold(down: event.time, readAt: now)
            case 0:
                if held.removeValue(forKey: code) != nil { presses.append(KeyPress(code: code)) }
            default: break  // auto-repeat, a second down, garbage
            }
        }
        return presses
    }

    /// Makes long presses of the keys still down at `now`, by the caller's clock: what the loop
    /// calls when its timer at ``holdDeadline`` fires and the device said nothing more.
    ///
    /// Read the device first: a release waiting there is judged by its time stamp.
    /// - Parameter now: The caller's clock now.
    /// - Returns: The long presses, in code order.
    public mutating func expire(at now: Instant) -> [KeyPress] {
        let due = held.filter { $0.value.readAt.advanced(by: Self.longPress) <= now }.keys.sorted()
        for code in due { held[code] = nil }
        return due.map { KeyPress(code: $0, isLong: true) }
    }

    /// The keys down since ``longPress`` or more before the time stamp `time`, counted now as
    /// long presses (in code order) and forgotten.
    private mutating func longHolds(before time: Duration) -> [KeyPress] {
        guard !held.isEmpty else { return [] }
        let due = held.filter { time - $0.value.down >= Self.longPress }.keys.sorted()
        for code in due { held[code] = nil }
        return due.map { KeyPress(code: $0, isLong: true) }
    }
}
