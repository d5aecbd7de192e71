/// Which sentence a ringing speaks first with `--announce` (issue 28): the timer's own ("Pasta is
/// ready"), or a pomodoro's at the end of an interval ("Break time", "Back to work").
///
/// Chosen by the controller when it starts the alarm (``Effect/startAlarm(at:loops:line:)``), from
/// the interval that ends; the words are the phrase book's (``SpokenLine`` holds one line per case).
package enum RingLine: Hashable, Sendable {
    /// The timer's own line: its ring sentence, or `--say`'s text.
    case ready
    /// A pomodoro's work interval ended: a break starts, the long one when `long`.
    case breakTime(long: Bool)
    /// A pomodoro's break ended: work starts again.
    case backToWork
}
