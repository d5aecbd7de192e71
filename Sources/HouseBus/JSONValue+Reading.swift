extension JSONValue {
    /// Parses one JSON value (RFC 8259) from UTF-8 text, tolerating surrounding white space.
    ///
    /// Refuses (nil) text longer than `byteLimit`, nesting deeper than `depthLimit`, invalid UTF-8,
    /// and anything that is not exactly one JSON value. Pure; any thread.
    /// - Parameters:
    ///   - bytes: The UTF-8 text.
    ///   - byteLimit: The longest text accepted, in bytes.
    ///   - depthLimit: The deepest nesting of arrays and objects accepted.
    /// - Returns: The value, or nil.
    /// - Complexity: O(n) in the length of the text.
    public static func parse(_ bytes: [UInt8], byteLimit: Int = 65_536, depthLimit: Int = 16) -> JSONValue? {
        guard bytes.count <= byteLimit else { return nil }
        var reader = JSONReader(bytes: bytes, depthLimit: depthLimit)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? value : nil
    }
}

/// A recursive-descent reader over UTF-8 bytes; each method returns nil on malformed input.
private struct JSONReader {
    let bytes: [UInt8]
    let depthLimit: Int
    var index = 0

    init(bytes: [UInt8], depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) -> JSONValue? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return depth < depthLimit ? object(depth: depth + 1) : nil
        case UInt8(ascii: "["): return depth < depthLimit ? array(depth: depth + 1) : nil
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    mutating func literal(_ word: String, _ result: JSONValue) -> JSONValue? {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            return nil
        }
        index += expected.count
        return result
    }

    mutating func object(depth: Int) -> JSONValue? {
        index += 1
        var members: [JSONMember] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value(depth: depth) else { return nil }
            members.append(JSONMember(key, member))
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
            guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
        }
    }

    mutating func array(depth: Int) -> JSONValue? {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
            guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
        }
    }

    /// A string starting at the opening quote; escapes decoded, UTF-8 validated.
    mutating func string() -> String? {
        index += 1
        var output: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validating: output, as: UTF8.self)
            case UInt8(ascii: "\\"): guard escape(into: &output) else { return nil }
            case 0x00..<0x20: return nil
            default: output.append(byte)
            }
        }
        return nil
    }

    /// Decodes the escape after a backslash into UTF-8.
    mutating func escape(into output: inout [UInt8]) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let decoded = simple[byte] {
            output.append(decoded)
            return true
        }
        guard byte == UInt8(ascii: "u"), var scalar = hex4() else { return false }
        if (0xD800..<0xDC00).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return false }
            index += 2
            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return false }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { return false }
        output += Array(String(Character(unicode)).utf8)
        return true
    }

    mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var result: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            result = result << 4 | UInt32(digit)
        }
        index += 4
        return result
    }

    /// A number per the JSON grammar (no leading `+`, no leading zeros, no bare `.`).
    mutating func number() -> JSONValue? {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return nil }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite else {
            return nil
        }
        return .number(number)
    }
}
