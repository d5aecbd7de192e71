import ControlChannel
import Glibc
import TerminalUI
import TextCoding
import TimerCore
import TimerEngine
import TimerText

/// What `eggtimer status` prints: a table for people, or a JSON array with `--json`.
///
/// Pure functions of the timers' statuses and a local-time conversion; any thread may call them.
enum StatusReport {
    /// The line printed when no timer runs (also `status` with no timers).
    static let noneRunning = "no timers running"

    /// The table for people: a header and one row per timer, or ``noneRunning``; then the kept
    /// records, if any, under a line saying the two ways out.
    ///
    /// Columns LABEL, PID, STATE, REMAINING, RINGS AT, aligned by display width and two spaces
    /// apart, then a warning line for an unsynchronised clock and one per timer whose alarm reaches
    /// no device (`warning: Soft: silent: REASON`).
    /// Text from the timers is escaped (it cannot move the cursor). RINGS AT names the day
    /// when it is not today (``LocalTime/dayAndClockText(unixMilliseconds:now:)``). Kept records
    /// have LABEL, ENDED (how), STATE (as recorded) and LEFT (the time left, or how overdue).
    /// - Parameters:
    ///
    /// Timers whose socket took the connection but did not answer (stopped with SIGSTOP or
    /// Ctrl-Z, hung) run: they are counted under the table (or instead of ``noneRunning``), one
    /// line each: `1 timer running, not answering:` then `  jc: stopped (SIGSTOP or Ctrl-Z), …`.
    /// - Parameters:
    ///   - timers: The timers, in the order to print.
    ///   - unanswered: One clause per running timer that did not answer, in order.
    ///   - kept: The records no running timer owns (``KeptRecord``).
    ///   - time: Local wall-clock time for the deadlines.
    ///   - now: The wall clock now, milliseconds since the Unix epoch: which day is today.
    /// - Returns: The lines, each ending in a newline.
    static func table(
        _ timers: [TimerStatus], unanswered: [String] = [], kept: [KeptRecord] = [], time: LocalTime, now: Int64
    ) -> String {
        var text = unanswered.isEmpty ? noneRunning + "\n" : ""
        if !timers.isEmpty {
            let header = ["LABEL", "PID", "STATE", "REMAINING", "RINGS AT"]
            let rows = timers.map { timer in
                [
                    timer.label.escapingControlCharacters, "\(timer.pid)",
                    timer.state.rawValue + (timer.detached ? " (detached)" : ""),
                    timer.remaining.clockText,
                    (timer.deadlineUnixMilliseconds.map { time.dayAndClockText(unixMilliseconds: $0, now: now) } ?? "-")
                        + (timer.every.map { " (every \($0.escapingControlCharacters))" } ?? ""),
                ]
            }
            let warning =
                timers.contains(where: \.clockUnsynchronised) ? "warning: \(ClockSync.warning)\n" : ""
            let silent = timers.filter(\.deviceDown).map {
                "warning: \($0.label.escapingControlCharacters): silent: \(silentReason($0).escapingControlCharacters)\n"
            }
            text =
                aligned([header] + rows, rightAligned: [false, true, false, true, false]) + warning + silent.joined()
        }
        if !unanswered.isEmpty {
            let count = unanswered.count == 1 ? "1 timer" : "\(unanswered.count) timers"
            text +=
                (timers.isEmpty ? count : count + " more") + " running, not answering:\n"
                + unanswered.map { "  " + $0.escapingControlCharacters + "\n" }.joined()
        }
        guard !kept.isEmpty else { return text }
        let header = ["LABEL", "ENDED", "STATE", "LEFT"]
        let rows = kept.map { record in
            [
                record.label.escapingControlCharacters, record.ending.text, record.state,
                record.overdue.map { "overdue by " + ResumePlan.text($0) } ?? record.remaining.clockText,
            ]
        }
        let count = kept.count == 1 ? "1 timer" : "\(kept.count) timers"
        return text + "\(count) not running, kept for `eggtimer recover`"
            + " (`eggtimer cancel LABEL` forgets one):\n"
            + aligned([header] + rows, rightAligned: [false, false, false, false])
    }

    /// Why `timer`'s alarm reaches no device (its `silent` field; a general line from an older
    /// timer).
    static func silentReason(_ timer: TimerStatus) -> String {
        timer.silentReason ?? "its alarm reaches no device"
    }

    /// `rows` as lines, each column as wide as its widest cell (display width), two spaces apart.
    private static func aligned(_ rows: [[String]], rightAligned: [Bool]) -> String {
        let widths = rightAligned.indices.map { column in rows.map { $0[column].displayWidth }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { column in
                let cell = row[column]
                let pad = String(repeating: " ", count: widths[column] - cell.displayWidth)
                if rightAligned[column] { return pad + cell }
                return column == row.count - 1 ? cell : cell + pad
            }.joined(separator: "  ") + "\n"
        }.joined()
    }

    /// A JSON array of one object per timer, on one line.
    ///
    /// `[{"label":"soft","pid":42,"state":"counting","remaining_s":299.5,`
    /// `"deadline":"2026-11-30T09:12:03+01:00"}]`: `remaining_s` is decimal seconds (exact to the
    /// nanosecond), `deadline` local ISO 8601 with the UTC offset, or null while paused; then,
    /// when they apply, `at`, `every`, `clock`, `detached` and `silent` (why the alarm reaches no
    /// device: `cannot open audio device 'X': REASON`).
    ///
    /// Kept records (``KeptRecord``) follow, with `"state":"kept"`, `"ended"` (`SIGTERM`, `gone`,
    /// `reboot`), `"recorded_state"`, the recorded `pid`, `remaining_s`, `overdue_s` when the
    /// deadline passed, and `deadline`.
    /// - Parameters:
    ///   - timers: The timers, in the order to print.
    ///   - kept: The records no running timer owns.
    ///   - time: Local wall-clock time for the deadlines.
    /// - Returns: The array and a newline.
    static func json(_ timers: [TimerStatus], kept: [KeptRecord] = [], time: LocalTime) -> String {
        let log = EventLog(clock: MonotonicClock())  // for its seconds
        var json = JSONText()
        json.array { json in
            for timer in timers {
                json.object { json in
                    json.member("label", timer.label)
                    json.member("pid", timer.pid)
                    json.member("state", timer.state.rawValue)
                    json.member("remaining_s", decimal: log.seconds(timer.remaining))
                    json.member(
                        "deadline", orNull: timer.deadlineUnixMilliseconds.map { time.isoText(unixMilliseconds: $0) })
                    if let at = timer.at { json.member("at", at) }
                    if let every = timer.every { json.member("every", every) }
                    if timer.clockUnsynchronised { json.member("clock", "unsynchronised") }
                    if timer.detached { json.member("detached", true) }
                    if timer.deviceDown { json.member("silent", silentReason(timer)) }
                }
            }
            for record in kept {
                json.object { json in
                    json.member("label", record.label)
                    json.member("pid", record.pid)
                    json.member("state", "kept")
                    json.member("ended", record.ending.word)
                    json.member("recorded_state", record.state)
                    json.member("remaining_s", decimal: log.seconds(record.remaining))
                    json.member(
                        "deadline", orNull: record.deadlineUnixMilliseconds.map { time.isoText(unixMilliseconds: $0) })
                    if let overdue = record.overdue { json.member("overdue_s", decimal: log.seconds(overdue)) }
                }
            }
        }
        return json.text + "\n"
    }
}
