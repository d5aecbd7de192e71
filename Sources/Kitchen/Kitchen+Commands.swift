import ControlChannel
import TimerEngine
import TimerModel

// One command to one followed timer through its control socket, bounded in time: what the
// keypad's keys and the HTTP API's actions both send (Kitchen+Keypad.swift, KitchenWebFront+Routes.swift).

extension Kitchen {
    /// How a command to one timer went.
    enum CommandOutcome: Equatable {
        /// The timer did it: the line to log (`tea: alarm stopped`) and its reply (its status line).
        case done(line: String, reply: String)
        /// It refused, did not answer or is gone: the line why.
        case failed(String)
    }

    /// Sends `command` to the timer on `socket` and waits at most ``keypadAnswerLimit`` for its
    /// reply (a timer answers in well under a millisecond; a stopped one costs this once).
    ///
    /// On success the timer's reply (its status line) goes into the picture at once, as its
    /// `watch` line would. Blocks the loop's thread for at most that long. Main thread.
    /// - Parameters:
    ///   - command: The command.
    ///   - socket: The timer's socket name (a key of ``KitchenCore/timers``).
    /// - Returns: The outcome, its lines named by the timer's label.
    func exchange(_ command: Command, with socket: String) -> CommandOutcome {
        let label = core.timers[socket]?.label ?? socket
        do throws(ControlError) {
            let reply = try ControlClient.exchange(
                ControlRequest.command(command).line, label: socket, folder: runtime, timeout: Self.keypadAnswerLimit)
            switch ControlAnswer.outcome(of: reply, command: command, label: label, time: .system) {
            case .success(let line):
                // The reply is the timer's status after the command: the kitchen's picture takes
                // it now, so a GET or an event right after this answer never shows the state
                // before it (the socket's `watch` line follows and changes nothing).
                if let status = TimerStatus(line: reply) { _ = handle(.timerStatus(socket: socket, status)) }
                return .done(line: line, reply: reply)
            case .failure(let failure): return .failed(failure.message)
            }
        } catch {
            return .failed("\(label): \(error.description)")
        }
    }
}
