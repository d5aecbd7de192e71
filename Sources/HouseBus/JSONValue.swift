/// A JSON value as HouseBus writes and reads it: payloads and discovery configs.
///
/// Objects keep their members in order (what is written is what was built). Pure; any thread.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The value of the first member named `key`, when this is an object.
    /// - Complexity: O(n) in the number of members.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let number) = self { number } else { nil }
    }

    /// The array's elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    /// - Parameters:
    ///   - key: The name.
    ///   - value: The value.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
