import SystemKit

extension JSONValue {
    /// The value as compact JSON text (RFC 8259), UTF-8.
    ///
    /// Strings are written by ``JSONText`` (quotes, backslash, control characters, DEL, U+2028 and
    /// U+2029 escaped); a non-finite number is written as
    /// `null`; whole numbers are written without a fraction, others with up to 17 significant digits.
    /// - Complexity: O(n) in the size of the output.
    public func json() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    /// Appends this value's JSON text to `output`.
    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output += Array("null".utf8)
        case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
        case .number(let number): output += Array(Self.numberText(number).utf8)
        case .string(let text): JSONText.appendQuoted(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A number as JSON text: `null` if not finite, an integer when whole and small enough.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }
}
