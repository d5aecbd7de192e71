import TimerCore

/// Something that happened to a timer, for the `--json` stream and the plain-line log.
///
/// Every event carries the timer's label, its total and the time left when it happened, and the
/// instant it happened on the app's monotonic clock.
struct TimerEvent: Equatable, Sendable {
    /// The kinds of event, named as in the JSON stream.
    enum Name: String, Sendable {
        case started, paused, resumed, reset, adjusted, interval, finished, sounding, acknowledged, cancelled
        case snoozed, missed
        /// The `--on-done` command ended (`status` or `signal`).
        case doneCommand = "on_done"
        case deviceUnavailable = "device_unavailable"
        case deviceRecovered = "device_recovered"
        /// An alarm at a time moved because the wall clock was set (`step_ms`).
        case rescheduled
        /// The wall clock became synchronised or unsynchronised (`clock`), while an alarm at a time runs.
        case clock
    }

    /// A value of an extra field.
    enum Value: Equatable, Sendable {
        case text(String)
        case integer(Int64)
        case instant(ContinuousClock.Instant)
    }

    var name: Name
    /// `Soft`, `1:30`, or the pomodoro phase (`work`, `short break`, `long break`).
    var label: String
    /// The timer's total length.
    var total: Duration
    /// Time left when the event happened.
    var remaining: Duration
    /// When it happened.
    var at: ContinuousClock.Instant
    /// More fields, in order (for example `by` on `acknowledged`).
    var extra: [Field] = []

    /// An extra field: its JSON key and value.
    struct Field: Equatable, Sendable {
        var key: String
        var value: Value
    }
}
