/// Percent coding (RFC 3986 §2.1): the one percent-decoder of topic levels, the HTTP API's path
/// segments and form fields.
///
/// Pure; any thread.
public enum PercentCoding {
    /// The bytes `text` stands for with each `%XX` (hex, either case) decoded.
    /// - Parameters:
    ///   - text: Encoded bytes.
    ///   - plusIsSpace: Whether `+` stands for a space (`application/x-www-form-urlencoded`).
    /// - Returns: The decoded bytes (not checked as UTF-8), or nil at a `%` not followed by two
    ///   hex digits.
    /// - Complexity: O(text.count).
    public static func decoded(_ text: some Collection<UInt8>, plusIsSpace: Bool = false) -> [UInt8]? {
        let text = Array(text)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "%"):
                guard index + 2 < text.count, let high = Hex.value(ofDigit: text[index + 1]),
                    let low = Hex.value(ofDigit: text[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
                index += 1
            case let byte:
                bytes.append(byte)
                index += 1
            }
        }
        return bytes
    }

    /// `scalar`'s UTF-8 bytes as `%XX` escapes, upper-case hex (`/` is `%2F`).
    /// - Parameter scalar: Any scalar.
    /// - Returns: One to four escapes.
    public static func escaped(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf8.map { "%" + Hex.text([$0], uppercase: true) }.joined()
    }
}
