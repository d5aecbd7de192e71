package import TimerText

/// What a keypad press asks the kitchen to do: ``KeyMap``'s answer to a press.
///
/// A plain value; any thread.
package enum KeyAction: Sendable, Hashable {
    /// Start a timer (an egg for 1 to 3, the config's `key-4` … `key-9`).
    case start(StartRequest)
    /// Acknowledge every timer that rings (a press while something rings).
    case acknowledgeAllRinging
    /// Snooze every timer that rings (a key held a second while something rings).
    case snoozeAllRinging
    /// Add this much (plus or minus a minute) to the newest timer.
    case addToNewest(Duration)
    /// The newest timer is cancelled at the deadline unless the cancel key is pressed again.
    case cancelPending(deadline: ContinuousClock.Instant)
    /// The cancel key pressed again in time: the pending cancel is withdrawn.
    case cancelWithdrawn
    /// The pending cancel's deadline passed: cancel the newest timer now.
    case cancelNewest
    /// Say what runs (by voice once the kitchen speaks; until then a log line).
    case report
    /// Make a web pairing code and speak it (`.` or Enter held a second).
    case pairingCode
    /// Play the alarm once on the kitchen's device: a speaker test.
    case testSound
    /// Nothing: a key that would start, cancel or change a timer, pressed within the key guard
    /// (``KeyGuard``) after a key stopped an alarm; said in the log, never spoken.
    case ignoredAfterAlarm
}
