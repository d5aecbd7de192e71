import TimerCore
package import TimerModel

/// Something that happened to a timer, for the `--json` stream and the plain-line log.
///
/// Every event carries the timer's label, its total and the time left when it happened, and the
/// instant it happened on the app's monotonic clock.
package struct TimerEvent: Equatable, Sendable {
    /// The kinds of event, named as in the JSON stream.
    package enum Name: String, Sendable {
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
    package enum Value: Equatable, Sendable {
        case text(String)
        case integer(Int64)
        case instant(ContinuousClock.Instant)
    }

    package var name: Name
    /// `Soft`, `1:30`, or the pomodoro phase (`work`, `short break`, `long break`).
    package var label: String
    /// The timer's total length.
    package var total: Duration
    /// Time left when the event happened.
    package var remaining: Duration
    /// When it happened.
    package var at: ContinuousClock.Instant
    /// More fields, in order (for example `by` on `acknowledged`).
    package var extra: [Field] = []

    /// An extra field: its JSON key and value.
    package struct Field: Equatable, Sendable {
        package var key: String
        package var value: Value
    }
}

extension TimerEvent {
    /// An event named `name` at `at` about the timer in `snapshot`: the fields it shares with the
    /// snapshot come from it (issue 22), `extra` are the event's own (`by`, `reason`, …).
    ///
    /// The label is the run's own (``TimerSnapshot/runLabel``, empty without a run), `total` and
    /// `remaining` the snapshot's; a pomodoro's `phase`, then an alarm's `at` (its occurrence as
    /// local ISO 8601) lead the extra fields, in that order.
    package init(_ name: Name, _ snapshot: TimerSnapshot, at: ContinuousClock.Instant, extra: [Field] = []) {
        var fields = extra
        if let schedule = snapshot.schedule { fields.insert(.init(key: "at", value: .text(schedule.at)), at: 0) }
        if case .pomodoro(let phase)? = snapshot.kind { fields.insert(.init(key: "phase", value: .text(phase)), at: 0) }
        self.init(
            name: name, label: snapshot.runLabel ?? "", total: snapshot.total, remaining: snapshot.remaining, at: at,
            extra: fields)
    }
}
