/// What the recogniser needs to know of a JSGF grammar's text without parsing it fully: its words.
enum JSGFText {
    /// The words (terminals) of `grammar`'s rule expansions, each once, in order of appearance.
    ///
    /// Skips comments, the header statements (`#JSGF`, `grammar`, `import`: statements without
    /// `=`), rule names (`<name>`), tags (`{…}`), weights (`/…/`) and the operators
    /// `= | ( ) [ ] * +`; a quoted token is one word. Pure.
    /// - Parameter grammar: JSGF V1.0 text.
    /// - Returns: The words, as written.
    /// - Complexity: O(n) in the text's length.
    static func words(in grammar: String) -> [String] {
        var words: [String] = []
        var seen = Set<String>()
        for statement in statements(of: withoutComments(grammar)) {
            guard let equals = statement.firstIndex(of: "=") else { continue }
            for word in terminals(of: statement[statement.index(after: equals)...]) where seen.insert(word).inserted {
                words.append(word)
            }
        }
        return words
    }

    /// `text` without `//` line comments and `/* */` block comments.
    private static func withoutComments(_ text: String) -> String {
        var result = ""
        var characters = text.makeIterator()
        var pending: Character?
        while let character = pending ?? characters.next() {
            pending = nil
            guard character == "/" else {
                result.append(character)
                continue
            }
            switch characters.next() {
            case "/":
                while let next = characters.next(), next != "\n" {}
                result.append("\n")
            case "*":
                var previous: Character = " "
                while let next = characters.next(), !(previous == "*" && next == "/") { previous = next }
                result.append(" ")
            case let next:
                // A weight's slash: keep it for terminals(of:).
                result.append(character)
                pending = next
            }
        }
        return result
    }

    /// The statements of `text`, split at `;`.
    private static func statements(of text: String) -> [Substring] { text.split(separator: ";") }

    /// The words of one rule expansion.
    private static func terminals(of expansion: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var closing: Character?
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for character in expansion {
            if let end = closing {
                if character == end {
                    if end == "\"" { flush() }
                    closing = nil
                } else if end == "\"" {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "<": closing = ">"
            case "{": closing = "}"
            case "/": closing = "/"
            case "\"": closing = "\""
            default: break
            }
            if closing != nil {
                flush()
                continue
            }
            if character.isWhitespace || "=|()[]*+".contains(character) {
                flush()
            } else {
                current.append(character)
            }
        }
        flush()
        return words
    }
}
