public import SystemKit

/// Turns one device's input event records into key presses, each counted once.
///
/// A key event with value 1 starts a press and 0 ends it; 2 (auto-repeat) never counts as a
/// press of its own. A key still down ``longPress`` after it went down, judged by the events'
/// own time stamps (a repeat, a release or any later event of the device that late), is a long
/// press, reported at once; its release then reports nothing. A key that goes down again less
/// than ``debounce`` after it was let go, by the time stamps, bounced: the two closings are one
/// press, from the first down to the last release (membrane keypads and bare GPIO buttons close
/// twice within a few milliseconds). So a release is reported once the key stayed up for
/// ``debounce``: when a later event of the device is stamped that late, or at the loop's timer.
/// When no event comes, the loop arms a timer at ``nextDeadline`` and calls ``expire(at:)``:
/// instants of the caller's clock, taken when the events were read. Short reads are buffered (a
/// FIFO may split a record); events of other types, key codes past `KEY_MAX` and other values
/// are ignored; after `SYN_DROPPED` (the kernel's buffer overflowed) everything up to the next
/// `SYN_REPORT` is dropped and the keys held are forgotten, as libevdev does, so a press half
/// lost is not counted (one already let go still counts).
///
/// Pure: no clock is read and no I/O is done. Not thread-safe: one owner.
public struct KeyPressReader<Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration, Instant: Sendable {
    /// How long a key must be held to make a long press: one second.
    public static var longPress: Duration { .seconds(1) }

    /// A key that is down.
    private struct Hold: Sendable {
        /// The time stamp of the down event that began the press.
        var down: Duration
        /// When the caller read that down event (the loop's timer runs from it).
        var readAt: Instant
        /// Whether it was already reported as a long press (its release then reports nothing).
        var counted = false
    }

    /// A key let go less than ``debounce`` ago by the time stamps, whose press is not reported yet.
    private struct Release: Sendable {
        /// The press it ends.
        var hold: Hold
        /// The release's own time stamp.
        var up: Duration
        /// When the caller read the release (the loop's timer runs from it).
        var readAt: Instant
    }

    /// How long a key must stay up after a release before the press counts.
    ///
    /// A down of the same key sooner is a bounce of the same press. Zero: every release counts at once.
    public let debounce: Duration
    /// The bytes of a partial record, kept for the next read; fewer than one record.
    private var partial: [UInt8] = []
    private var held: [KeyCode: Hold] = [:]
    private var released: [KeyCode: Release] = [:]
    private var dropping = false

    /// A reader with nothing buffered and no key down.
    /// - Parameter debounce: How long a key must stay up for its release to count
    ///   (``debounce``); none by default.
    /// - Precondition: `debounce` is not negative.
    public init(debounce: Duration = .zero) {
        precondition(debounce >= .zero, "a negative debounce")
        self.debounce = debounce
    }

    /// When the reader must be asked again (``expire(at:)``) unless an event comes first: the
    /// earliest of a key down becoming a long press (``longPress`` after its down was read) and a
    /// release counting (``debounce`` after it was read); nil when neither waits.
    public var nextDeadline: Instant? {
        let holds = held.values.filter { !$0.counted }.map { $0.readAt.advanced(by: Self.longPress) }
        return (holds + released.values.map { $0.readAt.advanced(by: debounce) }).min()
    }

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
                    presses += settle { _, _ in true }
                } else if event.code == InputEvent.synchronizationReport {
                    dropping = false
                }
            }
            guard !dropping else { continue }
            presses += due(before: event.time)
            guard event.type == InputEvent.key, event.code > 0, event.code <= InputEvent.highestKeyCode else {
                continue
            }
            let code = KeyCode(rawValue: event.code)
            switch event.value {
            case 1 where held[code] == nil:
                // Down again before the release counted: a bounce, the same press goes on.
                held[code] = released.removeValue(forKey: code)?.hold ?? Hold(down: event.time, readAt: now)
            case 0:
                guard let hold = held.removeValue(forKey: code) else { break }
                released[code] = Release(hold: hold, up: event.time, readAt: now)
                if debounce == .zero { presses += settle { key, _ in key == code } }
            default: break  // auto-repeat, a second down, garbage
            }
        }
        return presses
    }

    /// Counts what is due at `now`, by the caller's clock: the keys down since ``longPress``
    /// (long presses) and the releases up since ``debounce``; what the loop calls when its timer
    /// at ``nextDeadline`` fires and the device said nothing more.
    ///
    /// Read the device first: an event waiting there is judged by its time stamp.
    /// - Parameter now: The caller's clock now.
    /// - Returns: The presses, in the order they ended, then by code.
    public mutating func expire(at now: Instant) -> [KeyPress] {
        guard !held.isEmpty || !released.isEmpty else { return [] }
        let debounce = debounce
        var presses = holds { $0.readAt.advanced(by: Self.longPress) <= now }
        presses += settle { _, release in release.readAt.advanced(by: debounce) <= now }
        return presses.sorted { ($0.end, $0.code) < ($1.end, $1.code) }
    }

    /// What a device's event stamped `time` makes due first: the keys down since ``longPress``
    /// or more before it (long presses), and the releases ``debounce`` or more before it.
    private mutating func due(before time: Duration) -> [KeyPress] {
        guard !held.isEmpty || !released.isEmpty else { return [] }
        let debounce = debounce
        var presses = holds { time - $0.down >= Self.longPress }
        presses += settle { _, release in time - release.up >= debounce }
        return presses.sorted { ($0.end, $0.code) < ($1.end, $1.code) }
    }

    /// Counts as long presses the keys down, not counted yet, for which `isDue` holds; they stay
    /// down (counted) until their release.
    private mutating func holds(where isDue: (Hold) -> Bool) -> [KeyPress] {
        var presses: [KeyPress] = []
        for (code, hold) in held.sorted(by: { $0.key < $1.key }) where !hold.counted && isDue(hold) {
            held[code]?.counted = true
            presses.append(KeyPress(code: code, isLong: true, down: hold.down))
        }
        return presses
    }

    /// Counts the releases for which `isDue` holds: a short press each, none for a press already
    /// counted long; they are forgotten.
    private mutating func settle(_ isDue: (KeyCode, Release) -> Bool) -> [KeyPress] {
        var presses: [KeyPress] = []
        for (code, release) in released.sorted(by: { $0.key < $1.key }) where isDue(code, release) {
            released[code] = nil
            if !release.hold.counted { presses.append(KeyPress(code: code, down: release.hold.down, end: release.up)) }
        }
        return presses
    }
}
