import Glibc
import SystemKit

/// Why a control socket could not be set up or a timer could not be reached.
public enum ControlError: Error, Hashable, CustomStringConvertible, Sendable {
    /// The runtime folder is unsafe to use: not a directory, a symlink, someone else's, or open to
    /// others; the reason says which.
    case unsafeFolder(path: String, reason: String)
    /// A timer with this label is already running and answered on its socket.
    case labelInUse(label: String)
    /// A system call failed: the call's name and `errno`.
    case system(call: String, code: Int32)
    /// The socket's listener runs as another user (SO_PEERCRED), so nothing it says is believed.
    case foreignListener(path: String, uid: UInt32)
    /// The timer did not answer within the deadline.
    case noAnswer(path: String, peerPID: Int32?)
    /// The timer answered something that is not the control protocol.
    case badAnswer(path: String)
    /// The timer closed the connection without a word (end of file or reset before any reply):
    /// it is ending (cancelled, acknowledged, killed) while asked.
    case closedUnanswered(path: String)
    /// A socket path longer than a socket address holds (``UnixSocket/maximumPathBytes``): no timer
    /// can listen there and no client can reach one; the runtime folder is too deep.
    case pathTooLong(path: String)
    /// The timer speaks an older version of the protocol than the request needs (it answered
    /// `watch` with version 1's error line): it was started before an upgrade.
    case olderTimer(path: String)
    /// The timer refused the request, with its reason (`watch` when it has the most watchers).
    case refused(path: String, reason: String)

    /// Whether no timer is there to answer.
    ///
    /// A stale socket or none (`connect` refused, or no such file: left for its label's next
    /// timer, or a timer between bind and listen), or one that closed without a word while it
    /// ended. The one rule for every client that asks timers in turn and skips those gone.
    public var isGone: Bool {
        switch self {
        case .system(_, let code): code == ECONNREFUSED || code == ENOENT
        case .closedUnanswered: true
        default: false
        }
    }

    /// One line, without a trailing newline.
    public var description: String {
        switch self {
        case .unsafeFolder(let path, let reason): "unsafe runtime folder '\(path)': \(reason)"
        case .labelInUse(let label): "a timer labelled '\(label)' is already running"
        case .system(let call, let code): "\(call): \(errorText(code))"
        case .foreignListener(let path, let uid): "\(path) is served by user \(uid), not by you: not trusted"
        case .noAnswer(let path, _): "no answer from \(path)"
        case .badAnswer(let path): "an answer that is not eggtimer's from \(path)"
        case .closedUnanswered(let path): "\(path) closed without answering: it is ending"
        case .pathTooLong(let path):
            "the socket path \(path) is \(path.utf8.count) bytes, more than the \(UnixSocket.maximumPathBytes) a socket "
                + "address holds: give a shorter label or XDG_RUNTIME_DIR"
        case .olderTimer(let path):
            "the timer at \(path) speaks \(ControlRequest.protocolName) only, which has no watch: it was started "
                + "before an upgrade"
        case .refused(let path, let reason): "\(path) refused: \(reason)"
        }
    }
}
