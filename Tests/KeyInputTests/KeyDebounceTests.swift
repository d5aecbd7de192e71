import KeyInput
import SystemKit
import Testing

/// Issue 40: a key that bounces (closes again within a few milliseconds of its release, by the
/// events' own time stamps) counts once; presses further apart count each.
@Suite struct KeyDebounceTests {
    typealias Reader = KeyPressReader<ContinuousClock.Instant>
    /// Any instant will do; nothing sleeps.
    let t0 = ContinuousClock.now
    let debounce = Duration.milliseconds(10)

    private static func key(_ code: KeyCode, _ value: Int32, at milliseconds: Int64) -> InputEvent {
        KeyPressReaderTests.key(code, value, at: milliseconds)
    }

    private static func press(_ code: KeyCode, long: Bool = false, _ down: Int64, _ end: Int64) -> KeyPress {
        KeyPressReaderTests.press(code, long: long, down, end)
    }

    /// The records of `code` going down and up at these milliseconds, each with its SYN_REPORT.
    private static func changes(_ code: KeyCode, _ steps: [(Int64, Int32)]) -> [UInt8] {
        steps.flatMap { at, value in (key(code, value, at: at).bytes + KeyPressReaderTests.sync(at: at).bytes) }
    }

    /// A release bounce (up, down 3 ms later, up again) is one press, counted once the key stayed
    /// up for the debounce: at the loop's timer, which the reader asks for.
    @Test func aBounceAtTheReleaseCountsOnceWhenTheKeyStaysUp() {
        var reader = Reader(debounce: debounce)
        let bytes = Self.changes(.backspace, [(0, 1), (80, 0), (83, 1), (85, 0)])
        #expect(reader.read(bytes, at: t0).isEmpty, "not yet: it may still bounce")
        #expect(reader.nextDeadline == t0 + debounce)
        #expect(reader.expire(at: t0 + .milliseconds(9)).isEmpty)
        #expect(reader.expire(at: t0 + debounce) == [Self.press(.backspace, 0, 85)])
        #expect(reader.nextDeadline == nil)
        #expect(reader.expire(at: t0 + .seconds(5)).isEmpty)
    }

    /// A press bounce (down, up 2 ms later, down again) is one press from the first down: held
    /// a second from it, a long one, and its release adds nothing.
    @Test func aBounceAtThePressCountsOnceAndAHoldAfterItIsLong() {
        var reader = Reader(debounce: debounce)
        #expect(reader.read(Self.changes(.enter, [(0, 1), (2, 0), (4, 1)]), at: t0).isEmpty)
        #expect(reader.nextDeadline == t0 + .seconds(1))
        #expect(reader.expire(at: t0 + .seconds(1)) == [Self.press(.enter, long: true, 0, 1000)])
        #expect(reader.read(Self.changes(.enter, [(1500, 0), (1503, 1), (1505, 0)]), at: t0 + .seconds(2)).isEmpty)
        #expect(reader.expire(at: t0 + .seconds(3)).isEmpty, "its release and the bounce after it add nothing")
    }

    /// A later event of the device stamped past the debounce counts the release at once, before
    /// that event's own press.
    @Test func aLaterEventCountsTheReleaseByItsTimeStamp() {
        var reader = Reader(debounce: debounce)
        let bytes =
            Self.changes(.digits[1], [(0, 1), (60, 0), (62, 1), (70, 0)])
            + Self.changes(.digits[2], [(300, 1), (380, 0)])
        #expect(reader.read(bytes, at: t0) == [Self.press(.digits[1], 0, 70)])
        #expect(reader.expire(at: t0 + debounce) == [Self.press(.digits[2], 300, 380)])
    }

    /// Two presses of one key further apart than the debounce (a quick double press is tens of
    /// milliseconds apart at least) are two.
    @Test func twoPressesFartherApartThanTheDebounceAreTwo() {
        var reader = Reader(debounce: debounce)
        let bytes = Self.changes(.backspace, [(0, 1), (80, 0), (90, 1), (170, 0)])
        #expect(reader.read(bytes, at: t0) == [Self.press(.backspace, 0, 80)])
        #expect(reader.expire(at: t0 + debounce) == [Self.press(.backspace, 90, 170)])
    }

    /// Judged by the time stamps, not by when the records were read: the bounce read a second
    /// later in its own read is still a bounce.
    @Test func theBounceIsJudgedByTheTimeStampsNotTheReads() {
        var reader = Reader(debounce: debounce)
        #expect(reader.read(Self.changes(.digits[3], [(0, 1), (80, 0)]), at: t0).isEmpty)
        let late = t0 + .milliseconds(9)
        #expect(reader.read(Self.changes(.digits[3], [(84, 1), (90, 0)]), at: late).isEmpty)
        #expect(reader.expire(at: late + debounce) == [Self.press(.digits[3], 0, 90)])
    }

    /// With no debounce every release counts at once: the bounce is two presses (what the
    /// kitchen did before issue 40, and what `key-debounce = 0` asks for).
    @Test func withNoDebounceEveryReleaseCountsAtOnce() {
        var reader = Reader()
        let bytes = Self.changes(.backspace, [(0, 1), (80, 0), (83, 1), (85, 0)])
        #expect(reader.read(bytes, at: t0) == [Self.press(.backspace, 0, 80), Self.press(.backspace, 83, 85)])
        #expect(reader.nextDeadline == nil)
    }

    /// A press let go before the kernel's buffer overflowed still counts.
    @Test func aReleaseWaitingForItsDebounceCountsAtSynDropped() {
        var reader = Reader(debounce: debounce)
        let bytes =
            Self.changes(.digits[1], [(0, 1), (50, 0)])
            + KeyPressReaderTests.sync(at: 52, InputEvent.synchronizationDropped).bytes
        #expect(reader.read(bytes, at: t0) == [Self.press(.digits[1], 0, 50)])
        #expect(reader.nextDeadline == nil)
    }
}
