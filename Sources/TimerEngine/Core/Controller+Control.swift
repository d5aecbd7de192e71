import TimerCore

extension Controller {
    /// Silences `ringing` and rings again after `length`: a countdown in state `snoozed`.
    package mutating func snooze(_ ringing: Ringing, for length: Duration, at now: Instant) {
        stopAlarm()
        var countdown = Countdown<Instant>(total: length)
        countdown.start(at: now)
        let run = Run(kind: ringing.run.kind, label: ringing.run.label, countdown: countdown)
        var counting = Counting(run: run, startedAt: now, pickedEntry: nil)
        counting.snoozed = true
        mode = .counting(counting)
        emit(event(.snoozed, run, at: now, extra: [("for_s", .integer(length.components.seconds))]))
    }

    /// `--ring-for` ran out: the alarm stops and the timer ends as missed (exit 2).
    package mutating func miss(_ ringing: Ringing, at now: Instant) {
        // Missed unheard: said (`silent`) and exit 69, as an unheard acknowledgement (issue 37).
        var extra: [(String, TimerEvent.Value)] = []
        _ = markUnheard(ringing, at: now, into: &extra)
        logAcknowledgement(event(.missed, ringing.run, at: now, extra: extra), unproven: false)
        if pomodoro != nil {
            outcome = .missed
            nextInterval(skipped: false, at: now)
        } else {
            leaveOrRepeat(.missed, at: now)
        }
    }

    /// The `--on-done` command ended: logged; a failure is reported, never fatal.
    package mutating func handleDoneCommandEnd(status: Int32?, signal: Int32?, at now: Instant) {
        var extra: [(String, TimerEvent.Value)] = []
        if let status { extra.append(("status", .integer(Int64(status)))) }
        if let signal { extra.append(("signal", .integer(Int64(signal)))) }
        emit(event(.doneCommand, recentRun, at: now, extra: extra))
    }
}
