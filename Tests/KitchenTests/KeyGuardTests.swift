import KeyInput
import SystemKit
import Testing
import TimerText

@testable import Kitchen
@testable import TimerEngine

/// Issue 40: keys mean one thing at a time, judged by the presses' own time stamps.
///
/// A press that stops alarms guards against the next ones for the key guard: they may still
/// acknowledge, but never start, cancel or change a timer.
@Suite struct KeyGuardTests {
    /// Any instant will do; nothing sleeps (the key map's `now` only times a pending cancel).
    static let t0 = ContinuousClock.now
    /// The time stamps' origin (a wall-clock second, as evdev's default clock gives).
    static let epoch = Duration.seconds(1_764_000_000)

    /// A press of `code` down at `down` and let go 80 ms later (milliseconds from ``epoch``).
    static func press(_ code: KeyCode, at down: Int64, long: Bool = false) -> KeyPress {
        let start = epoch + .milliseconds(down)
        return KeyPress(code: code, isLong: long, down: start, end: long ? nil : start + .milliseconds(80))
    }

    /// A map whose guard is the default, 1 s.
    static func map() -> KeyMap { KeyMap(starts: [4: StartRequest(length: .duration(.seconds(540)), label: "pasta")]) }

    @Test func theDefaultGuardIsOneSecondAndTheLongestFive() {
        #expect(KeyGuard.standard == .seconds(1))
        #expect(KeyGuard.longest == .seconds(5))
        #expect(KeyMap().keyGuard == .seconds(1))
    }

    /// The other pot: Enter stops the ringing one, a second Backspace 300 ms after it was let go
    /// (read whenever) does not cancel the newest timer; one past the guard does.
    @Test func aSecondBackspaceRightAfterAStopCancelsNothing() {
        var map = Self.map()
        #expect(map.action(for: Self.press(.backspace, at: 0), ringing: true, at: Self.t0) == .acknowledgeAllRinging)
        // Read 10 s later by the loop's clock: the time stamps decide.
        let late = Self.t0 + .seconds(10)
        #expect(map.action(for: Self.press(.backspace, at: 380), ringing: false, at: late) == .ignoredAfterAlarm)
        #expect(map.cancelDeadline == nil, "no cancel is pending")
        #expect(
            map.action(for: Self.press(.backspace, at: 5000), ringing: false, at: late)
                == .cancelPending(deadline: late + .seconds(3)))
    }

    /// Enter then 1: no new egg; nor + or -, the speaker test, the report or a digit's start.
    @Test(arguments: [
        KeyCode.digits[1], .keypadDigits[3], .digits[4], .keypadPlus, .minus, .keypadAsterisk, .enter, .dot,
        .keypadDigits[0],
    ])
    func aKeyWithinTheGuardStartsCancelsAndChangesNothing(code: KeyCode) {
        var map = Self.map()
        #expect(map.action(for: Self.press(.enter, at: 0), ringing: true, at: Self.t0) == .acknowledgeAllRinging)
        #expect(map.action(for: Self.press(code, at: 900), ringing: false, at: Self.t0) == .ignoredAfterAlarm)
        #expect(
            map.action(for: Self.press(code, at: 900, long: true), ringing: false, at: Self.t0) == .ignoredAfterAlarm)
    }

    /// Within the guard a press still acknowledges what rings (another alarm, or the same one
    /// before the kitchen heard it stop), and a held one acknowledges too: it never snoozes.
    @Test func withinTheGuardAPressStillAcknowledgesAndNeverSnoozes() {
        var map = Self.map()
        #expect(map.action(for: Self.press(.digits[1], at: 0), ringing: true, at: Self.t0) == .acknowledgeAllRinging)
        #expect(
            map.action(for: Self.press(.digits[1], at: 500, long: true), ringing: true, at: Self.t0)
                == .acknowledgeAllRinging)
        #expect(map.action(for: Self.press(.digits[1], at: 400), ringing: false, at: Self.t0) == .ignoredAfterAlarm)
        // Away from the guard, a held key snoozes again.
        #expect(
            map.action(for: Self.press(.digits[1], at: 9000, long: true), ringing: true, at: Self.t0)
                == .snoozeAllRinging)
    }

    /// The guard lasts from each press it ignored: a key hammered at an alarm is all one stop;
    /// once the keys rest for the guard, the next press works.
    @Test func eachIgnoredPressMakesTheGuardLastFromIt() {
        var map = Self.map()
        #expect(map.action(for: Self.press(.enter, at: 0), ringing: true, at: Self.t0) == .acknowledgeAllRinging)
        for down: Int64 in [700, 1400, 2100, 2800] {
            #expect(
                map.action(for: Self.press(.digits[1], at: down), ringing: false, at: Self.t0) == .ignoredAfterAlarm)
        }
        // 2800 + 80 ms + 1 s is 3880: the guard's end is not in it.
        #expect(
            map.action(for: Self.press(.digits[1], at: 3880), ringing: false, at: Self.t0)
                == .start(StartRequest(length: .preset("soft"))))
    }

    /// A key not in the map says nothing within the guard either, and still makes it last.
    @Test func aKeyNotInTheMapSaysNothingAndStillMakesTheGuardLast() {
        var map = Self.map()
        #expect(map.action(for: Self.press(.enter, at: 0), ringing: true, at: Self.t0) == .acknowledgeAllRinging)
        #expect(map.action(for: Self.press(.letterA, at: 1000), ringing: false, at: Self.t0) == nil)
        #expect(map.action(for: Self.press(.digits[2], at: 1900), ringing: false, at: Self.t0) == .ignoredAfterAlarm)
    }

    /// A key pressed with the stopping one (both hands, two keys mashed: it went down first but
    /// was let go after) is guarded too; one that went down more than the guard before is not
    /// (a wall clock set back between two presses never freezes the keypad).
    @Test func aKeyDownAroundTheStopIsGuardedAndOneLongBeforeIsNot() {
        var map = Self.map()
        #expect(map.action(for: Self.press(.enter, at: 10_000), ringing: true, at: Self.t0) == .acknowledgeAllRinging)
        #expect(map.action(for: Self.press(.digits[1], at: 9_950), ringing: false, at: Self.t0) == .ignoredAfterAlarm)
        #expect(
            map.action(for: Self.press(.digits[2], at: -3_600_000), ringing: false, at: Self.t0)
                == .start(StartRequest(length: .preset("medium"))))
    }

    /// `key-guard = 0` turns it off: the press right after a stop acts.
    @Test func aZeroGuardIsOff() {
        var map = KeyMap(keyGuard: .zero)
        #expect(map.action(for: Self.press(.enter, at: 0), ringing: true, at: Self.t0) == .acknowledgeAllRinging)
        #expect(
            map.action(for: Self.press(.digits[1], at: 100), ringing: false, at: Self.t0)
                == .start(StartRequest(length: .preset("soft"))))
    }

    /// A snooze (a key held while ringing) stops the alarm as well: it guards too.
    @Test func aSnoozeGuardsToo() {
        var map = Self.map()
        #expect(
            map.action(for: Self.press(.enter, at: 0, long: true), ringing: true, at: Self.t0) == .snoozeAllRinging)
        #expect(map.action(for: Self.press(.backspace, at: 1500), ringing: false, at: Self.t0) == .ignoredAfterAlarm)
    }

    /// No alarm stopped, no guard: presses close together act as before (the cancel's withdrawal).
    @Test func withoutAStopNothingIsGuarded() {
        var map = Self.map()
        #expect(map.guarded == nil)
        #expect(
            map.action(for: Self.press(.backspace, at: 0), ringing: false, at: Self.t0)
                == .cancelPending(deadline: Self.t0 + .seconds(3)))
        #expect(map.action(for: Self.press(.backspace, at: 200), ringing: false, at: Self.t0) == .cancelWithdrawn)
    }
}
