/// A command-line mistake: one line naming the bad token; the app exits 64 (EX_USAGE).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String

    /// - Parameter description: The line, naming the bad token, without a trailing newline.
    public init(description: String) { self.description = description }
}
