/// JSON text (RFC 8259), written in order: the one writer of JSON here, for the event log,
/// `status --json`, the MQTT payloads and discovery configs, the kitchen's HTTP API and the web
/// server's own refusals.
///
/// A writer appends compact JSON (no spaces) value by value: ``object(_:)`` and ``array(_:)``
/// take the members or elements as a closure, ``key(_:)`` names the next member, and the commas
/// are the writer's business. Strings are escaped by one rule (``quoted(_:)``): `"` and `\`;
/// `\n`, `\r` and `\t` by their short forms; every other control character (U+0000–U+001F) and
/// DEL (U+007F) as `\u00XX`; U+2028 and U+2029 (line and paragraph separators: valid in JSON but
/// line breaks to JavaScript before ES2019 and to many log viewers) as `\u2028` and `\u2029`.
/// Every other scalar, non-ASCII included, is written as its UTF-8.
///
/// ```swift
/// var json = JSONText()
/// json.object { json in
///     json.member("label", "tea")
///     json.member("remaining_s", 42)
/// }
/// json.text  // {"label":"tea","remaining_s":42}
/// ```
///
/// A value; pure; any thread.
public struct JSONText: Sendable {
    /// The text written so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows another in the same object or array (a comma first).
    private var followsValue = false

    /// An empty writer.
    public init() {}

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes `null`.
    public mutating func null() { append("null") }

    /// Writes `true` or `false`.
    /// - Parameter flag: The value.
    public mutating func bool(_ flag: Bool) { append(flag ? "true" : "false") }

    /// Writes `text` as a string literal (see the escaping rule above).
    /// - Parameter text: Any string.
    /// - Complexity: O(n) in the length of `text`.
    public mutating func string(_ text: String) {
        separate()
        Self.appendQuoted(text, to: &bytes)
    }

    /// Writes `text` as a string literal, or `null` when it is nil.
    /// - Parameter text: Any string, or nil.
    public mutating func string(orNull text: String?) {
        if let text { string(text) } else { null() }
    }

    /// Writes an integer in decimal.
    /// - Parameter number: Any integer.
    public mutating func number(_ number: some BinaryInteger) { append(String(number)) }

    /// Writes a number: `null` when not finite, without a fraction when whole and under 10^15 in
    /// magnitude, else as Swift's shortest text that reads back the same (up to 17 significant
    /// digits).
    /// - Parameter number: Any number.
    public mutating func number(_ number: Double) {
        guard number.isFinite else { return null() }
        if number == number.rounded(), abs(number) < 1e15 { return append(String(Int64(number))) }
        append("\(number)")
    }

    /// Writes a number already written as JSON's decimal text (`2.5`, `-0.000123`), as it is.
    /// - Parameter text: A JSON number.
    /// - Precondition: `text` is not empty and holds only digits, `-`, `+`, `.`, `e` and `E`.
    public mutating func number(decimal text: String) {
        precondition(!text.isEmpty && text.utf8.allSatisfy { Self.numberBytes.contains($0) }, "not a JSON number")
        append(text)
    }

    /// Names the next member of the object being written; its value follows.
    /// - Parameter name: The member's name, escaped as a string.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        followsValue = false
    }

    /// Writes the member `name` with the string `text` (``key(_:)``, then ``string(_:)``).
    /// - Parameters:
    ///   - name: The member's name.
    ///   - text: Any string.
    public mutating func member(_ name: String, _ text: String) {
        key(name)
        string(text)
    }

    /// Writes the member `name` with the string `text`, or `null` when it is nil.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - text: Any string, or nil.
    public mutating func member(_ name: String, orNull text: String?) {
        key(name)
        string(orNull: text)
    }

    /// Writes the member `name` with the integer `number`.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - number: Any integer.
    public mutating func member(_ name: String, _ number: some BinaryInteger) {
        key(name)
        self.number(number)
    }

    /// Writes the member `name` with a number already written as JSON's decimal text
    /// (``number(decimal:)``).
    /// - Parameters:
    ///   - name: The member's name.
    ///   - text: A JSON number.
    public mutating func member(_ name: String, decimal text: String) {
        key(name)
        number(decimal: text)
    }

    /// Writes the member `name` with `true` or `false`.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - flag: The value.
    public mutating func member(_ name: String, _ flag: Bool) {
        key(name)
        bool(flag)
    }

    /// Writes an object, its members written by `members` (each a ``key(_:)`` then a value).
    /// - Parameter members: Writes the members, in order.
    public mutating func object(_ members: (inout JSONText) -> Void) {
        container(UInt8(ascii: "{"), UInt8(ascii: "}"), members)
    }

    /// Writes an array, its elements written by `elements`.
    /// - Parameter elements: Writes the elements, in order.
    public mutating func array(_ elements: (inout JSONText) -> Void) {
        container(UInt8(ascii: "["), UInt8(ascii: "]"), elements)
    }

    /// `text` as a JSON string literal, quotes included (for JSON or JavaScript built around it).
    /// - Parameter text: Any string.
    /// - Returns: The literal.
    /// - Complexity: O(n) in the length of `text`.
    public static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of a JSON number's text.
    private static let numberBytes = Set("0123456789-+.eE".utf8)

    /// Writes a comma when a value came before in the same object or array.
    private mutating func separate() {
        if followsValue { bytes.append(UInt8(ascii: ",")) }
        followsValue = true
    }

    /// Writes `literal` (a number or a word) as one value.
    private mutating func append(_ literal: String) {
        separate()
        bytes += literal.utf8
    }

    /// Writes an object or an array: `open`, what `body` writes, `close`.
    private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout JSONText) -> Void) {
        separate()
        bytes.append(open)
        followsValue = false
        body(&self)
        bytes.append(close)
        followsValue = true
    }

    /// Appends `text` as a JSON string literal, quotes included, to `output` (UTF-8): the one
    /// place JSON's escaping is written.
    /// - Complexity: O(n) in the length of `text`.
    private static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: output += [backslash, UInt8(ascii: "\"")]
            case 0x5C: output += [backslash, backslash]
            case 0x0A: output += [backslash, UInt8(ascii: "n")]
            case 0x0D: output += [backslash, UInt8(ascii: "r")]
            case 0x09: output += [backslash, UInt8(ascii: "t")]
            case 0x00..<0x20, 0x7F, 0x2028, 0x2029:
                output += [backslash, UInt8(ascii: "u")]
                output += Array(Hex.text([UInt8(scalar.value >> 8), UInt8(scalar.value & 0xFF)]).utf8)
            default: UTF8.encode(scalar) { output.append($0) }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
