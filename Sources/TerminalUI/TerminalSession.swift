package import EventLoop
import Glibc
import SystemKit

/// The terminal while eggtimer runs: the keyboard in cbreak mode and the full-screen UI, both
/// optional, taken and given back together, and only while this process group is the
/// terminal's foreground.
///
/// A job in the background (`eggtimer 3 &`, or Ctrl-Z then `bg`) never sets terminal modes nor
/// writes escape codes (either would stop it with SIGTTOU); it keeps counting and ringing, and
/// ``follow(_:)`` hands it the keyboard and the screen when it is brought to the foreground.
///
/// Every way out goes through ``leave()``, which restores the exact settings found, shows the
/// cursor and leaves the alternate screen. Not thread-safe: owned by the event loop.
package struct TerminalSession {
    private var keyboard: RawMode?
    private var screen: Screen?
    /// What the terminal is used for now; changes when the foreground changes.
    package private(set) var routing: OutputRouting
    /// The UI's size in columns and rows (80 × 24 when unknown).
    package private(set) var size: (columns: Int, rows: Int) = (80, 24)

    /// Prepares the session; nothing changes on the terminal until ``enter()``.
    /// - Parameter routing: Whether there is a keyboard and where the UI goes.
    package init(routing: OutputRouting) {
        self.routing = routing
        keyboard = RawMode(descriptor: STDIN_FILENO)
    }

    /// Whether keys come from a terminal now.
    package var hasKeyboard: Bool { routing.keyboard && keyboard != nil }
    /// Whether the full-screen UI is drawn now.
    package var hasScreen: Bool { screen != nil }
    /// The errno of a failed write to the UI's descriptor, if one failed.
    package var failed: Int32? { screen?.output.failed }

    /// Takes the terminal as the routing says, if this process group is its foreground:
    /// cbreak mode (dropping keys typed before) and the alternate screen.
    package mutating func enter() {
        if routing.keyboard, keyboard?.enter() == true { keyboard?.discardTypedAhead() }
        takeScreen()
        size = measure()
    }

    /// Switches the UI's terminal to the alternate screen, if there is a UI, it is not up yet
    /// and this process group is that terminal's foreground.
    private mutating func takeScreen() {
        guard let ui = routing.ui, screen == nil, Self.isForeground(ui) else { return }
        screen = Screen(output: Output(descriptor: ui))
        screen?.enter()
    }

    /// Gives the terminal back exactly as it was found.
    ///
    /// From the background it writes nothing and sets no modes (SIGTTOU): it just stops drawing.
    package mutating func leave() {
        if let ui = routing.ui, Self.isForeground(ui) { screen?.leave() }
        screen = nil
        keyboard?.restore()
    }

    /// Gives the terminal up for good after a hang-up (SIGHUP), so the timer goes on headless.
    ///
    /// A terminal that still answers (`kill -HUP` with the terminal open) is given back as
    /// ``leave()`` does; a hung-up one, whose writes fail with EIO and which polls POLLHUP for
    /// ever, is written nothing. Then each standard descriptor on a terminal (or a hung-up one)
    /// is pointed at `/dev/null`, as `nohup` does, so nothing written later (the log, a warning)
    /// reaches it and it leaves the poll set: the caller decides the routing anew, which is now
    /// the routing of a process without a terminal (``follow(_:)``).
    ///
    /// C: `tcgetattr`, `open`, `dup2`.
    package mutating func detach() {
        if let ui = routing.ui, Self.isLiveTerminal(ui), Self.isForeground(ui) { screen?.leave() }
        screen = nil
        keyboard?.restore()
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { return }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where Self.isTerminal(descriptor) {
            _ = dup2(null, descriptor)
        }
        _ = Glibc.close(null)
    }

    /// Whether `descriptor` is a terminal that answers.
    private static func isLiveTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether `descriptor` is a terminal, answering or hung up (whose every `ioctl` fails with
    /// EIO, where a file or pipe fails with ENOTTY).
    private static func isTerminal(_ descriptor: Int32) -> Bool {
        var settings = termios()
        return tcgetattr(descriptor, &settings) == 0 || errno == EIO
    }

    /// Switches to `routing` (decided anew after the foreground changed): gives back what is no
    /// longer wanted and takes what is.
    ///
    /// Does nothing if the routing is unchanged.
    /// - Returns: whether it changed.
    @discardableResult
    package mutating func follow(_ routing: OutputRouting) -> Bool {
        guard routing != self.routing else { return false }
        leave()
        self.routing = routing
        enter()
        return true
    }

    /// Ctrl-Z: gives the terminal back and stops the process; returns once continued (`fg` or
    /// `bg`).
    ///
    /// The caller then decides the routing anew and calls ``retake(_:)``.
    package mutating func suspend(_ signals: SignalSet) {
        leave()
        signals.suspendProcess()
    }

    /// Continued after a stop (Ctrl-Z, SIGSTOP): follows `routing`, decided for the foreground
    /// as it is now, and takes the terminal again and repaints if this job is in the foreground.
    /// - Returns: whether the routing changed.
    @discardableResult
    package mutating func retake(_ routing: OutputRouting) -> Bool {
        if follow(routing) { return true }
        // The same routing: the shell may have reset the modes while this job was stopped.
        if routing.keyboard { keyboard?.enter() }
        if screen == nil { takeScreen() } else { screen?.invalidate() }
        size = measure()
        return false
    }

    /// Measures the terminal again and repaints everything (SIGWINCH).
    package mutating func resize() {
        size = measure()
        screen?.invalidate()
    }

    /// Draws `lines` if they differ from what is on screen.
    package mutating func draw(_ lines: [String]) {
        screen?.draw(lines)
    }

    /// Rings the bell: on the UI's terminal, else on standard error if that is a terminal.
    package mutating func bell() {
        if screen != nil {
            screen?.bell()
        } else if isatty(STDERR_FILENO) == 1 {
            var terminal = Output(descriptor: STDERR_FILENO)
            terminal.write("\u{07}")
        }
    }

    /// Whether this process group is the foreground of the terminal on `descriptor`.
    ///
    /// C: `tcgetpgrp`, `getpgrp`.
    private static func isForeground(_ descriptor: Int32) -> Bool { tcgetpgrp(descriptor) == getpgrp() }

    private func measure() -> (columns: Int, rows: Int) {
        guard let ui = routing.ui, let size = try? windowSize(of: ui), size.columns > 0, size.rows > 0 else {
            return (80, 24)
        }
        return (Int(size.columns), Int(size.rows))
    }
}
