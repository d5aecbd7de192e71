package import SystemKit

/// Draws frames of lines on a terminal in the alternate screen, writing only when a frame differs
/// from the last one drawn.
///
/// Not thread-safe: owned by the event loop.
package struct Screen {
    /// Where the frames go.
    package var output: Output
    private var last: [String]?

    package init(output: Output) { self.output = output }

    /// Switches to the alternate screen and hides the cursor.
    package mutating func enter() {
        output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
        last = nil
    }

    /// Shows the cursor and leaves the alternate screen, so the shell's screen comes back as it was.
    package mutating func leave() {
        output.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        last = nil
    }

    /// Forgets the last frame, so the next `draw` repaints everything (after a resize or `fg`).
    package mutating func invalidate() {
        if last != nil { output.write("\u{1B}[H\u{1B}[2J") }
        last = nil
    }

    /// Draws `lines` from the top-left corner if they differ from the last frame.
    /// - Returns: whether anything was written.
    @discardableResult
    package mutating func draw(_ lines: [String]) -> Bool {
        guard lines != last else { return false }
        last = lines
        output.write("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
        return true
    }

    /// Rings the terminal bell.
    package mutating func bell() { output.write("\u{07}") }
}
