import ControlChannel
import TimerCore

extension Controller {
    /// Answers a control request from another shell: status, acknowledge, cancel or snooze.
    ///
    /// The state changes at once, as for the matching key, and the reply says the new state; a
    /// request that does not fit the state (acknowledging a timer that is not ringing) is refused
    /// with one line naming the timer and its state.
    mutating func handleControl(_ request: ControlRequest, connection: Int, at now: Instant) {
        guard accepts(request) else {
            perform(.reply(connection: connection, .refused(refusal(for: request))))
            return
        }
        // The answer goes out before anything the request sets off, an exit included; the loop
        // reads the state for it after this input, when the change is made.
        perform(.reply(connection: connection, .status))
        act(on: request, by: "control", at: now)
    }

    /// Carries out an accepted request from `source` (`control`, `mqtt`): the change is made at
    /// once, as for the matching key.
    mutating func act(on request: ControlRequest, by source: String, at now: Instant) {
        switch (request, mode) {
        case (.acknowledge, .ringing(let ringing)):
            acknowledge(ringing, by: source, at: now)
        case (.acknowledge, .counting(let counting)) where counting.snoozed:
            // Dismissing a snoozed alarm: it was heard when it rang; it need not ring again.
            logAcknowledgement(
                event(.acknowledged, counting.run, at: now, extra: [("by", .text(source))]), unproven: false)
            leaveOrRepeat(.done, at: now)
        case (.snooze(let length), .ringing(let ringing)):
            snooze(ringing, for: length ?? configuration.snoozeLength, at: now)
        case (.cancel, .counting(var counting)):
            if counting.armed { stopAlarm() }
            counting.armed = false
            emit(event(.cancelled, counting.run, at: now, extra: [("by", .text(source))]))
            leave(.cancelled)
        case (.cancel, .ringing(let ringing)):
            logAcknowledgement(
                event(.cancelled, ringing.run, at: now, extra: [("by", .text(source))]), unproven: false)
            leave(.cancelled)
        default:
            break
        }
    }

    /// Whether `request` fits the current state: status always; acknowledge while ringing or
    /// snoozed; snooze while ringing; cancel while counting or ringing.
    func accepts(_ request: ControlRequest) -> Bool {
        switch (request, mode) {
        case (.status, _), (.acknowledge, .ringing), (.snooze, .ringing), (.cancel, .counting), (.cancel, .ringing):
            true
        case (.acknowledge, .counting(let counting)): counting.snoozed
        default: false
        }
    }

    /// Why `request` does not fit the current state, naming the timer and its state.
    func refusal(for request: ControlRequest) -> String {
        let name = currentRun?.label ?? "eggtimer"
        let state = state?.rawValue ?? "in the menu"
        switch request {
        case .acknowledge, .snooze: return "\(name) is \(state), not ringing"
        case .cancel: return "\(name) is \(state): nothing to cancel"
        case .status: return "\(name) is \(state)"
        }
    }

    /// Silences `ringing` and rings again after `length`: a countdown in state `snoozed`.
    mutating func snooze(_ ringing: Ringing, for length: Duration, at now: Instant) {
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
    mutating func miss(_ ringing: Ringing, at now: Instant) {
        logAcknowledgement(event(.missed, ringing.run, at: now), unproven: false)
        if pomodoro != nil {
            outcome = .missed
            nextInterval(skipped: false, at: now)
        } else {
            leaveOrRepeat(.missed, at: now)
        }
    }

    /// The `--on-done` command ended: logged; a failure is reported, never fatal.
    mutating func handleDoneCommandEnd(status: Int32?, signal: Int32?, at now: Instant) {
        var extra: [(String, TimerEvent.Value)] = []
        if let status { extra.append(("status", .integer(Int64(status)))) }
        if let signal { extra.append(("signal", .integer(Int64(signal)))) }
        emit(event(.doneCommand, recentRun, at: now, extra: extra))
    }
}
