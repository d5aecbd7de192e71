import SystemKit

/// Why a timer record could not be written, read or used; the text is one line for messages.
package enum RecordError: Error, Equatable, CustomStringConvertible {
    /// A system call failed: the call and path, and the `errno`.
    case system(call: String, path: String, code: Int32)
    /// The content is not a record: the line (1-based; 0 for the whole file) and what is wrong.
    case corrupt(line: Int, reason: String)
    /// A record of a format this eggtimer does not know (written by a newer one).
    case unknownVersion(String)
    /// The file belongs to another user.
    case foreign(uid: UInt32)
    /// The state folder is unsafe (a symlink, another user's, open to others).
    case unsafeFolder(path: String, reason: String)
    /// A pomodoro: recorded, but never resumed.
    case notRecoverable(String)

    package var description: String {
        switch self {
        case .system(let call, let path, let code): "\(call) \(path): \(errorText(code))"
        case .corrupt(let line, let reason):
            line > 0 ? "corrupt record: line \(line): \(reason)" : "corrupt record: \(reason)"
        case .unknownVersion(let first):
            "not a record this eggtimer knows (it begins '\(first.escapingControlCharacters)', expected '\(TimerRecord.header)')"
        case .foreign(let uid): "the record belongs to user \(uid), not to this user"
        case .unsafeFolder(let path, let reason): "the state folder \(path) is unsafe: \(reason)"
        case .notRecoverable(let reason): reason
        }
    }
}
