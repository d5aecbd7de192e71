/// An instruction from the controller to the event loop, carried out in order.
package enum Effect: Equatable {
    /// Log the event (JSON and plain lines).
    case emit(TimerEvent)
    /// Open the device now and start the alarm's first frame at `at` (boot clock); `loops` nil
    /// rings until stopped; `line` is the spoken line it starts with, if the timer speaks one.
    case startAlarm(at: ContinuousClock.Instant, loops: Int?, line: RingLine = .ready)
    /// Ask the alarm (and any pre-opened device) to stop; never waits for it.
    case stopAlarm
    /// Ring the terminal bell (the alarm's fallback while no audio device works).
    case bell
    /// The terminal was resized: measure it again and redraw.
    case resize
    /// Ctrl-Z: give the terminal back, stop the process, take the terminal again once continued.
    case suspend
    /// Continued after a stop that eggtimer did not ask for: take the terminal again and redraw.
    case retakeTerminal
    /// A hang-up while a timer runs: give the terminal up for good (no screen, no keys, nothing
    /// written to it) and go on headless.
    case detach
    /// Exit with this status (after restoring the terminal).
    case exit(ExitStatus)
    /// Answer a control request on `connection`: the timer's status, or why it was refused.
    case reply(connection: Int, ControlReply)
    /// Start the `--on-done` command (the deadline was reached).
    case runDoneCommand
    /// Publish the timer's state on the broker now, changed or not (MQTT `status`); nothing
    /// without `--mqtt`.
    case publishState
    /// One line for the log (standard error while no screen is on): a command that was ignored,
    /// a source's note (the control socket bound again).
    case log(String)
}

/// The controller's answer to a control request.
package enum ControlReply: Equatable {
    /// Done: answer with the timer's status as it is now.
    case status
    /// Refused, with a one-line reason naming the timer and its state.
    case refused(String)
}
