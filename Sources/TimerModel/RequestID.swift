import TextCoding

/// The id its asker gives a start, so that the kitchen acts on it once (issue 42): a repeat with
/// the same id (a retry, an MQTT redelivery, an HTTP `Idempotency-Key`) gets the first answer.
///
/// 1 to ``limit`` bytes of ASCII letters, digits and `- _ . :` (a UUID, 32 hex digits, a
/// timestamp and a counter all fit), so that it stands in a control line, a JSON string, an HTTP
/// header and a log line without escaping. A plain value: any thread.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// The id as given.
    public let text: String

    /// The longest id, in bytes.
    public static let limit = 64

    /// Checks `text` as an id: nil when it is empty, longer than ``limit`` bytes or holds any
    /// other byte.
    /// - Parameter text: The id as it came (a line's field, a header's value, a JSON string).
    public init?(_ text: some StringProtocol) {
        guard !text.utf8.isEmpty, text.utf8.count <= Self.limit, text.utf8.allSatisfy(Self.allows) else { return nil }
        self.text = String(text)
    }

    /// The id of `bytes` (from `getrandom`): their lowercase hex digits, 2 per byte.
    /// - Parameter bytes: 1 to 32 bytes (16 make an id as unlikely to repeat as a UUID's).
    /// - Precondition: `bytes` holds 1 to 32 bytes.
    public init(randomBytes bytes: [UInt8]) {
        precondition((1...Self.limit / 2).contains(bytes.count), "1 to 32 bytes")
        text = Hex.text(bytes)
    }

    public var description: String { text }

    /// Whether `byte` may stand in an id.
    private static func allows(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: ":"):
            true
        default: false
        }
    }
}
