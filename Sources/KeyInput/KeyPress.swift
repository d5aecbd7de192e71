public import SystemKit

/// One press of a key, counted once: a short one when it was let go within
/// ``KeyPressReader/longPress`` of going down, else a long one; with the time stamps it began and
/// ended at.
///
/// A plain value; any thread.
public struct KeyPress: Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public var code: KeyCode
    /// Whether the key was still held ``KeyPressReader/longPress`` after it went down.
    public var isLong: Bool
    /// The time stamp of the down event that began it, on the device's clock
    /// (``InputEvent/time``); a bounce's second down does not move it.
    public var down: Duration
    /// The time stamp it ended at: its release (the last one, a bounce's included), or for a long
    /// press the moment it became long (``down`` + ``KeyPressReader/longPress``).
    public var end: Duration

    /// A press of `code`.
    /// - Parameters:
    ///   - code: The key.
    ///   - isLong: Whether it was held.
    ///   - down: The time stamp of its down event.
    ///   - end: The time stamp it ended at; nil: ``down``, plus ``KeyPressReader/longPress`` for a
    ///     long press.
    public init(code: KeyCode, isLong: Bool = false, down: Duration = .zero, end: Duration? = nil) {
        (self.code, self.isLong, self.down) = (code, isLong, down)
        self.end = end ?? (isLong ? down + KeyPressReader<ContinuousClock.Instant>.longPress : down)
    }

    /// The press as tests print it, such as `key 2 held`.
    ///
    /// Never logged: a key code not in the map is not to be logged.
    public var description: String { "key \(code.rawValue)" + (isLong ? " held" : "") }
}
