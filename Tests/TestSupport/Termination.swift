/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    /// Decodes a status from `waitpid`, `wait4` or `waitid`'s `WEXITSTATUS`/`WTERMSIG` encoding.
    /// - Parameter status: The raw status of a child that exited or was killed (not stopped).
    public init(waitStatus status: Int32) {
        self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    public var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}
