import CSystem
import Glibc

/// One record of the kernel's input event stream (linux/input.h `struct input_event`): a time
/// stamp, a type, a code and a value.
///
/// Read and written by the header's layout through the C shim (``recordBytes``: 24 bytes on
/// 64-bit userspace, 16 on 32-bit without 64-bit time), never by hand-written offsets. A plain
/// value; any thread.
public struct InputEvent: Sendable, Hashable {
    /// When the kernel stamped it: seconds and microseconds since the device's clock's epoch
    /// (CLOCK_REALTIME unless someone set another), as the record carries them.
    public var time: Duration
    /// The event type: ``synchronization``, ``key``, or another the reader ignores.
    public var type: UInt16
    /// The key code for a ``key`` event (`KEY_1` = 2), ``synchronizationReport`` or
    /// ``synchronizationDropped`` for a ``synchronization`` one.
    public var code: UInt16
    /// For a key: 1 pressed, 0 released, 2 auto-repeat.
    public var value: Int32

    /// A record of the given fields.
    /// - Parameters:
    ///   - time: The time stamp; whole microseconds are kept (a negative one or one past the
    ///     record's seconds field is the caller's garbage to make: tests do).
    ///   - type: The event type.
    ///   - code: The code.
    ///   - value: The value.
    public init(time: Duration, type: UInt16, code: UInt16, value: Int32) {
        (self.time, self.type, self.code, self.value) = (time, type, code, value)
    }

    /// The size of one record in bytes, from the header: `sizeof(struct input_event)`.
    public static let recordBytes = Int(CSystem_inputEventSize)

    /// `EV_SYN`: a synchronization event (the end of a report, or a dropped report).
    public static let synchronization = UInt16(CSystem_EV_SYN)
    /// `EV_KEY`: a key or button went down, up, or repeats.
    public static let key = UInt16(CSystem_EV_KEY)
    /// `SYN_REPORT`: the events since the last one form one report.
    public static let synchronizationReport = UInt16(CSystem_SYN_REPORT)
    /// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost up to the next report.
    public static let synchronizationDropped = UInt16(CSystem_SYN_DROPPED)
    /// `KEY_MAX`: the highest key code there is.
    public static let highestKeyCode = UInt16(CSystem_KEY_MAX)
    /// `BTN_MISC`: the first button code; the codes below it (but 0) are keys, the buttons of mice
    /// and joysticks start here.
    public static let firstButtonCode = UInt16(CSystem_BTN_MISC)

    /// The whole records in `bytes`, in order; a partial record at the end is left out (the
    /// caller keeps its bytes for the next read).
    /// - Parameter bytes: Bytes as read from an input device, starting at a record's start.
    /// - Returns: `bytes.count / recordBytes` records.
    /// - Complexity: O(n) in the byte count.
    public static func records(in bytes: [UInt8]) -> [InputEvent] {
        let count = bytes.count / recordBytes
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { index in
                var record = raw.loadUnaligned(fromByteOffset: index * recordBytes, as: input_event.self)
                let seconds = CSystem_inputEventSeconds(&record)
                let microseconds = CSystem_inputEventMicroseconds(&record)
                return InputEvent(
                    time: .seconds(seconds) + .microseconds(microseconds), type: record.type, code: record.code,
                    value: record.value)
            }
        }
    }

    /// The record as the kernel writes it (``recordBytes`` bytes): what a test feeds a FIFO that
    /// stands in for a device.
    ///
    /// The time is cut to whole microseconds.
    public var bytes: [UInt8] {
        var record = input_event()
        record.type = type
        record.code = code
        record.value = value
        let (seconds, attoseconds) = time.components
        CSystem_setInputEventTime(&record, seconds, attoseconds / 1_000_000_000_000)
        return withUnsafeBytes(of: &record) { Array($0) }
    }
}

/// A key's code in the kernel's input events (linux/input-event-codes.h `KEY_*`).
///
/// Names only for the keys eggtimer reads and the tests use; any code can be made from its
/// number. A plain value; any thread.
public struct KeyCode: RawRepresentable, Hashable, Sendable, Comparable {
    /// The code: `KEY_1` is 2.
    public var rawValue: UInt16

    /// The key with code `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static func < (left: KeyCode, right: KeyCode) -> Bool { left.rawValue < right.rawValue }

    /// `KEY_0` … `KEY_9` of the top row, by digit.
    public static let digits: [KeyCode] = [KEY_0, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9].map(
        code)
    /// `KEY_KP0` … `KEY_KP9` of the numeric keypad, by digit.
    public static let keypadDigits: [KeyCode] =
        [KEY_KP0, KEY_KP1, KEY_KP2, KEY_KP3, KEY_KP4, KEY_KP5, KEY_KP6, KEY_KP7, KEY_KP8, KEY_KP9].map(code)
    /// `KEY_KPPLUS`.
    public static let keypadPlus = code(KEY_KPPLUS)
    /// `KEY_KPMINUS`.
    public static let keypadMinus = code(KEY_KPMINUS)
    /// `KEY_KPASTERISK`.
    public static let keypadAsterisk = code(KEY_KPASTERISK)
    /// `KEY_KPDOT`.
    public static let keypadDot = code(KEY_KPDOT)
    /// `KEY_KPENTER`.
    public static let keypadEnter = code(KEY_KPENTER)
    /// `KEY_EQUAL` (with Shift, `+` on most layouts).
    public static let equal = code(KEY_EQUAL)
    /// `KEY_MINUS`.
    public static let minus = code(KEY_MINUS)
    /// `KEY_DOT`.
    public static let dot = code(KEY_DOT)
    /// `KEY_ENTER`.
    public static let enter = code(KEY_ENTER)
    /// `KEY_BACKSPACE`.
    public static let backspace = code(KEY_BACKSPACE)
    /// `KEY_A`, a letter no map uses (tests).
    public static let letterA = code(KEY_A)
    /// `KEY_POWER`, a power button's only key.
    public static let power = code(KEY_POWER)

    private static func code(_ value: Int32) -> KeyCode { KeyCode(rawValue: UInt16(value)) }
}

/// Takes the input device open on `descriptor` for this descriptor alone, so its key presses
/// no longer reach the console or other readers (released when the descriptor closes).
/// - Parameter descriptor: An open input device.
/// - Throws: ``Errno`` (`EBUSY` when another holds it, `ENOTTY` when it is not an input device,
///   such as a FIFO). Any thread. C: `ioctl(EVIOCGRAB)`.
public func grabInputDevice(_ descriptor: Int32) throws(Errno) {
    guard CSystem_grabInputDevice(descriptor, 1) == 0 else { throw .current }
}

/// The name the input device open on `descriptor` gives itself (`USB Keypad`, `gpio-keys`).
/// - Parameter descriptor: An open input device.
/// - Returns: The name, invalid UTF-8 repaired, at most 255 bytes.
/// - Throws: ``Errno`` (`ENOTTY` when it is not an input device, such as a FIFO). Any thread.
///   C: `ioctl(EVIOCGNAME)`.
public func inputDeviceName(_ descriptor: Int32) throws(Errno) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let length = CSystem_inputDeviceName(descriptor, &buffer, UInt32(buffer.count - 1))
    guard length >= 0 else { throw .current }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Reads what is waiting on the non-blocking `descriptor`: at most `records` whole input event
/// records' worth of bytes (a FIFO may give less, even part of a record), retrying when a signal
/// interrupts.
/// - Parameters:
///   - descriptor: An input device (or a FIFO standing in), opened `O_NONBLOCK`.
///   - records: How many records one read takes at most, 1 or more.
/// - Returns: The bytes read; empty at end of file (a FIFO's writer closed).
/// - Throws: ``Errno``: `EAGAIN` when nothing waits, `ENODEV` when the device was unplugged.
///   Does not block on a non-blocking descriptor. C: `read`.
public func readInput(_ descriptor: Int32, records: Int) throws(Errno) -> [UInt8] {
    precondition(records > 0)
    var buffer = [UInt8](repeating: 0, count: records * InputEvent.recordBytes)
    while true {
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        if count >= 0 { return Array(buffer.prefix(count)) }
        if errno != EINTR { throw .current }
    }
}
