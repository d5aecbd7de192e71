import EventLoop
import TerminalUI
import TimerEngine
import TimerText

// What the session hands the loop's sources and fronts, each from one place: the output routing
// (the log, the keyboard source, the view) and the wall deadline (the wall-clock timer) (issue 23).

extension Session {
    /// Re-decides the routing if the terminal's foreground changed since the last look (a job
    /// brought to the foreground by `fg`, or put in the background): the keyboard, the screen and
    /// the log follow.
    ///
    /// One `tcgetpgrp` per round.
    mutating func followForeground() {
        if terminal.follow(decideRouting()) { applyRouting() }
    }

    /// Continued after a stop (Ctrl-Z then `fg` or `bg`, SIGSTOP then SIGCONT): takes the
    /// terminal again if this job is in the foreground now, else stays off it.
    mutating func retakeTerminal() {
        if terminal.retake(decideRouting()) { applyRouting() }
    }

    /// The routing for the terminal's foreground as it is now; notes whether being brought to
    /// the foreground would change it (then the loop looks for that).
    private mutating func decideRouting() -> OutputRouting {
        var facts = OutputRouting.Facts.current(json: json)
        let routing = OutputRouting.decide(facts)
        facts.foreground = true
        awaitsForeground = OutputRouting.decide(facts) != routing
        return routing
    }

    /// The one place a routing is applied: points the log, the keyboard source and the view at
    /// the terminal session's routing (at start, and whenever it changes).
    mutating func applyRouting() {
        output.log = terminal.routing.log
        loop.first(Keyboard.self)?.follow(keyboard: terminal.routing.keyboard)
        view.hasKeyboard = terminal.hasKeyboard
    }

    /// Hands the controller's wall deadline (``Controller/wallDeadline``) to the ``WallTimer``
    /// when it changed since the last hand-over; nothing otherwise (the timer re-arms itself at
    /// it after a clock step).
    mutating func handOverWallDeadline() {
        let deadline = controller.wallDeadline
        guard deadline != wallDeadline else { return }
        wallDeadline = deadline
        loop.first(WallTimer.self)?.deadline = deadline
    }
}
