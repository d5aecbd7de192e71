import TextCoding

/// The config file's syntax, without its keys: `key = value` lines.
///
/// Pure: it reads no file.
/// The format, as docs/DESIGN.md's "Config file" section documents it:
/// - One setting per line: `key = value`. Spaces and tabs around the key, the `=` and the value are
///   ignored, and so is a carriage return ending the line (a file saved with CR LF).
/// - Blank lines, and lines whose first non-blank character is `#`, are ignored. There are no
///   comments after a value: a `#` there is part of it.
/// - The value is everything after the first `=`. Wrapped in double quotes it keeps its leading and
///   trailing spaces; inside the quotes `\"` is a quote and `\\` a backslash, and there is no other
///   escape. Without quotes, quotes and backslashes are plain characters.
/// - A value is never empty and holds no control character (a tab included).
/// - The file is UTF-8 text; a byte-order mark at its start (EF BB BF, which some Windows
///   editors write) is not part of the first line.
public enum ConfigSyntax {
    /// What one line says.
    public enum Line: Equatable {
        /// Blank, or a comment.
        case blank
        /// `key = value`, with the value as written (trimmed, quotes not yet removed; see ``value(_:key:)``).
        case setting(key: String, rawValue: String)
    }

    /// What is wrong with a line, without the file and line number: `volume: needs a value`.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String

        /// - Parameter description: What is wrong, one line.
        public init(description: String) { self.description = description }
    }

    /// The file's lines, split at each LF; a last line without LF counts, an empty last one does not.
    ///
    /// A UTF-8 byte-order mark at the start is dropped, so it never makes the first key unknown.
    /// - Parameter bytes: The file's contents.
    /// - Returns: The lines without their LF; line *n* (counted from 1) is at index *n* − 1.
    /// - Complexity: O(*n*) in the file's length.
    public static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Reads one line: blank (or a comment), or a key with its value as written.
    /// - Parameter bytes: The line, without its LF.
    /// - Returns: What it says.
    /// - Throws: `Problem` if it is not UTF-8, or has no `=` or nothing before it.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(Problem) -> Line {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Problem(description: "not UTF-8 text") }
        let line = trimmed(Substring(text))
        if line.isEmpty || line.hasPrefix("#") { return .blank }
        guard let equals = line.firstIndex(of: "="), !trimmed(line[..<equals]).isEmpty else {
            throw Problem(description: "expected 'key = value', got '\(line)'")
        }
        return .setting(
            key: String(trimmed(line[..<equals])), rawValue: String(trimmed(line[line.index(after: equals)...])))
    }

    /// The value a setting's raw value stands for: unquoted, its escapes resolved.
    /// - Parameters:
    ///   - raw: The value as written, trimmed (``Line/setting(key:rawValue:)``).
    ///   - key: The setting's key, for messages.
    /// - Returns: The value, never empty, without control characters.
    /// - Throws: `Problem` naming the key: an empty value, a quote left open, text after the
    ///   closing quote, an escape other than `\"` and `\\`, or a control character.
    public static func value(_ raw: String, key: String) throws(Problem) -> String {
        var value = raw
        if raw.hasPrefix("\"") { value = try unquoted(raw.dropFirst(), key: key) }
        if value.isEmpty { throw Problem(description: "\(key): needs a value") }
        if value.containsControlCharacters {
            throw Problem(description: "\(key): has a control character in its value")
        }
        return value
    }

    /// The text up to the closing quote, escapes resolved.
    /// - Parameters:
    ///   - text: What follows the opening quote.
    ///   - key: The setting's key, for messages.
    /// - Returns: The quoted text, escapes resolved.
    /// - Throws: `Problem` for a quote left open, text after the closing quote or an unknown escape.
    private static func unquoted(_ text: Substring, key: String) throws(Problem) -> String {
        var value = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            switch character {
            case "\"":
                guard index == text.endIndex else {
                    throw Problem(description: "\(key): text after the closing quote: '\(text[index...])'")
                }
                return value
            case "\\":
                guard index < text.endIndex else { break }
                let escaped = text[index]
                guard escaped == "\"" || escaped == "\\" else {
                    throw Problem(description: "\(key): unknown escape '\\\(escaped)' in quotes (only \\\" and \\\\)")
                }
                value.append(escaped)
                index = text.index(after: index)
            default:
                value.append(character)
            }
        }
        throw Problem(description: "\(key): the quote is not closed")
    }

    /// `text` without the spaces, tabs and carriage returns around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else { return "" }
        return text[first...last]
    }
}
