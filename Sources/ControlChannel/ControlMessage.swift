/// The control protocol's messages: one request line from a client, one reply line from the timer.
///
/// Lines are tab-separated words; the first word of a request is the protocol's name and version,
/// so a future change is recognised instead of misread.
///
/// Request: `eggtimer/1<TAB>verb[<TAB>argument]`. Reply: `ok<TAB>key=value…` or `error<TAB>text`.
public enum ControlRequest: Equatable, Sendable {
    /// Report the timer's status.
    case status
    /// Stop the ringing alarm.
    case acknowledge
    /// End the timer.
    case cancel
    /// Silence the alarm and ring again after this long (nil: the timer's default).
    case snooze(Duration?)

    /// The protocol's name and version, the first word of every request.
    public static let protocolName = "eggtimer/1"

    /// The request as one line.
    public var line: String {
        switch self {
        case .status: Self.protocolName + "\tstatus"
        case .acknowledge: Self.protocolName + "\tack"
        case .cancel: Self.protocolName + "\tcancel"
        case .snooze(nil): Self.protocolName + "\tsnooze"
        case .snooze(let duration?): Self.protocolName + "\tsnooze\t\(duration.components.seconds)"
        }
    }

    /// Parses a request line.
    /// - Returns: nil for anything that is not a well-formed request of this version.
    public init?(line: String) {
        let words = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard words.count >= 2, words[0] == Self.protocolName else { return nil }
        switch (words[1], words.count) {
        case ("status", 2): self = .status
        case ("ack", 2): self = .acknowledge
        case ("cancel", 2): self = .cancel
        case ("snooze", 2): self = .snooze(nil)
        case ("snooze", 3):
            guard let seconds = Int64(words[2]), seconds > 0, seconds <= 999 * 3600 else { return nil }
            self = .snooze(.seconds(seconds))
        default: return nil
        }
    }
}
