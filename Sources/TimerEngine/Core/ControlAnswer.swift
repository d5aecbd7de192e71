package import ControlChannel
package import TimerModel

/// Why a subcommand ends without acting: the line to print on standard error (without the
/// `eggtimer: ` prefix) and the exit status.
package struct ControlFailure: Error, Equatable {
    package let status: ExitStatus
    package let message: String

    /// - Parameters:
    ///   - status: The exit status.
    ///   - message: The line, without the `eggtimer: ` prefix.
    package init(status: ExitStatus, message: String) { (self.status, self.message) = (status, message) }
}

/// A running timer's reply to a shell's (or the kitchen's) command on its control socket: how
/// long it may take, and the line it means.
///
/// Pure; any thread.
package enum ControlAnswer {
    /// How long a timer has to answer one request from a shell command (`ack`, `status`, `start`).
    package static let answerLimit = Duration.seconds(1)

    /// What a timer's reply to an action means.
    /// - Parameters:
    ///   - reply: The reply line: `ok…` (a ``TimerStatus`` line, or `ok` alone) or `error<TAB>text`.
    ///   - command: The command it answers.
    ///   - label: The timer's label.
    ///   - time: Local wall-clock time, for the end of a snooze.
    /// - Returns: The line to print (`soft: alarm stopped`, `soft: cancelled`,
    ///   `soft: snoozed until 09:22:03`), or a failure: ``ExitStatus/noTimer`` with the timer's
    ///   own text for `error`, ``ExitStatus/software`` for a reply that is not the protocol.
    package static func outcome(
        of reply: String, command: Command, label: String, time: LocalTime
    ) -> Result<String, ControlFailure> {
        if reply.hasPrefix("error\t") {
            let text = reply.dropFirst("error\t".count)
            return .failure(ControlFailure(status: .noTimer, message: text.isEmpty ? "\(label) refused" : String(text)))
        }
        guard reply == "ok" || reply.hasPrefix("ok\t") else {
            return .failure(
                ControlFailure(status: .software, message: "\(label) answered something that is not eggtimer's"))
        }
        switch command {
        case .acknowledge: return .success("\(label): alarm stopped")
        case .cancel: return .success("\(label): cancelled")
        case .snooze:
            guard let deadline = TimerStatus(line: reply)?.deadlineUnixMilliseconds else {
                return .success("\(label): snoozed")
            }
            return .success("\(label): snoozed until \(time.clockText(unixMilliseconds: deadline))")
        case .status: return .success("\(label): running")
        case .pause: return .success("\(label): paused")
        case .resume: return .success("\(label): resumed")
        case .add(let delta):
            let moved =
                delta > .zero ? "\(delta.components.seconds) s added" : "\(-delta.components.seconds) s taken off"
            return .success("\(label): " + moved)
        }
    }
}
