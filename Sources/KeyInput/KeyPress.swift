public import SystemKit

/// One press of a key, counted once: a short one when it was let go within
/// ``KeyPressReader/longPress`` of going down, else a long one.
///
/// A plain value; any thread.
public struct KeyPress: Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public var code: KeyCode
    /// Whether the key was still held ``KeyPressReader/longPress`` after it went down.
    public var isLong: Bool

    /// A press of `code`.
    /// - Parameters:
    ///   - code: The key.
    ///   - isLong: Whether it was held.
    public init(code: KeyCode, isLong: Bool = false) { (self.code, self.isLong) = (code, isLong) }

    /// The press as tests print it, such as `key 2 held`.
    ///
    /// Never logged: a key code not in the map is not to be logged.
    public var description: String { "key \(code.rawValue)" + (isLong ? " held" : "") }
}
