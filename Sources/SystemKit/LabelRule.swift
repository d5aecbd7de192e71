/// The label rule, the one home of what a timer's label may be and when two labels are the same
/// timer.
///
/// A label is 1 to 64 bytes of UTF-8: letters of any script (with their combining marks), digits,
/// single spaces between words, and `-` `_` `.` `:` `+` `'`; it does not start with `.` or `-`
/// (so no label is `.`, `..` or an option). No control character, no `/` (a label names a file),
/// no `%` (topics escape with it). Every default label (`1:30`, `5 min`, an alarm's
/// `at-2026-12-24t18.00+01.00`) is a valid label, and `roast beef`, `Küche`, `3m Spätzle` are too.
///
/// Matching follows one rule everywhere (the command line, the API, the kitchen, uniqueness): two
/// labels are the same timer when their ``key(_:)``s are equal (`Soft` and `soft`). The key names
/// the timer's socket, lock and record files (ControlServer's `socketName(for:)`); an MQTT topic
/// level and a Home Assistant id escape the label injectively (HouseBus).
///
/// Pure; any thread.
public enum LabelRule {
    /// The longest label, in bytes of UTF-8.
    public static let limit = 64

    /// The rule in words, for messages and help.
    public static let description =
        "letters, digits, single spaces between words and - _ . : + ', 1 to \(limit) bytes, "
        + "not starting with '.' or '-'"

    /// The ASCII characters a label may hold besides letters and digits.
    private static let marks: Set<Character> = ["-", "_", ".", ":", "+", "'", " "]

    /// Whether `text` is a valid label by the rule above.
    /// - Parameter text: A candidate label.
    /// - Returns: Whether it is a label.
    /// - Complexity: O(n) in the length of `text`.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= limit,
            first != UInt8(ascii: "."), first != UInt8(ascii: "-"), first != UInt8(ascii: " "),
            last != UInt8(ascii: " ")
        else { return false }
        var afterSpace = false
        for character in text {
            guard allows(character), !(afterSpace && character == " ") else { return false }
            afterSpace = character == " "
        }
        return true
    }

    /// Whether `character` may stand in a label: an ASCII letter, digit or one of `- _ . : + '`
    /// and space; beyond ASCII, a letter or a digit of any script whose every scalar is a letter,
    /// a mark or a number (a combining accent, not a joiner or a format character).
    /// - Parameter character: One character.
    /// - Returns: Whether it is allowed.
    public static func allows(_ character: Character) -> Bool {
        if character.isASCII {
            return character.isLetter || character.isNumber || marks.contains(character)
        }
        guard character.isLetter || character.isNumber else { return false }
        return character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                true
            default: false
            }
        }
    }

    /// The label's key: what two labels share when they are the same timer, and the timer's
    /// file names (its socket, lock, record).
    ///
    /// The label lowercased (Swift's `lowercased()`, by Unicode's case mapping): `Soft` and
    /// `soft`, `KÜCHE` and `küche` are one timer. A key holds no `/`, no NUL and no leading `.`,
    /// as its label does not; it may be longer in bytes than the label (`İ`).
    /// - Parameter label: A label (any text: the rule is not checked).
    /// - Returns: Its key.
    /// - Complexity: O(n) in the length of `label`.
    public static func key(_ label: String) -> String { label.lowercased() }

    /// Whether `label` and `other` name the same timer: equal ``key(_:)``s.
    /// - Parameters:
    ///   - label: A label.
    ///   - other: Another.
    /// - Returns: Whether their keys are equal.
    public static func same(_ label: String, _ other: String) -> Bool { key(label) == key(other) }

    /// Whether `byte` may appear in a node name or a topic prefix's level (``isValidName(_:)``):
    /// an ASCII letter, digit, `-`, `_` or `.`.
    /// - Parameter byte: A UTF-8 byte.
    /// - Returns: Whether the byte is in the set.
    public static func allowsInFileName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// Whether `byte` may begin a name: a name byte (``allowsInFileName(_:)``), neither `.` nor `-`.
    /// - Parameter byte: A UTF-8 byte.
    /// - Returns: Whether a name may start with it.
    public static func allowsFirst(_ byte: UInt8) -> Bool {
        allowsInFileName(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "-")
    }

    /// The rule for names that stand as they are in topics (a node name, a topic prefix's
    /// levels), in words.
    public static let nameDescription =
        "one word of ASCII letters, digits, '-', '_' and '.', 1 to \(limit) characters, not starting with '.' or '-'"

    /// Whether `text` is a valid name by ``nameDescription``.
    /// - Parameter text: A candidate node name or topic level.
    /// - Returns: Whether it is one.
    /// - Complexity: O(n) in the length of `text`.
    public static func isValidName(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count <= limit, allowsFirst(first) else { return false }
        return text.utf8.allSatisfy { allowsInFileName($0) }
    }
}
