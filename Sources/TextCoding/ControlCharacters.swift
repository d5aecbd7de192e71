/// The one printable rule of eggtimer's text: what a control character is, and how text from
/// outside is made safe to print on one line.
extension Unicode.Scalar {
    /// Whether this is a control character: C0 (U+0000–U+001F), DEL (U+007F) or C1
    /// (U+0080–U+009F), Unicode's general category Cc.
    ///
    /// None of them may reach a terminal, a log line or a one-line field unescaped: they move the
    /// cursor, switch screens (C1's CSI is U+009B) or split a line.
    public var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}

extension StringProtocol {
    /// Whether any scalar is a control character (``Unicode/Scalar/isControlCharacter``).
    public var containsControlCharacters: Bool { unicodeScalars.contains(where: \.isControlCharacter) }

    /// The text with every control character (C0, DEL, C1) written as `\xHH`, so text that came
    /// from outside (an argument, a device name, a path) can never move the cursor, switch
    /// screens or split a one-line message when printed.
    public var escapingControlCharacters: String {
        guard containsControlCharacters else { return String(self) }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar.isControlCharacter {
                out.append(contentsOf: "\\x\(Hex.text([UInt8(scalar.value)], uppercase: true))".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The text with every control character replaced by a space: one line, same length in
    /// scalars (a reason carried in a one-line field).
    public var controlCharactersAsSpaces: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.isControlCharacter ? " " : $0 }))
    }

    /// The text as a message quotes a value from outside (an argument, a path, a device's name):
    /// every control character as `?`, cut to its first `limit` scalars.
    /// - Parameter limit: The most scalars kept, not negative; 60 by default.
    /// - Returns: The text, on one line.
    public func controlCharactersAsQuestionMarks(limit: Int = 60) -> String {
        String(String.UnicodeScalarView(unicodeScalars.prefix(limit).map { $0.isControlCharacter ? "?" : $0 }))
    }
}
