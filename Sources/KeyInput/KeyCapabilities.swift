public import SystemKit

/// The keys an input device says it has: the kernel's `capabilities/key` bitmap in sysfs
/// (`/sys/class/input/eventN/device/capabilities/key`).
///
/// The kernel writes the bitmap as hexadecimal words of its `long` (64 bits on a 64-bit
/// kernel), separated by single spaces, the most significant word first, with leading zero words
/// left out: `0` for none, `10000000000000 0` for a power button (only `KEY_POWER`, 116, bit 52
/// of the second word). Source: `input_print_bitmap` in the kernel's drivers/input/input.c.
/// A plain value; any thread.
public struct KeyCapabilities: Sendable, Hashable {
    /// The codes whose bit is set, in ascending order, at most ``InputEvent/highestKeyCode``.
    public let codes: [KeyCode]

    /// Whether the device has a key: a code from 1 up to below ``InputEvent/firstButtonCode``.
    ///
    /// The buttons of mice, joysticks and touch screens (`BTN_*`, from 0x100) are in the same
    /// bitmap but are not keys: `auto` leaves those devices alone.
    public var hasKeys: Bool { codes.contains { $0.rawValue >= 1 && $0.rawValue < InputEvent.firstButtonCode } }

    /// Parses the bitmap's text.
    /// - Parameters:
    ///   - text: The file's contents, a trailing newline allowed.
    ///   - bitsPerWord: The width of the kernel's `long`: 64 (the default) or 32. It only moves which
    ///     codes a bit means, never whether any is set.
    /// - Returns: The capabilities, or nil for text that is not such a bitmap: empty, a word that
    ///   is not hexadecimal or is wider than `bitsPerWord`, more words than key codes need, other
    ///   separators.
    /// - Complexity: O(n) in the text's length.
    public static func parse(_ text: [UInt8], bitsPerWord: Int = 64) -> KeyCapabilities? {
        precondition(bitsPerWord == 64 || bitsPerWord == 32)
        var body = text[...]
        if body.last == UInt8(ascii: "\n") { body = body.dropLast() }
        let words = body.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let wordLimit = (Int(InputEvent.highestKeyCode) + bitsPerWord) / bitsPerWord
        guard !words.isEmpty, words.count <= wordLimit else { return nil }
        var codes: [KeyCode] = []
        for (index, word) in words.reversed().enumerated() {
            guard let value = hexadecimal(word, digits: bitsPerWord / 4) else { return nil }
            for bit in 0..<bitsPerWord where value & (1 << UInt64(bit)) != 0 {
                let code = index * bitsPerWord + bit
                if code <= Int(InputEvent.highestKeyCode) { codes.append(KeyCode(rawValue: UInt16(code))) }
            }
        }
        return KeyCapabilities(codes: codes)
    }

    /// A word of 1 to `digits` hexadecimal digits (either case), or nil.
    private static func hexadecimal(_ word: ArraySlice<UInt8>, digits: Int) -> UInt64? {
        guard !word.isEmpty, word.count <= digits else { return nil }
        var value: UInt64 = 0
        for byte in word {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
