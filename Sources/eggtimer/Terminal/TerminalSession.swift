import CSystem
import Glibc

/// The terminal while eggtimer runs: the keyboard in cbreak mode and the full-screen UI, both
/// optional, taken and given back together.
///
/// Every way out goes through ``leave()``, which restores the exact original settings, shows the
/// cursor and leaves the alternate screen. Not thread-safe: owned by the event loop.
struct TerminalSession {
    private var keyboard: RawMode?
    private var screen: Screen?
    private let uiDescriptor: Int32?
    /// The UI's size in columns and rows (80 × 24 when unknown).
    private(set) var size: (columns: Int, rows: Int) = (80, 24)

    /// Prepares the session; nothing changes on the terminal until ``enter()``.
    /// - Parameter routing: Whether there is a keyboard and where the UI goes.
    init(routing: OutputRouting) {
        keyboard = routing.keyboard ? RawMode(descriptor: STDIN_FILENO) : nil
        uiDescriptor = routing.ui
        screen = routing.ui.map { Screen(output: Output(descriptor: $0)) }
        size = measure()
    }

    /// Whether keys come from a terminal.
    var hasKeyboard: Bool { keyboard != nil }
    /// Whether the full-screen UI is drawn.
    var hasScreen: Bool { screen != nil }
    /// The errno of a failed write to the UI's descriptor, if one failed.
    var failed: Int32? { screen?.output.failed }

    /// Takes the terminal: cbreak mode (dropping keys typed while eggtimer started) and the
    /// alternate screen.
    mutating func enter() {
        keyboard?.enter()
        keyboard?.discardTypedAhead()
        screen?.enter()
    }

    /// Gives the terminal back exactly as it was found.
    mutating func leave() {
        screen?.leave()
        keyboard?.restore()
    }

    /// Ctrl-Z: gives the terminal back, stops the process, and takes the terminal again once
    /// continued (`fg`), measuring it anew since it may have been resized meanwhile.
    mutating func suspend(_ signals: SignalSet) {
        leave()
        signals.suspendProcess()
        keyboard?.enter()
        screen?.enter()
        size = measure()
    }

    /// Continued after a stop eggtimer did not ask for (SIGSTOP, then SIGCONT): takes the
    /// keyboard again and repaints.
    mutating func retake() {
        keyboard?.enter()
        screen?.invalidate()
    }

    /// Measures the terminal again and repaints everything (SIGWINCH).
    mutating func resize() {
        size = measure()
        screen?.invalidate()
    }

    /// Draws `lines` if they differ from what is on screen.
    mutating func draw(_ lines: [String]) {
        screen?.draw(lines)
    }

    /// Rings the bell: on the UI's terminal, else on standard error if that is a terminal.
    mutating func bell() {
        if screen != nil {
            screen?.bell()
        } else if isatty(STDERR_FILENO) == 1 {
            var terminal = Output(descriptor: STDERR_FILENO)
            terminal.write("\u{07}")
        }
    }

    private func measure() -> (columns: Int, rows: Int) {
        var rows: UInt16 = 0
        var columns: UInt16 = 0
        guard let uiDescriptor, CSystem_windowSize(uiDescriptor, &rows, &columns) == 0, columns > 0, rows > 0 else {
            return (80, 24)
        }
        return (Int(columns), Int(rows))
    }
}
