extension String {
    /// The text with every control character (C0, DEL, C1) written as `\xHH`, so text that came
    /// from the user (an argument, a device name, a path) can never move the cursor, switch
    /// screens or split a one-line message when printed.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar.isControlCharacter {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: "\\x\(hex.count < 2 ? "0" + hex : hex)".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}

extension Unicode.Scalar {
    /// C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F).
    fileprivate var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
