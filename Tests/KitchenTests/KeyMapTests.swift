import KeyInput
import SystemKit
import Testing
import TimerText

@testable import Kitchen
@testable import TimerEngine

/// The keypad's map as a table: key code, long or not, ringing or not → action.
@Suite struct KeyMapTests {
    /// Any instant will do; nothing sleeps.
    static let t0 = ContinuousClock.now
    static let pasta = StartRequest(length: .duration(.seconds(540)), label: "pasta")
    static func egg(_ name: String) -> KeyAction { .start(StartRequest(length: .preset(name))) }

    @Test(
        arguments: [
            (KeyCode.digits[1], false, false, egg("soft")),
            (KeyCode.keypadDigits[1], false, false, egg("soft")),
            (KeyCode.digits[2], false, false, egg("medium")),
            (KeyCode.keypadDigits[2], false, false, egg("medium")),
            (KeyCode.digits[3], true, false, egg("hard")),  // held, nothing rings: a plain press
            (KeyCode.keypadDigits[3], false, false, egg("hard")),
            (KeyCode.digits[4], false, false, .start(pasta)),
            (KeyCode.keypadDigits[4], false, false, .start(pasta)),
            (KeyCode.keypadPlus, false, false, .addToNewest(.seconds(60))),
            (KeyCode.equal, false, false, .addToNewest(.seconds(60))),
            (KeyCode.keypadMinus, false, false, .addToNewest(.seconds(-60))),
            (KeyCode.minus, false, false, .addToNewest(.seconds(-60))),
            (KeyCode.digits[0], false, false, .cancelPending(deadline: t0 + .seconds(3))),
            (KeyCode.keypadDigits[0], false, false, .cancelPending(deadline: t0 + .seconds(3))),
            (KeyCode.backspace, false, false, .cancelPending(deadline: t0 + .seconds(3))),
            (KeyCode.dot, false, false, .report),
            (KeyCode.keypadDot, false, false, .report),
            (KeyCode.enter, false, false, .report),
            (KeyCode.keypadEnter, false, false, .report),
            (KeyCode.keypadAsterisk, false, false, .testSound),
            // `.` or Enter held a second, nothing ringing: a web pairing code, spoken.
            (KeyCode.dot, true, false, .pairingCode),
            (KeyCode.keypadDot, true, false, .pairingCode),
            (KeyCode.enter, true, false, .pairingCode),
            (KeyCode.keypadEnter, true, false, .pairingCode),
            // While something rings every key, mapped or not, acknowledges; held, it snoozes.
            (KeyCode.digits[1], false, true, .acknowledgeAllRinging),
            (KeyCode.keypadEnter, false, true, .acknowledgeAllRinging),
            (KeyCode.letterA, false, true, .acknowledgeAllRinging),
            (KeyCode.power, false, true, .acknowledgeAllRinging),
            (KeyCode.digits[0], false, true, .acknowledgeAllRinging),
            (KeyCode.keypadDigits[1], true, true, .snoozeAllRinging),
            (KeyCode.enter, true, true, .snoozeAllRinging),
        ] as [(KeyCode, Bool, Bool, KeyAction)])
    func aPressMeans(code: KeyCode, isLong: Bool, ringing: Bool, action: KeyAction) {
        var map = KeyMap(starts: [4: Self.pasta])
        #expect(map.action(for: KeyPress(code: code, isLong: isLong), ringing: ringing, at: Self.t0) == action)
    }

    @Test(arguments: [
        KeyCode.digits[5], KeyCode.keypadDigits[9], KeyCode.letterA, KeyCode.power, KeyCode(rawValue: 0x110),
    ])
    func keysNotInTheMapDoNothing(code: KeyCode) {
        var map = KeyMap(starts: [4: Self.pasta])
        #expect(map.action(for: KeyPress(code: code), ringing: false, at: Self.t0) == nil)
        #expect(map.action(for: KeyPress(code: code, isLong: true), ringing: false, at: Self.t0) == nil)
    }

    @Test func aCancelFiresAfterThreeSecondsAndASecondPressWithdrawsIt() {
        var map = KeyMap()
        #expect(
            map.action(for: KeyPress(code: .digits[0]), ringing: false, at: Self.t0)
                == .cancelPending(deadline: Self.t0 + .seconds(3)))
        #expect(map.cancelDeadline == Self.t0 + .seconds(3))
        #expect(map.expire(at: Self.t0 + .milliseconds(2999)) == nil)
        #expect(map.expire(at: Self.t0 + .seconds(3)) == .cancelNewest)
        #expect(map.cancelDeadline == nil)
        #expect(map.expire(at: Self.t0 + .seconds(9)) == nil)

        #expect(
            map.action(for: KeyPress(code: .backspace), ringing: false, at: Self.t0 + .seconds(10))
                == .cancelPending(deadline: Self.t0 + .seconds(13)))
        #expect(
            map.action(for: KeyPress(code: .keypadDigits[0]), ringing: false, at: Self.t0 + .seconds(11))
                == .cancelWithdrawn)
        #expect(map.cancelDeadline == nil)
        #expect(map.expire(at: Self.t0 + .seconds(20)) == nil)
    }

    @Test func onlyTheDigitsFourToNineTakeStarts() {
        var map = KeyMap(starts: [1: Self.pasta, 9: Self.pasta])
        #expect(map.action(for: KeyPress(code: .digits[1]), ringing: false, at: Self.t0) == Self.egg("soft"))
        #expect(map.action(for: KeyPress(code: .keypadDigits[9]), ringing: false, at: Self.t0) == .start(Self.pasta))
    }
}
