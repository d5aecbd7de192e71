import KeyInput
import SystemKit
import Testing

@Suite struct KeyCapabilitiesTests {
    private func parse(_ text: String) -> KeyCapabilities? { KeyCapabilities.parse(Array(text.utf8)) }

    @Test func aPowerButtonHasOnlyKeyPower() throws {
        let power = try #require(parse("10000000000000 0\n"))
        #expect(power.codes == [.power])
        #expect(power.hasKeys)
    }

    @Test func aGPIOButtonMadeEnterHasEnter() throws {
        let button = try #require(parse("10000000\n"))
        #expect(button.codes == [.enter])
        #expect(button.hasKeys)
    }

    /// A USB keyboard's bitmap as a 64-bit kernel writes it (five words, most significant first).
    @Test func aKeyboardHasTheDigitsOfBothRowsAndEnter() throws {
        let keyboard = try #require(parse("120013 1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe\n"))
        for code in KeyCode.digits + KeyCode.keypadDigits + [.enter, .keypadEnter, .backspace, .keypadPlus] {
            #expect(keyboard.codes.contains(code), "\(code.rawValue)")
        }
        #expect(!keyboard.codes.contains(KeyCode(rawValue: 0)))  // bit 0 is KEY_RESERVED, clear
        #expect(keyboard.hasKeys)
    }

    @Test func noKeysIsZero() throws {
        let none = try #require(parse("0\n"))
        #expect(none.codes.isEmpty)
        #expect(!none.hasKeys)
    }

    /// A mouse's buttons are in the key bitmap (BTN_LEFT is 0x110) but are not keys.
    @Test func aMouseHasButtonsButNoKeys() throws {
        let mouse = try #require(parse("1f0000 0 0 0 0\n"))
        #expect(mouse.codes.map(\.rawValue) == [0x110, 0x111, 0x112, 0x113, 0x114])
        #expect(!mouse.hasKeys)
    }

    @Test func aThirtyTwoBitKernelsWordsMoveTheCodes() throws {
        let power = try #require(KeyCapabilities.parse(Array("100000 0 0 0\n".utf8), bitsPerWord: 32))
        #expect(power.codes == [.power])  // 116 = 3 * 32 + 20
    }

    @Test(arguments: [
        "", "\n", " ", "0 ", " 0", "0  0", "g", "0x10", "-1", "10000000000000000",
        "1 1 1 1 1 1 1 1 1 1 1 1 1", "1\t0", "1\n0",
    ])
    func whatIsNotABitmapIsRefused(_ text: String) {
        #expect(parse(text) == nil)
    }
}
