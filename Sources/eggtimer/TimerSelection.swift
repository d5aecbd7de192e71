import ControlChannel
import SystemKit
import TimerEngine
import TimerModel

/// Which running timer `eggtimer ack|cancel|snooze [LABEL]` acts on.
///
/// With a label: that timer. Without: the only timer, else the only ringing one (`ringing`, or
/// `silent` when its alarm reaches no device), else none: the user must name one.
enum TimerSelection {
    /// The socket name that `label`, as typed, means: the one of the same key
    /// (``LabelRule/key(_:)``: `eggtimer ack soft` for the preset's `Soft`), else `label` itself
    /// (which then names no running timer).
    /// - Parameters:
    ///   - label: The label given.
    ///   - labels: The labels of the sockets in the runtime folder.
    /// - Returns: The label to ask.
    static func socketLabel(for label: String, among labels: [String]) -> String {
        labels.first { LabelRule.same($0, label) } ?? label
    }

    /// The timer to act on.
    /// - Parameters:
    ///   - timers: The running timers that answered, sorted by label.
    ///   - label: The label given, or nil.
    ///   - verb: The subcommand as typed in the hint (`ack`, `cancel`, `snooze`).
    /// - Returns: The chosen timer's status.
    /// - Throws: `ControlFailure`: ``ExitStatus/noTimer`` when none runs or none has the label;
    ///   ``ExitStatus/usage`` listing the candidates when several could be meant.
    static func target(among timers: [TimerStatus], label: String?, verb: String) throws(ControlFailure) -> TimerStatus
    {
        if let label {
            // One rule for matching: the same key (`Soft` is `soft`).
            guard let timer = timers.first(where: { LabelRule.same($0.label, label) }) else {
                throw ControlFailure(status: .noTimer, message: "no timer labelled '\(label)' is running")
            }
            return timer
        }
        if timers.isEmpty { throw ControlFailure(status: .noTimer, message: "no timers running") }
        if timers.count == 1 { return timers[0] }
        let ringing = timers.filter { $0.state.isRinging }
        if ringing.count == 1 { return ringing[0] }
        let list = timers.map { "\($0.label) (\($0.state.rawValue))" }.joined(separator: ", ")
        throw ControlFailure(
            status: .usage, message: "\(timers.count) timers are running: \(list); name one: eggtimer \(verb) LABEL")
    }

    /// The timers `ack --all` or `cancel --all` act on: for ``Command/acknowledge`` every one
    /// ringing (or silent) or snoozed, for ``Command/cancel`` every one not over yet.
    /// - Parameters:
    ///   - timers: The running timers that answered, sorted by label.
    ///   - command: ``Command/acknowledge`` or ``Command/cancel`` (any other fits none).
    /// - Returns: Those that fit, in order; never empty.
    /// - Throws: `ControlFailure` with ``ExitStatus/noTimer`` when none fits.
    static func all(among timers: [TimerStatus], for command: Command) throws(ControlFailure) -> [TimerStatus] {
        let fitting = timers.filter { fits($0.state, command) }
        guard fitting.isEmpty else { return fitting }
        let what = command == .acknowledge ? "no timer is ringing or snoozed" : "no timers running"
        throw ControlFailure(status: .noTimer, message: what)
    }

    /// Whether `--all` with `command` acts on a timer in `state`: `ack` on one ringing, silent or
    /// snoozed, `cancel` on one not over yet (the egg menu too).
    static func fits(_ state: TimerState, _ command: Command) -> Bool {
        switch command {
        case .acknowledge: state.isCoveredByAcknowledgeAll
        case .cancel: !state.isFinal
        default: false
        }
    }

    /// `failure` reworded when timers that did not answer were left out: not "no timers running"
    /// (they run) but how many run without answering.
    /// - Parameters:
    ///   - failure: Why nothing was chosen among the timers that answered.
    ///   - count: How many other timers did not answer (each already said on standard error).
    /// - Returns: `failure`, or for ``ExitStatus/noTimer`` with `count` above 0:
    ///   `no timers running` → `no timer answering (1 running, not answering)`.
    static func unanswered(_ failure: ControlFailure, count: Int) -> ControlFailure {
        guard count > 0, failure.status == .noTimer, failure.message == "no timers running" else { return failure }
        return ControlFailure(status: .noTimer, message: "no timer answering (\(count) running, not answering)")
    }
}
