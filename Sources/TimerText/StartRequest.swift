import SystemKit
import TextCoding
import TimerCore

/// What a start asks for: a preset by name or a countdown length, and an optional label.
///
/// From any front (a shell's `eggtimer start`, the kitchen's socket, an MQTT `P/NODE/start`
/// payload, the HTTP API). Typed values only: the timer's command line is built from them
/// (``arguments``), never from the words that came in, so no request can add an option.
///
/// Pure; any thread.
public struct StartRequest: Sendable, Hashable, CustomStringConvertible {
    /// How long the timer counts.
    public enum Length: Sendable, Hashable {
        /// A preset by its name, lowercased (`soft`, or a config preset such as `pasta`).
        case preset(String)
        /// A countdown length in (0, ``DurationParser/maximum``], exact to the millisecond.
        case duration(Duration)
    }

    /// The longest request text ``parse(_:presets:)`` reads, in bytes.
    ///
    /// A duration and a label with room to spare. Longer text is refused before it is looked at.
    public static let limit = 160

    /// The length.
    public var length: Length
    /// The label, valid by `LabelRule`; `nil` for a preset's default (its name).
    ///
    /// A duration
    /// parsed without a label is labelled as it was typed (`7m30s`), as `eggtimer 7m30s` is.
    public var label: String?

    /// Creates a request from values already checked.
    /// - Precondition: `label` is `nil` or valid by `LabelRule.isValid(_:)`.
    public init(length: Length, label: String? = nil) {
        precondition(label.map(LabelRule.isValid) ?? true, "an invalid label")
        (self.length, self.label) = (length, label)
    }

    /// Parses a request: one or two words separated by spaces, `soft`, `7m30s pasta`,
    /// `Medium eggs`: the first a preset name (any case) from `presets` or a one-word duration
    /// (`DurationParser`: `7m30s`, `1:30`, `90s`), the second, when there is one, the label.
    /// - Parameters:
    ///   - text: The request as it came (an MQTT payload's UTF-8, a form field). Leading and
    ///     trailing spaces, tabs and newlines are ignored.
    ///   - presets: The preset names the box knows (`Preset.eggs`' and the config's), any case.
    /// - Returns: The request.
    /// - Throws: `UsageError`, one line naming the bad token: empty, longer than ``limit``, not
    ///   valid UTF-8, a control character, more than two words, a word starting with `-` (no
    ///   option can be smuggled in), a first word that is neither a preset nor a duration, a
    ///   label that breaks `LabelRule`.
    /// - Complexity: O(n) in the length of `text`.
    public static func parse(_ text: [UInt8], presets: [String]) throws(UsageError) -> StartRequest {
        guard text.count <= limit else {
            throw UsageError(description: "a start request of \(text.count) bytes is longer than \(limit)")
        }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw UsageError(description: "a start request is not valid UTF-8")
        }
        return try parse(string, presets: presets)
    }

    /// Parses a request from a string (see ``parse(_:presets:)-([UInt8],_)``, which it shares).
    /// - Throws: `UsageError` as that does.
    public static func parse(_ text: String, presets: [String]) throws(UsageError) -> StartRequest {
        guard text.utf8.count <= limit else {
            throw UsageError(description: "a start request of \(text.utf8.count) bytes is longer than \(limit)")
        }
        let blank: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r"]
        if let bad = text.unicodeScalars.first(where: { !blank.contains($0) && $0.isControlCharacter }) {
            throw UsageError(
                description: "a start request may not contain the control character U+\(hex(bad.value))")
        }
        let words = text.unicodeScalars.split(whereSeparator: { blank.contains($0) }).map { String($0) }
        guard let first = words.first else { throw UsageError(description: "an empty start request") }
        if let option = words.first(where: { $0.hasPrefix("-") }) {
            throw UsageError(description: "'\(option)': a start request takes no options")
        }
        guard words.count <= 2 else {
            throw UsageError(
                description: "'\(words[2])': a start request is a preset or a duration and at most one label")
        }
        var label: String?
        if words.count == 2 {
            guard LabelRule.isValid(words[1]) else {
                throw UsageError(description: "invalid label '\(words[1])': \(LabelRule.description)")
            }
            label = words[1]
        }
        let lower = first.lowercased()
        if presets.contains(where: { $0.lowercased() == lower }) {
            return StartRequest(length: .preset(lower), label: label)
        }
        do {
            let duration = try DurationParser.parse(first)
            return StartRequest(length: .duration(duration), label: label ?? (LabelRule.isValid(first) ? first : nil))
        } catch {
            let names = presets.map { $0.lowercased() }.joined(separator: ", ")
            throw UsageError(description: "'\(first)' is neither a preset (\(names)) nor a duration: \(error.reason)")
        }
    }

    /// The arguments after the program name that start this timer in eggtimer's own syntax.
    ///
    /// `["soft"]`, `["7m30s", "--label", "pasta"]`. The duration is written in whole
    /// milliseconds (`450000ms` is not a unit: seconds with a fraction, `450s`, `0.5s`), so it
    /// parses back to the same length.
    public var arguments: [String] {
        var words: [String]
        switch length {
        case .preset(let name): words = [name]
        case .duration(let duration): words = [Self.text(duration)]
        }
        if let label { words += ["--label", label] }
        return words
    }

    /// The request as a start payload would say it: `soft`, `450s pasta`.
    public var description: String {
        var words = [arguments[0]]
        if let label { words.append(label) }
        return words.joined(separator: " ")
    }

    /// `duration` as seconds DurationParser reads back exactly: `450s`, `0.25s`.
    private static func text(_ duration: Duration) -> String {
        let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let whole = millis / 1000
        let rest = millis % 1000
        if rest == 0 { return "\(whole)s" }
        var fraction = String(rest)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)s"
    }

    private static func hex(_ value: UInt32) -> String {
        var digits = String(value, radix: 16, uppercase: true)
        while digits.count < 4 { digits = "0" + digits }
        return digits
    }
}
