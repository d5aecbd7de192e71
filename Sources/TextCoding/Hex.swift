/// Hexadecimal digits: the one writer and reader of hex in eggtimer (records, pairing tokens,
/// topic levels, form fields, escapes).
///
/// Pure; any thread.
public enum Hex {
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// `bytes` as hex, two digits a byte.
    /// - Parameters:
    ///   - bytes: Any bytes.
    ///   - uppercase: Upper-case digits (`%2F` in percent coding) rather than lower-case.
    /// - Returns: `2 × bytes.count` ASCII digits.
    /// - Complexity: O(bytes.count).
    public static func text(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let digits = uppercase ? upperDigits : lowerDigits
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of one hex digit (either case).
    /// - Parameter digit: An ASCII byte.
    /// - Returns: 0...15, or nil when `digit` is not a hex digit.
    public static func value(ofDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The bytes hex digits (either case) stand for.
    /// - Parameter text: Hex digits, two a byte.
    /// - Returns: The bytes, or nil for an odd count or a character that is not a hex digit.
    /// - Complexity: O(text.count).
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(ofDigit: digits[index]), let low = value(ofDigit: digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
