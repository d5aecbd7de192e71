import KeyInput
import SystemKit
import Testing
import TimerText

@testable import TimerEngine
@testable import eggtimer

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

/// The keypad's config keys: `keys`, `key-4` … `key-9`.
@Suite struct KeypadConfigTests {
    private func settings(_ text: String) throws -> Options {
        try Options.settings(
            from: ConfigFile(
                location: .init(path: Array("/home/u/config".utf8), required: false), contents: Array(text.utf8)))
    }

    private func message(_ text: String) -> String? {
        do {
            _ = try settings(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theDefaultIsAutoWithNoStarts() throws {
        #expect(try settings("").keypad == KeypadSettings())
        #expect(KeypadSettings().selection == .auto)
    }

    @Test func theKeysAndTheStartsAreRead() throws {
        let options = try settings(
            "keys = /dev/input/by-id/usb-Keypad-event-kbd\nkey-4 = pasta 9m\nkey-5 = 7m30s rice\nkey-9 = Soft\nkey-6 = 90\n"
        )
        #expect(options.keypad.selection == .path("/dev/input/by-id/usb-Keypad-event-kbd"))
        #expect(options.keypad.starts[4] == StartRequest(length: .duration(.seconds(540)), label: "pasta"))
        #expect(options.keypad.starts[5] == StartRequest(length: .duration(.seconds(450)), label: "rice"))
        #expect(options.keypad.starts[9] == StartRequest(length: .preset("soft")))
        #expect(options.keypad.starts[6] == StartRequest(length: .duration(.seconds(90)), label: "90"))
        #expect(try settings("keys = auto").keypad.selection == .auto)
    }

    @Test(arguments: [
        (
            "keys = event0",
            "/home/u/config:1: keys: needs auto, none or a device's absolute path (/dev/input/by-id/...), got 'event0'"
        ),
        (
            "keys = AUTO",
            "/home/u/config:1: keys: needs auto, none or a device's absolute path (/dev/input/by-id/...), got 'AUTO'"
        ),
        ("\nkey-4 = pasta", "/home/u/config:2: key-4: 'pasta' is neither a preset (soft, medium, hard) nor a duration"),
        ("key-4 = 9m --on-done=x", "/home/u/config:1: key-4: '--on-done=x': a start request takes no options"),
        (
            "key-4 = 9m a b",
            "/home/u/config:1: key-4: 'b': a start request is a preset or a duration and at most one label"
        ),
        ("key-4 = 0s", "/home/u/config:1: key-4: '0s' is neither a preset"),
        ("key-3 = 9m", "/home/u/config:1: key-3: unknown key"),
        ("key-10 = 9m", "/home/u/config:1: key-10: unknown key"),
        ("key-4 = 9m\nkey-4 = 8m", "/home/u/config:2: key-4: given twice (first on line 1)"),
    ])
    func aBadValueIsOneLineWithTheFileAndTheKey(text: String, expected: String) throws {
        let line = try #require(message(text))
        #expect(line.hasPrefix(expected), "\(line)")
        #expect(!line.contains("\n"))
    }

    @Test func theCommandLineHasNoKeyDigitOptionsAndKeysOnlyForTheKitchen() throws {
        for name in ["--key-4", "--key-9"] {
            #expect(throws: UsageError.self) { try Options.parse([name, "auto"]) }
            #expect(!Options.help.contains(name))
        }
        #expect(throws: UsageError.self) { try Options.parse(["--keys", "auto"]) }
        #expect(Options.help.contains("--keys"))
        #expect(try Options.parse(["kitchen", "--keys", "none"]).keypad.selection == nil)
        let named = try Options.parse(["kitchen", "--keys", "/dev/input/by-id/x"], base: try settings("keys = none"))
        #expect(named.keypad.selection == .path("/dev/input/by-id/x"), "the command line wins")
    }
}

/// The man page's KEYPAD section is the keypad's reference.
@Suite struct KeypadManPageTests {
    @Test func keypadSaysTheMapTheDevicesTheUdevRuleAndTheGPIOButton() throws {
        let page = Options.manPage
        let start = try #require(page.firstRange(of: "\n.SH KEYPAD\n"))
        let section = page[start.upperBound...].split(separator: "\n.SH ").first ?? ""
        for fact in [
            ".B 1 2 3\n", ".B 4 ... 9\n", ".B + \\-\n", ".B 0 Backspace\n", ".B . Enter\n", ".B *\n", "in 3 s",
            "held 1 s", "never logged", "\\fBkeys = auto\\fR", "capabilities/key", "EVIOCGRAB", "by\\-id",
            #"SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="USB Keypad", OWNER="pi", MODE="0600""#,
            #"TAG+="uaccess""#, "dtoverlay=gpio\\-key,gpio=17,active_low=1,gpio_pull=up,keycode=28",
        ] {
            #expect(section.contains(fact), "KEYPAD lacks \(fact)")
        }
        // The numbers the page gives are the map's.
        #expect(KeyMap.cancelDelay == .seconds(3) && KeyPressReader<ContinuousClock.Instant>.longPress == .seconds(1))
        #expect(KeyMap.role(of: KeyCode(rawValue: 28)) == .report)  // the GPIO line's keycode=28 is Enter
        #expect(KeyMap.role(of: KeyCode(rawValue: 2)) == .digit(1))
    }
}
