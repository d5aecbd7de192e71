import TextCoding

/// Which input devices give keys: every key-bearing one (`auto`), or one named by its path.
///
/// A plain value; any thread.
public enum KeySelection: Sendable, Hashable, CustomStringConvertible {
    /// The devices in the input folder whose `capabilities/key` shows keys; none is grabbed.
    case auto
    /// One device, by a path that stays the same across boots (`/dev/input/by-id/…-event-kbd`),
    /// grabbed so that its presses do not also type into a console.
    case path(String)

    /// The longest path taken, in bytes (`PATH_MAX`, less its NUL).
    public static let pathLimit = 4095

    /// Reads `auto` or an absolute path.
    /// - Parameter text: The option's or the config key's value.
    /// - Returns: The selection, or nil for anything else: a relative path, a control character,
    ///   a path longer than ``pathLimit``.
    public static func parse(_ text: String) -> KeySelection? {
        if text == "auto" { return .auto }
        guard text.hasPrefix("/"), text.utf8.count <= pathLimit,
            !text.unicodeScalars.contains(where: { $0.isControlCharacter })
        else { return nil }
        return .path(text)
    }

    /// `auto` or the path, as given.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .path(let path): path
        }
    }
}
