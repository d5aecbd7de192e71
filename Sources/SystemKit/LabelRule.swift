/// The label character set: a timer's label is one word of ASCII letters, digits, `-`, `_`, `.`,
/// `:` and `+`, 1–64 bytes, not starting with `.` or `-` (no `/`, no space, no shell
/// metacharacter; never `.` or `..`), so every default label (`1:30`, an alarm's
/// `at-2026-12-24t18.00+01.00`) is also a valid `--label`.
///
/// A label names a socket file and a record file by its file-name characters
/// (``allowsInFileName(_:)``: `:` and `+` become `-`) and an MQTT topic level escaped
/// injectively (HouseBus's `TimerTopics`).
///
/// Pure; any thread.
public enum LabelRule {
    /// The longest label, in bytes (characters: labels are ASCII).
    public static let limit = 64

    /// The rule in words, for messages and help.
    public static let description =
        "one word of ASCII letters, digits, '-', '_', '.', ':' and '+', 1 to \(limit) characters, "
        + "not starting with '.' or '-'"

    /// Whether `byte` may appear in a label: a file-name character (``allowsInFileName(_:)``), `:` or `+`.
    /// - Parameter byte: A UTF-8 byte.
    /// - Returns: Whether the byte is in the set.
    public static func allows(_ byte: UInt8) -> Bool {
        allowsInFileName(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "+")
    }

    /// Whether `byte` may appear as it is in a file name made from a label (its socket, its
    /// record) or in a node name: an ASCII letter, digit, `-`, `_` or `.`.
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

    /// Whether `scalar` may appear in a label (``allows(_:)-(UInt8)`` for ASCII, never otherwise).
    /// - Parameter scalar: A Unicode scalar.
    /// - Returns: Whether the scalar is in the set.
    public static func allows(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && allows(UInt8(scalar.value))
    }

    /// Whether `scalar` may appear as it is in a file name made from a label
    /// (``allowsInFileName(_:)-(UInt8)`` for ASCII, never otherwise).
    /// - Parameter scalar: A Unicode scalar.
    /// - Returns: Whether the scalar is in the set.
    public static func allowsInFileName(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && allowsInFileName(UInt8(scalar.value))
    }

    /// Whether `byte` may begin a label: allowed, and neither `.` nor `-`.
    /// - Parameter byte: A UTF-8 byte.
    /// - Returns: Whether a label may start with it.
    public static func allowsFirst(_ byte: UInt8) -> Bool {
        allows(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "-")
    }

    /// The rule for names that stand as they are in topics and file names (a node name, a topic
    /// prefix's levels), in words: the label rule without `:` and `+` (an MQTT wildcard).
    public static let nameDescription =
        "one word of ASCII letters, digits, '-', '_' and '.', 1 to \(limit) characters, not starting with '.' or '-'"

    /// Whether `text` is a valid name by ``nameDescription``: a label of file-name characters only.
    /// - Parameter text: A candidate node name or topic level.
    /// - Returns: Whether it is one.
    /// - Complexity: O(n) in the length of `text`.
    public static func isValidName(_ text: String) -> Bool {
        isValid(text) && text.utf8.allSatisfy { allowsInFileName($0) }
    }

    /// Whether `text` is a valid label by the rule above.
    /// - Parameter text: A candidate label.
    /// - Returns: Whether it is a label.
    /// - Complexity: O(n) in the length of `text`.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= limit, allowsFirst(first) else { return false }
        return bytes.allSatisfy { allows($0) }
    }
}
