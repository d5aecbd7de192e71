import Glibc

/// Puts a terminal in cbreak mode (keys arrive at once, unechoed; Ctrl-C and Ctrl-Z still raise
/// signals; output processing kept) and restores the exact settings it found.
///
/// It touches the terminal only while this process group is the terminal's foreground: setting
/// modes (or flushing input) from a background job raises SIGTTOU, which stops the whole process
/// ("Stopped (tty output)"), and blocking SIGTTOU instead would silently change the foreground
/// job's terminal. So ``enter()``, ``restore()`` and ``discardTypedAhead()`` do nothing from the
/// background and say so.
///
/// The settings to restore are saved when cbreak mode is entered, not at creation: a job started
/// in the background takes the terminal on `fg` as the shell hands it over then.
///
/// Restore it on every exit path: normal exit, error, and each handled signal. Not thread-safe:
/// owned by the event loop.
package struct RawMode {
    /// The terminal's descriptor (standard input).
    let descriptor: Int32
    /// The settings found when cbreak mode was first entered, restored byte for byte.
    private var original: termios?
    /// Whether cbreak mode is set (or was set and could not be restored from the background).
    private(set) var isActive = false

    /// Prepares cbreak mode for `descriptor`; changes nothing yet.
    /// - Returns: nil if `descriptor` is not a terminal.
    package init?(descriptor: Int32) {
        guard isatty(descriptor) == 1 else { return nil }
        self.descriptor = descriptor
    }

    /// Whether this process group is the terminal's foreground, so it may set modes.
    ///
    /// C: `tcgetpgrp`, `getpgrp`.
    var isForeground: Bool { tcgetpgrp(descriptor) == getpgrp() }

    /// Enters cbreak mode (clears ICANON and ECHO, VMIN 1, VTIME 0), saving the current settings
    /// first unless cbreak mode is already on; from the background does nothing.
    /// - Returns: whether cbreak mode is set now. C: `tcgetattr`, `tcsetattr`.
    @discardableResult
    package mutating func enter() -> Bool {
        guard isForeground else { return false }
        if !isActive || original == nil {
            var found = termios()
            guard tcgetattr(descriptor, &found) == 0 else { return false }
            original = found
        }
        guard var settings = original else { return false }
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        if tcsetattr(descriptor, TCSANOW, &settings) == 0 { isActive = true }
        return isActive
    }

    /// Drops bytes typed before the program was ready (TCIFLUSH); from the background does nothing.
    ///
    /// C: `tcflush`.
    package func discardTypedAhead() {
        if isForeground { _ = tcflush(descriptor, TCIFLUSH) }
    }

    /// Restores the saved settings (TCSANOW, so pending typed-ahead input is kept).
    ///
    /// From the background it leaves the terminal alone and stays active, to restore once in the
    /// foreground again. C: `tcsetattr`.
    package mutating func restore() {
        guard isActive, var settings = original, isForeground else { return }
        _ = tcsetattr(descriptor, TCSANOW, &settings)
        isActive = false
    }
}
