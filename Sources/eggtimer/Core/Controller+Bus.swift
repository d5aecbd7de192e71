import ControlChannel
import HouseBus
import TimerCore

extension Controller {
    /// Carries out a command from the MQTT broker (this timer's command topic).
    ///
    /// `ack`, `cancel` and `snooze` act as the control socket's requests do (logged `by: mqtt`);
    /// `pause`, `resume` and `add N` as the space, `+` and `-` keys do, with any number of seconds.
    /// A command that does not fit the state is ignored: `ack`, `cancel` and `snooze` with one
    /// ``Effect/log(_:)`` line naming the timer and its state (as a refused local request),
    /// `resume` while running silently (the state topic shows why). There is no one to answer. `pause`, `resume` and
    /// `add` do not apply to an alarm at a time (its deadline is a wall-clock time): refused with
    /// one ``Effect/log(_:)`` line.
    mutating func handleBus(_ command: BusCommand, at now: Instant) {
        if schedule != nil, command != .ack, command != .cancel, command != .snooze {
            perform(.log("MQTT: \(Self.alarmRefusal)"))
            return
        }
        switch command {
        case .ack: actIfAccepted(.acknowledge)
        case .cancel: actIfAccepted(.cancel)
        case .snooze: actIfAccepted(.snooze(nil))
        case .pause, .resume:
            guard case .counting(let counting) = mode, counting.previousAlarm == nil, !counting.snoozed,
                counting.run.countdown.isPaused == (command == .resume)
            else { return }
            handleCounting(key: .character(" "), counting, at: now)
        case .add(let seconds):
            adjust(by: .seconds(seconds), at: now)
        }

        func actIfAccepted(_ request: ControlRequest) {
            guard accepts(request) else {
                // Said, as a refused local request is (nobody waits for an answer here).
                perform(.log("MQTT: ignored '\(command)': \(refusal(for: request))"))
                return
            }
            act(on: request, by: "mqtt", at: now)
        }
    }

    /// Why `pause`, `resume` and `add` over MQTT do nothing to an alarm at a time.
    static let alarmRefusal = "pause/add do not apply to an alarm at a time; snooze or cancel it"

    /// Moves the running or paused countdown's deadline by `delta` (`add 90`, `add -60`), as `+`
    /// and `-` do by a minute: the time left stays above zero and at most the longest duration.
    private mutating func adjust(by delta: Duration, at now: Instant) {
        guard delta != .zero, case .counting(var counting) = mode, counting.previousAlarm == nil, !counting.snoozed,
            canAdjust(by: delta, at: now), counting.run.countdown.adjust(by: delta, at: now)
        else { return }
        disarm(&counting)
        mode = .counting(counting)
        emit(event(.adjusted, counting.run, at: now, extra: [("by_s", .integer(delta.components.seconds))]))
    }
}
