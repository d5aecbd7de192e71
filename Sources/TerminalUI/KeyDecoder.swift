package import TimerEngine

/// Turns the bytes read from standard input into keys.
///
/// A terminal in cbreak mode sends an arrow key as three bytes (`ESC [ A`) in one read, and a pipe
/// can deliver several keys in one read; a lone `ESC` at the end of a read is the Escape key.
/// UTF-8 characters are decoded whole. Not thread-safe; owned by the event loop.
package struct KeyDecoder {
    package init() {}

    /// Decodes one read's worth of bytes.
    /// - Parameter bytes: Exactly what one `read` returned.
    /// - Returns: The keys in order.
    package func decode(_ bytes: some Collection<UInt8>) -> [Key] {
        var keys: [Key] = []
        var index = bytes.startIndex
        func next() -> UInt8? {
            guard index != bytes.endIndex else { return nil }
            defer { index = bytes.index(after: index) }
            return bytes[index]
        }
        while let byte = next() {
            switch byte {
            case 0x1B:
                keys.append(decodeEscape(&index, in: bytes))
            case 0x0D, 0x0A:
                keys.append(.enter)
            case 0x7F, 0x08:
                keys.append(.backspace)
            case 0x15:
                keys.append(.eraseLine)
            case 0x20...0x7E:
                keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xF7:
                let length = byte >= 0xF0 ? 4 : (byte >= 0xE0 ? 3 : 2)
                var scalarBytes = [byte]
                while scalarBytes.count < length, index != bytes.endIndex, bytes[index] & 0xC0 == 0x80 {
                    scalarBytes.append(bytes[index])
                    index = bytes.index(after: index)
                }
                let text = String(decoding: scalarBytes, as: UTF8.self)
                keys.append(text.count == 1 && scalarBytes.count == length ? .character(text.first!) : .other)
            default:
                keys.append(.other)
            }
        }
        return keys
    }

    /// Decodes what follows an `ESC`: `[A`–`[D` and `OA`–`OD` are arrows, other CSI sequences are
    /// consumed whole as `.other`, and a lone `ESC` is Escape.
    private func decodeEscape<C: Collection<UInt8>>(_ index: inout C.Index, in bytes: C) -> Key {
        guard index != bytes.endIndex, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O")
        else { return .escape }
        index = bytes.index(after: index)
        // Parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E).
        while index != bytes.endIndex, (0x20...0x3F).contains(bytes[index]) {
            index = bytes.index(after: index)
        }
        guard index != bytes.endIndex else { return .other }
        let final = bytes[index]
        index = bytes.index(after: index)
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        default: return .other
        }
    }
}
