public import TextCoding

extension JSONValue {
    /// The value as compact JSON text (RFC 8259), UTF-8, written by TextCoding's ``JSONText``.
    ///
    /// Strings are escaped by its rule (quotes, backslash, control characters, DEL, U+2028 and
    /// U+2029); a non-finite number is written as `null`; whole numbers are written without a
    /// fraction, others with up to 17 significant digits.
    /// - Complexity: O(n) in the size of the output.
    public func json() -> [UInt8] {
        var json = JSONText()
        write(to: &json)
        return json.bytes
    }

    /// Writes this value to `json`.
    /// - Parameter json: The writer.
    public func write(to json: inout JSONText) {
        switch self {
        case .null: json.null()
        case .bool(let flag): json.bool(flag)
        case .number(let number): json.number(number)
        case .string(let text): json.string(text)
        case .array(let elements): json.array { json in for element in elements { element.write(to: &json) } }
        case .object(let members):
            json.object { json in
                for member in members {
                    json.key(member.key)
                    member.value.write(to: &json)
                }
            }
        }
    }
}
