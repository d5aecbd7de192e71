/// A text file embedded at build time with named slots `@NAME@` that Swift fills: the phone page's
/// HTML fragments (KitchenWeb's page/) and the man page's roff source (the executable's
/// Man/eggtimer.1.in).
///
/// A slot is `@`, an upper-case ASCII letter, then upper-case letters, digits or `_`, then `@`, as
/// autoconf's `.in` files and dist/systemd/*.in write them; any other `@` is text (`eggtimer@.service`,
/// `pi@homeassistant.local`). The file is data, the values are code: a template never holds logic,
/// and ``filled(_:)`` refuses a slot without a value or a value without a slot, so a file and the
/// Swift that fills it cannot drift apart unnoticed (every template is filled by some test).
/// Immutable and `Sendable`; parsing is O(n) in the text's length, filling O(n) in the result's.
public struct FileTemplate: Sendable {
    /// A run of literal text or a slot's name, in file order.
    private enum Piece: Sendable {
        case text(String)
        case slot(String)
    }

    private let pieces: [Piece]

    /// The slots' names, each once, in order of first appearance.
    public let slots: [String]

    /// Parses `bytes` (UTF-8; an invalid sequence becomes U+FFFD).
    /// - Parameters:
    ///   - bytes: The file as SwiftPM's `embedInCode` gives it.
    ///   - trimmingFinalNewline: Drops the file's last `\n`, if any: for a fragment that sits inside a
    ///     line (an inline SVG, a form field), whose file ends with a newline as every text file does.
    public init(_ bytes: [UInt8], trimmingFinalNewline: Bool = false) {
        var text = String(decoding: bytes, as: UTF8.self)
        if trimmingFinalNewline, text.hasSuffix("\n") { text.removeLast() }
        var pieces: [Piece] = []
        var slots: [String] = []
        var literal = Substring()
        var rest = text[...]
        while let at = rest.firstIndex(of: "@") {
            let afterAt = rest.index(after: at)
            let name = rest[afterAt...].prefix { Self.isNameCharacter($0) }
            if let first = name.first, first.isASCII, first.isUppercase, name.endIndex < rest.endIndex,
                rest[name.endIndex] == "@"
            {
                literal += rest[..<at]
                if !literal.isEmpty { pieces.append(.text(String(literal))) }
                literal = ""
                pieces.append(.slot(String(name)))
                if !slots.contains(String(name)) { slots.append(String(name)) }
                rest = rest[rest.index(after: name.endIndex)...]
            } else {
                literal += rest[...at]
                rest = rest[afterAt...]
            }
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.text(String(literal))) }
        (self.pieces, self.slots) = (pieces, slots)
    }

    /// Whether `character` may stand in a slot's name after its first letter: `A`–`Z`, `0`–`9`, `_`.
    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isUppercase || character.isNumber || character == "_")
    }

    /// The text with every slot replaced by its value (values are put in as given: escaping them
    /// for HTML or roff is the caller's).
    /// - Parameter values: One value per slot, by name.
    /// - Returns: The filled text.
    /// - Precondition: `values` has exactly the template's ``slots`` as keys (a programmer error:
    ///   the file and its Swift were changed apart).
    public func filled(_ values: [String: String]) -> String {
        precondition(
            Set(values.keys) == Set(slots),
            "template slots \(slots.sorted()) filled with \(values.keys.sorted())")
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .slot(let name): result += values[name] ?? ""
            }
        }
        return result
    }
}
