import KeyInput
import SystemKit
import Testing

/// Hand-written event sequences through the reader, as records by the header's layout.
@Suite struct KeyPressReaderTests {
    typealias Reader = KeyPressReader<ContinuousClock.Instant>
    /// Any instant will do; nothing sleeps.
    let t0 = ContinuousClock.now

    /// The time stamps' origin (a wall-clock second, as evdev's default clock gives).
    static let epoch = Duration.seconds(1_764_000_000)

    static func key(_ code: KeyCode, _ value: Int32, at milliseconds: Int64) -> InputEvent {
        InputEvent(time: epoch + .milliseconds(milliseconds), type: InputEvent.key, code: code.rawValue, value: value)
    }

    static func sync(at milliseconds: Int64, _ code: UInt16 = InputEvent.synchronizationReport) -> InputEvent {
        InputEvent(time: epoch + .milliseconds(milliseconds), type: InputEvent.synchronization, code: code, value: 0)
    }

    /// A press of `code` that went down at `down` and ended at `end` (milliseconds from ``epoch``).
    static func press(_ code: KeyCode, long: Bool = false, _ down: Int64, _ end: Int64) -> KeyPress {
        KeyPress(code: code, isLong: long, down: epoch + .milliseconds(down), end: epoch + .milliseconds(end))
    }

    static func bytes(_ events: [InputEvent]) -> [UInt8] { events.flatMap(\.bytes) }

    @Test func theRecordIsTheHeadersSizeAndRoundTrips() {
        #expect(InputEvent.recordBytes == MemoryLayout<Int>.size * 2 + 8)  // 24 on 64-bit, 16 on 32-bit
        let event = Self.key(.keypadDigits[1], 1, at: 1234)
        #expect(event.bytes.count == InputEvent.recordBytes)
        #expect(InputEvent.records(in: event.bytes) == [event])
    }

    @Test func aPressAndReleaseIsOneShortPress() {
        var reader = Reader()
        let presses = reader.read(
            Self.bytes([
                Self.key(.digits[1], 1, at: 0), Self.sync(at: 0), Self.key(.digits[1], 0, at: 120), Self.sync(at: 120),
            ]),
            at: t0)
        #expect(presses == [Self.press(.digits[1], 0, 120)])
        #expect(reader.nextDeadline == nil)
    }

    @Test func autoRepeatIsIgnoredAndThePressCountedOnce() {
        var reader = Reader()
        var events = [Self.key(.digits[2], 1, at: 0)]
        for step in 0..<10 {
            events += [Self.key(.digits[2], 2, at: 250 + 33 * Int64(step)), Self.sync(at: 250 + 33 * Int64(step))]
        }
        events.append(Self.key(.digits[2], 0, at: 600))
        #expect(reader.read(Self.bytes(events), at: t0) == [Self.press(.digits[2], 0, 600)])
    }

    @Test func aReleaseASecondLaterIsALongPress() {
        var reader = Reader()
        #expect(reader.read(Self.bytes([Self.key(.enter, 1, at: 0)]), at: t0).isEmpty)
        #expect(
            reader.read(Self.bytes([Self.key(.enter, 0, at: 1000)]), at: t0 + .milliseconds(1)) == [
                Self.press(.enter, long: true, 0, 1000)
            ])
    }

    @Test func aRepeatASecondLaterIsALongPressAtOnceAndTheReleaseAddsNothing() {
        var reader = Reader()
        let held = reader.read(
            Self.bytes([Self.key(.enter, 1, at: 0), Self.key(.enter, 2, at: 967), Self.key(.enter, 2, at: 1000)]),
            at: t0)
        #expect(held == [Self.press(.enter, long: true, 0, 1000)])
        #expect(
            reader.read(Self.bytes([Self.key(.enter, 2, at: 1033), Self.key(.enter, 0, at: 3000)]), at: t0).isEmpty)
    }

    /// Read late in one batch, a press and its release judge by their time stamps, not the loop's clock.
    @Test func aShortPressReadLateIsStillShort() {
        var reader = Reader()
        let presses = reader.read(
            Self.bytes([Self.key(.enter, 1, at: 0), Self.key(.enter, 0, at: 200)]), at: t0 + .seconds(5))
        #expect(presses == [Self.press(.enter, 0, 200)])
    }

    @Test func withNoReleaseTheLoopsTimerMakesTheLongPress() {
        var reader = Reader()
        _ = reader.read(Self.bytes([Self.key(.keypadEnter, 1, at: 0), Self.sync(at: 0)]), at: t0)
        #expect(reader.nextDeadline == t0 + .seconds(1))
        #expect(reader.expire(at: t0 + .milliseconds(999)).isEmpty)
        #expect(reader.expire(at: t0 + .seconds(1)) == [Self.press(.keypadEnter, long: true, 0, 1000)])
        #expect(reader.nextDeadline == nil)
        #expect(reader.read(Self.bytes([Self.key(.keypadEnter, 0, at: 1500)]), at: t0 + .seconds(2)).isEmpty)
    }

    @Test(arguments: [1, 5, 7, 23, 24, 25, 47])
    func splitReadsAreBuffered(chunk: Int) {
        var reader = Reader()
        let bytes = Self.bytes([
            Self.key(.digits[3], 1, at: 0), Self.sync(at: 0), Self.key(.digits[3], 0, at: 80), Self.sync(at: 80),
            Self.key(.keypadDigits[1], 1, at: 500), Self.key(.keypadDigits[1], 0, at: 560),
        ])
        var presses: [KeyPress] = []
        var offset = 0
        while offset < bytes.count {
            presses += reader.read(Array(bytes[offset..<min(bytes.count, offset + chunk)]), at: t0)
            offset += chunk
        }
        #expect(presses == [Self.press(.digits[3], 0, 80), Self.press(.keypadDigits[1], 500, 560)])
    }

    @Test func garbageTypesCodesAndValuesAreIgnored() {
        var reader = Reader()
        let presses = reader.read(
            Self.bytes([
                InputEvent(time: .zero, type: 2, code: 0, value: 5),  // EV_REL
                InputEvent(time: .zero, type: 0xFFFF, code: 0xFFFF, value: -1),
                InputEvent(time: .zero, type: InputEvent.key, code: 0xFFFF, value: 1),  // past KEY_MAX
                InputEvent(time: .zero, type: InputEvent.key, code: 0, value: 1),  // KEY_RESERVED
                Self.key(.digits[1], 7, at: 0), Self.key(.digits[1], -1, at: 0),
                Self.key(.digits[1], 0, at: 10),  // a release of a key never down
                InputEvent(time: .zero, type: InputEvent.key, code: 0xFFFF, value: 0),
                Self.key(.digits[2], 1, at: 20), Self.key(.digits[2], 1, at: 30), Self.key(.digits[2], 0, at: 40),
            ]), at: t0)
        #expect(presses == [Self.press(.digits[2], 20, 40)])
    }

    /// Time fields of all ones or the highest values a FIFO can carry (the time is the record's
    /// first part and type, code and value its last 8 bytes, in either layout).
    @Test(arguments: [UInt8(0x7F), 0xFF, 0x80])
    func garbageTimeStampsDoNotTrapAndThePressCountsOnce(fill: UInt8) {
        var reader = Reader()
        let timeBytes = InputEvent.recordBytes - 8
        var down = Self.key(.digits[1], 1, at: 0).bytes
        down.replaceSubrange(0..<timeBytes, with: [UInt8](repeating: fill, count: timeBytes))
        var up = Self.key(.digits[1], 0, at: 0).bytes
        up.replaceSubrange(0..<timeBytes, with: [UInt8](repeating: 0, count: timeBytes))
        let presses = reader.read(down + up, at: t0)
        #expect(presses.map(\.code) == [.digits[1]])  // short or long: the release's stamp decides
        #expect(reader.read(down, at: t0) == [])
        #expect(reader.expire(at: t0 + .seconds(1)).map(\.description) == ["key 2 held"])
    }

    @Test func afterSynDroppedTheHalfLostPressIsNotCountedAndTheNextIs() {
        var reader = Reader()
        let presses = reader.read(
            Self.bytes([
                Self.key(.digits[1], 1, at: 0), Self.sync(at: 5, InputEvent.synchronizationDropped),
                Self.key(.digits[2], 1, at: 6), Self.key(.digits[2], 0, at: 7),  // lost with the report
                Self.sync(at: 8), Self.key(.digits[1], 0, at: 10), Self.sync(at: 10),
                Self.key(.digits[3], 1, at: 20), Self.key(.digits[3], 0, at: 30),
            ]), at: t0)
        #expect(presses == [Self.press(.digits[3], 20, 30)])
    }

    @Test func twoKeysHeldTogetherAreTwoPresses() {
        var reader = Reader()
        let presses = reader.read(
            Self.bytes([
                Self.key(.digits[1], 1, at: 0), Self.key(.digits[2], 1, at: 10), Self.key(.digits[2], 0, at: 100),
                Self.key(.digits[1], 0, at: 1200),
            ]), at: t0)
        #expect(presses == [Self.press(.digits[2], 10, 100), Self.press(.digits[1], long: true, 0, 1000)])
    }
}
