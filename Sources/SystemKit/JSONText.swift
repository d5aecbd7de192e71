import TextCoding

/// JSON string literals (RFC 8259) for every writer of JSON here: the event log, `status --json`
/// and the MQTT payloads.
///
/// Escapes `"` and `\`; `\n`, `\r` and `\t` by their short forms; every other control character
/// (U+0000–U+001F) and DEL (U+007F) as `\u00XX`; U+2028 and U+2029 (line and paragraph
/// separators: valid in JSON but line breaks to JavaScript before ES2019 and to many log viewers)
/// as `\u2028` and `\u2029`. Every other scalar, non-ASCII included, is written as its UTF-8.
/// Pure; any thread.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    /// - Parameter text: Any string.
    /// - Returns: The literal.
    /// - Complexity: O(n) in the length of `text`.
    public static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, quotes included, to `output` (UTF-8).
    /// - Parameters:
    ///   - text: Any string.
    ///   - output: The bytes written so far.
    /// - Complexity: O(n) in the length of `text`.
    public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: output += [backslash, UInt8(ascii: "\"")]
            case 0x5C: output += [backslash, backslash]
            case 0x0A: output += [backslash, UInt8(ascii: "n")]
            case 0x0D: output += [backslash, UInt8(ascii: "r")]
            case 0x09: output += [backslash, UInt8(ascii: "t")]
            case 0x00..<0x20, 0x7F, 0x2028, 0x2029:
                output += [backslash, UInt8(ascii: "u")]
                output += Array(Hex.text([UInt8(scalar.value >> 8), UInt8(scalar.value & 0xFF)]).utf8)
            default: output += Array(String(scalar).utf8)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
