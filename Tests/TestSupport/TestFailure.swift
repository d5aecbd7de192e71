/// A failure of a test's own machinery (a server that does not start, a tool that fails, a child
/// that hangs), thrown so the test fails with this message.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    /// - Parameter description: What went wrong, naming the log to look at where there is one.
    public init(_ description: String) { self.description = description }
}
