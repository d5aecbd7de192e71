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

    /// Parses a request by the one grammar of a start, on every path (the command line, `start`,
    /// MQTT, the HTTP API and the page, keypad keys).
    ///
    /// Words are separated by blanks (spaces, tabs, newlines). The first word is a preset name
    /// (any case) from `presets`, else the LONGEST prefix of words `DurationParser` reads, joined
    /// by one space (`5 min`, `1h 30m`, `1 hour 30 minutes`, `90 sec`, `7m30s`, `1:30`); the
    /// words after it, joined by one space, are the label (`7m30s roast beef`). A duration
    /// without a label is labelled as typed with its blanks collapsed to one space (`5 min`).
    /// Nothing ambiguous is guessed: a label whose first word is a number, a duration or a unit
    /// word (`5 30`, `5 min min`), or that reads as a duration itself (`soft 5m`), is refused.
    /// - Parameters:
    ///   - text: The request as it came (an MQTT payload's UTF-8, a form field). Leading and
    ///     trailing blanks are ignored.
    ///   - presets: The preset names the box knows (`Preset.eggs`' and the config's), any case.
    /// - Returns: The request.
    /// - Throws: `UsageError`, one line naming the bad token: empty, longer than ``limit``, not
    ///   valid UTF-8, a control character, a word starting with `-` (no option can be smuggled
    ///   in), a first word that is neither a preset nor a duration, an ambiguous label, a label
    ///   that breaks `LabelRule`.
    /// - Complexity: O(n²) in the number of words of `text` (at most ``limit`` bytes).
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
    /// - Parameters:
    ///   - text: The request's words.
    ///   - label: A label given apart from the words (`--label`, the API's `label` field), or
    ///     nil; checked as a label after the words would be. The words may then not hold one.
    ///   - presets: The preset names, any case.
    /// - Returns: The request.
    /// - Throws: `UsageError` as that does, and when the words hold a label and `label` is given.
    public static func parse(_ text: String, label: String? = nil, presets: [String]) throws(UsageError)
        -> StartRequest
    {
        guard text.utf8.count <= limit else {
            throw UsageError(description: "a start request of \(text.utf8.count) bytes is longer than \(limit)")
        }
        let words = try Self.words(text)
        guard let first = words.first else { throw UsageError(description: "an empty start request") }
        let length: Length
        let rest: ArraySlice<String>
        let lower = first.lowercased()
        if presets.contains(where: { $0.lowercased() == lower }) {
            (length, rest) = (.preset(lower), words.dropFirst())
        } else {
            do throws(DurationParseError) {
                let (duration, count) = try longestDuration(words)
                (length, rest) = (.duration(duration), words.dropFirst(count))
            } catch {
                let names = presets.map { $0.lowercased() }.joined(separator: ", ")
                throw UsageError(
                    description: "'\(first)' is neither a preset (\(names)) nor a duration: \(error.reason)")
            }
        }
        var given: String?
        if !rest.isEmpty {
            try checkLabel(Array(rest), after: length, presets: presets)
            given = rest.joined(separator: " ")
        }
        if let label {
            if let given {
                throw UsageError(description: "'\(given)' and --label '\(label)': give the label once")
            }
            let labelWords = try Self.words(label)
            guard !labelWords.isEmpty else { throw UsageError(description: "an empty label") }
            try checkLabel(labelWords, after: length, presets: presets)
            given = labelWords.joined(separator: " ")
        }
        if case .duration = length, given == nil {
            given = words[..<(words.count - rest.count)].joined(separator: " ")  // as typed: `5 min`
            if !LabelRule.isValid(given ?? "") { given = nil }
        }
        return StartRequest(length: length, label: given)
    }

    /// `text` split at blanks, checked for control characters and options.
    private static func words(_ text: String) throws(UsageError) -> [String] {
        let blank: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r"]
        if let bad = text.unicodeScalars.first(where: { !blank.contains($0) && $0.isControlCharacter }) {
            throw UsageError(
                description: "a start request may not contain the control character U+\(hex(bad.value))")
        }
        let words = text.unicodeScalars.split(whereSeparator: { blank.contains($0) }).map { String($0) }
        if let option = words.first(where: { $0.hasPrefix("-") }) {
            throw UsageError(description: "'\(option)': a start request takes no options")
        }
        return words
    }

    /// The longest prefix of `words` that `DurationParser` reads, joined by one space, with how
    /// many words it took.
    /// - Parameter words: The request's words, not empty.
    /// - Returns: The duration and its word count.
    /// - Throws: The first word's `DurationParseError` when not even it is a duration.
    private static func longestDuration(_ words: [String]) throws(DurationParseError) -> (Duration, Int) {
        for count in stride(from: words.count, to: 1, by: -1) {
            if let duration = try? DurationParser.parse(words[..<count].joined(separator: " ")) {
                return (duration, count)
            }
        }
        return (try DurationParser.parse(words[0]), 1)
    }

    /// Refuses a label that could be read as part of the length or as another one (a duration,
    /// or after a preset another preset's name: `soft hard`), and one `LabelRule` refuses; a label that reads as the request's own duration is that duration
    /// as typed, and stands.
    /// - Parameters:
    ///   - words: The label's words, not empty.
    ///   - length: What the words before it were read as.
    ///   - presets: The preset names, any case.
    /// - Throws: `UsageError` naming the word or the label.
    private static func checkLabel(_ words: [String], after length: Length, presets: [String]) throws(UsageError) {
        let label = words.joined(separator: " ")
        let first = words[0]
        if case .preset(let name) = length, label.lowercased() != name,
            presets.contains(where: { $0.lowercased() == label.lowercased() })
        {
            throw UsageError(description: "'\(label)': give one preset; a label may not name another")
        }
        if let read = try? DurationParser.parse(label) {
            if case .duration(let duration) = length, read == duration {
                // The length as typed (`300s --label '5 min'`, as the kitchen starts `5 min`).
                guard LabelRule.isValid(label) else {
                    throw UsageError(description: "invalid label '\(label)': \(LabelRule.description)")
                }
                return
            }
            if case .preset = length {
                throw UsageError(description: "'\(label)': give a preset or a duration, not both")
            }
            throw UsageError(description: "'\(label)': give one duration; a label may not read as another")
        }
        if DurationParser.isUnitWord(first) {
            throw UsageError(
                description: "'\(first)': a unit needs its number before it; a label may not begin with it")
        }
        if (try? DurationParser.parse(first)) != nil {
            throw UsageError(description: "'\(first)': a label may not begin with a number or a duration")
        }
        guard LabelRule.isValid(label) else {
            throw UsageError(description: "invalid label '\(label)': \(LabelRule.description)")
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

    /// The request as a start payload would say it, so that it parses back to itself: `soft`,
    /// `450s pasta`, and a duration labelled as typed as its label alone (`5 min`, not
    /// `300s 5 min`, which would be ambiguous).
    public var description: String {
        if case .duration(let duration) = length, let label, (try? DurationParser.parse(label)) == duration {
            return label
        }
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
