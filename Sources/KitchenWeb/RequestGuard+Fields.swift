import HouseBus
import TextCoding

extension RequestGuard {
    /// The fields of a request's body: a flat JSON object of strings and integers
    /// (`{"start":"3m40","label":"Pasta"}`, `{"seconds":60}`) or a form
    /// (`start=3m40&label=Pasta`), read into one shape for the routes (`code`, `csrf`, `start`,
    /// `label`, `seconds`).
    ///
    /// Bounded: at most ``fieldLimit`` fields and ``RequestGuard/bodyLimit`` bytes; a name given
    /// twice, a nested value, a fraction, a bad percent escape or text that is not UTF-8 refuses
    /// the whole body (nil). JSON is read by HouseBus's `JSONValue` reader (depth 1). Pure.
    package struct Fields: Equatable, Sendable {
        /// A field's value.
        package enum Value: Equatable, Sendable {
            case string(String)
            case integer(Int64)
        }

        /// The most fields a body may have: 16.
        static let fieldLimit = 16
        /// The bound of the integers a JSON body may carry, 2^53 (excluded: a double holds every
        /// integer below it exactly, and 2^53 + 1 reads as 2^53).
        static let integerLimit: Int64 = 1 << 53

        /// The fields by name.
        package var values: [String: Value] = [:]

        /// No fields.
        init() {}

        /// The fields `values`.
        init(_ values: [String: Value]) { self.values = values }

        /// The string `name`, or nil when there is none (an integer given in JSON is not a string).
        package func string(_ name: String) -> String? {
            if case .string(let text)? = values[name] { text } else { nil }
        }

        /// The integer `name`: a JSON integer, or a form value (or JSON string) that is an optional
        /// `-` and 1 to 18 ASCII digits; nil otherwise (absent, not a whole number, out of range).
        package func integer(_ name: String) -> Int64? {
            switch values[name] {
            case .integer(let number)?: return number
            case .string(let text)?:
                let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
                guard (1...18).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) })
                else {
                    return nil
                }
                return Int64(text)
            case nil: return nil
            }
        }

        /// Reads a JSON body: one object whose members are strings or integers; an empty body
        /// is no fields.
        /// - Parameter bytes: The body, at most ``RequestGuard/bodyLimit`` bytes.
        /// - Returns: The fields, or nil.
        static func json(_ bytes: [UInt8]) -> Fields? {
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return Fields() }
            guard case .object(let members)? = JSONValue.parse(bytes, byteLimit: RequestGuard.bodyLimit, depthLimit: 1),
                members.count <= fieldLimit
            else { return nil }
            var fields = Fields()
            for member in members {
                guard fields.values[member.key] == nil else { return nil }
                switch member.value {
                case .string(let text): fields.values[member.key] = .string(text)
                case .number(let number):
                    // Range first: converting a double out of Int64's range traps.
                    guard number.isFinite, number.rounded() == number, abs(number) < Double(integerLimit) else {
                        return nil
                    }
                    fields.values[member.key] = .integer(Int64(number))
                default: return nil
                }
            }
            return fields
        }

        /// Reads an `application/x-www-form-urlencoded` body.
        ///
        /// `name=value` pairs joined by `&`, `+` a space and `%XX` a byte, the decoded names and
        /// values UTF-8. An empty body is no
        /// fields; a pair without `=` is a name with an empty value; empty pairs (`a=1&&b=2`)
        /// are skipped.
        /// - Parameter bytes: The body, at most ``RequestGuard/bodyLimit`` bytes.
        /// - Returns: The fields, or nil.
        static func form(_ bytes: [UInt8]) -> Fields? {
            guard bytes.count <= RequestGuard.bodyLimit else { return nil }
            var fields = Fields()
            for pair in bytes.split(separator: UInt8(ascii: "&")) {
                let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = decode(parts[0]), !name.isEmpty, let value = decode(parts.count > 1 ? parts[1] : []),
                    fields.values[name] == nil, fields.values.count < fieldLimit
                else { return nil }
                fields.values[name] = .string(value)
            }
            return fields
        }

        /// Percent-decodes one form component (`+` is a space); nil for a bad escape or bytes
        /// that are not UTF-8.
        static func decode(_ component: ArraySlice<UInt8>) -> String? {
            PercentCoding.decoded(component, plusIsSpace: true).flatMap { String(validating: $0, as: UTF8.self) }
        }
    }
}
