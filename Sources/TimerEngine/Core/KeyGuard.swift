/// The key guard (`key-guard` in the config file): how long after a key stopped an alarm the keys
/// that would start, cancel or change a timer are ignored, so that the presses meant to stop it
/// (a second press, a press of both hands, a key hammered) never do anything else.
///
/// One rule for the terminal's egg menu (``Controller/Configuration/keyGuard``) and the kitchen's
/// keypad (its key map, on the events' own time stamps). A key that stops an alarm is never
/// guarded against. A press ignored within the guard makes it last from that press on.
package enum KeyGuard {
    /// The default: 1 s.
    ///
    /// Twice Windows' default double-click time (500 ms, `SetDoubleClickTime`): a second press
    /// of a double press, and one pressed again because the alarm took a moment to fall silent,
    /// both fall within it; a deliberate next press after a breath does not.
    package static let standard = Duration.seconds(1)
    /// The longest guard the config file may set: 5 s (the longest double-click time Windows
    /// allows); longer, a keypad would seem dead after each alarm.
    package static let longest = Duration.seconds(5)

    /// The guard's window on some clock: the one rule, for the keypad's event time stamps and the
    /// menu's boot clock.
    ///
    /// A stop covers a span; a press within it is ignored and its own span joins it, so the guard
    /// lasts from that press on; a zero guard never covers anything. A plain value.
    package struct Window<Time: Comparable & Sendable>: Equatable, Sendable {
        /// What it covers now; nil before the first stop.
        package private(set) var span: Range<Time>?

        /// An empty window.
        package init() {}

        /// Whether `time` lies within the guard.
        package func contains(_ time: Time) -> Bool { span?.contains(time) ?? false }

        /// Covers `around` too: joined to the span when `press` fell within it, else instead of it;
        /// nothing for an empty range (a zero guard).
        /// - Parameters:
        ///   - around: The guard around the stop or the ignored press.
        ///   - press: When that press happened.
        package mutating func cover(_ around: Range<Time>, pressedAt press: Time) {
            guard !around.isEmpty else { return }
            if let span, span.contains(press) {
                self.span = min(span.lowerBound, around.lowerBound)..<max(span.upperBound, around.upperBound)
            } else {
                span = around
            }
        }
    }

    /// `duration` as the config file writes it: whole seconds as `1s`, else whole milliseconds
    /// as `800ms` (a finer part is dropped).
    /// - Parameter duration: A guard or a debounce, not negative.
    /// - Returns: The text.
    package static func text(_ duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        let whole = Int64(milliseconds.rounded(.down))
        return whole % 1000 == 0 ? "\(whole / 1000)s" : "\(whole)ms"
    }
}
