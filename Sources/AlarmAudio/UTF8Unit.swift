/// What the bytes at one position of a byte string are as UTF-8: one well-formed sequence, a
/// byte that starts none, or a sequence cut short by the end of the data.
///
/// Used to show file names that are not valid UTF-8 (``SoundFilePath``) and to tell text files
/// apart (``MPEGStreamSniffer``). Overlong forms, surrogates and values above U+10FFFF are invalid,
/// as in Unicode's definition of well-formed UTF-8.
enum UTF8Unit: Hashable {
    /// A well-formed sequence of `bytes` bytes (1 to 4) encoding `scalar`.
    case scalar(Unicode.Scalar, bytes: Int)
    /// A byte that cannot start, or is not followed by the rest of, a well-formed sequence.
    case invalid
    /// The first bytes of a well-formed sequence that the data ends before completing.
    case truncated

    /// Reads the unit that starts at `index`.
    /// - Parameters:
    ///   - bytes: The data.
    ///   - index: A valid index of `bytes`.
    /// - Returns: The unit there; `.scalar` tells how many bytes to step over, the other cases one.
    static func read(_ bytes: ArraySlice<UInt8>, at index: Int) -> UTF8Unit {
        let lead = bytes[index]
        if lead < 0x80 { return .scalar(Unicode.Scalar(lead), bytes: 1) }
        // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and values
        // beyond U+10FFFF (F4); the later bytes are any continuation byte.
        let (length, second): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xE1...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return .invalid
        }
        var value = UInt32(lead) & (0x7F >> length)
        for step in 1..<length {
            guard index + step < bytes.endIndex else { return .truncated }
            let byte = bytes[index + step]
            guard (step == 1 ? second : 0x80...0xBF).contains(byte) else { return .invalid }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return .invalid }
        return .scalar(scalar, bytes: length)
    }
}
