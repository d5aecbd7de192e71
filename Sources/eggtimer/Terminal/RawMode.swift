import Glibc

/// Puts a terminal in cbreak mode (keys arrive at once, unechoed; Ctrl-C and Ctrl-Z still raise
/// signals; output processing kept) and restores the exact original settings.
///
/// Restore it on every exit path: normal exit, error, and each handled signal. Not thread-safe:
/// owned by the event loop.
struct RawMode {
    /// The terminal's descriptor (standard input).
    let descriptor: Int32
    /// The settings found at start, restored byte for byte.
    private let original: termios
    /// Whether cbreak mode is currently set.
    private(set) var isActive = false

    /// Saves the current settings of `descriptor`.
    /// - Returns: nil if `descriptor` is not a terminal.
    init?(descriptor: Int32) {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        self.original = settings
    }

    /// Enters cbreak mode: clears ICANON and ECHO, VMIN 1, VTIME 0.
    mutating func enter() {
        var settings = original
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        if tcsetattr(descriptor, TCSANOW, &settings) == 0 { isActive = true }
    }

    /// Drops bytes typed before the program was ready (TCIFLUSH).
    func discardTypedAhead() { _ = tcflush(descriptor, TCIFLUSH) }

    /// Restores the saved settings (TCSANOW, so pending typed-ahead input is kept).
    mutating func restore() {
        var settings = original
        _ = tcsetattr(descriptor, TCSANOW, &settings)
        isActive = false
    }
}
