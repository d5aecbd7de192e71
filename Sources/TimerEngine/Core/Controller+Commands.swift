import Glibc
import TimerCore
package import TimerModel

// The controller's side of the command vocabulary: keys and signals parsed into `Command`, and
// one place that accepts or refuses a command from any front and carries it out.

extension Controller {
    /// What `key` asks of the timer in the current mode, if it is a ``Command``.
    ///
    /// Counting: space pauses or resumes (by the state), `+`/`-` add or take a minute, `c` and
    /// Escape cancel. Ringing: `z` snoozes (the default length), any other key acknowledges.
    /// The menu's keys, `r`, `n` and `q` are no command (nil): the mode handles them itself.
    /// - Parameter key: The key typed.
    /// - Returns: The command, or nil.
    package func command(forKey key: Key) -> Command? {
        switch mode {
        case .counting(let counting):
            switch key {
            case .character(" "): counting.run.countdown.isPaused ? .resume : .pause
            case .character("+"): .add(.seconds(60))
            case .character("-"): .add(.seconds(-60))
            case .character("c"), .escape: .cancel
            default: nil
            }
        case .ringing: key == .character("z") ? .snooze(nil) : .acknowledge
        case .menu, .exited: nil
        }
    }

    /// What signal `number` asks of the timer, if it is a ``Command``: SIGUSR1 acknowledges (stops
    /// the alarm without a keyboard); the others are the session's business (nil).
    package static func command(forSignal number: Int32) -> Command? { number == SIGUSR1 ? .acknowledge : nil }

    /// Carries out `command` from `origin`, or refuses it with one line.
    ///
    /// The state changes at once. A socket request (`connection`) is answered first, before
    /// anything the command sets off (an exit included): the timer's status (the loop reads it
    /// after this input, once the change is made) or the refusal. A refused MQTT command is said
    /// in one ``Effect/log(_:)`` line; a refused key or signal gets nothing.
    /// - Parameters:
    ///   - command: What was asked.
    ///   - origin: The front it came through; the log's `by` field.
    ///   - connection: The control connection to answer on, if any.
    ///   - now: The boot clock's reading.
    package mutating func handle(_ command: Command, from origin: Origin, connection: Int? = nil, at now: Instant) {
        if let reason = refusal(of: command, at: now) {
            // An ending timer still answers, under its last run's label (issue 41: `eggtimer is
            // cancelled` was said of a timer two shells acted on at once).
            var label = currentRun?.label
            if case .exited = mode { label = recentRun?.label }
            let line = command.refusal(reason, label: label ?? "eggtimer", state: state)
            if let connection { perform(.reply(connection: connection, .refused(line))) }
            if origin == .mqtt { perform(.log("MQTT: ignored '\(command.text)': \(line)")) }
            return
        }
        if let connection { perform(.reply(connection: connection, .status)) }
        carryOut(command, from: origin, at: now)
    }

    /// Why `command` does not fit the timer now; nil when it does.
    ///
    /// `status` always fits; `ack` a ringing or snoozed timer; `snooze` a ringing one; `cancel` a
    /// counting or ringing one. `pause` a running countdown, `resume` a paused one, `add` either
    /// (the time left stays above zero and at most the longest duration), but never an alarm at
    /// a time (unless snoozed) nor a recovered timer held until the clock is set.
    package func refusal(of command: Command, at now: Instant) -> Refusal? {
        switch (command, mode) {
        case (.status, _), (.acknowledge, .ringing), (.snooze, .ringing), (.cancel, .counting), (.cancel, .ringing):
            return nil
        case (.acknowledge, .counting(let counting)): return counting.snoozed ? nil : .state
        case (.pause, .counting(let counting)), (.resume, .counting(let counting)), (.add, .counting(let counting)):
            if schedule != nil, !counting.snoozed { return .alarmAtATime }
            if recovered?.held == true { return .clockNotSet }
            switch command {
            case .pause: return counting.run.countdown.isPaused ? .state : nil
            case .resume: return counting.run.countdown.isPaused ? nil : .state
            case .add(let delta): return delta != .zero && canAdjust(by: delta, at: now) ? nil : .outOfRange
            default: return nil
            }
        case (.pause, _), (.resume, _), (.add, _):
            // The alarm at a time's refusal is the same whatever it is doing.
            return schedule != nil ? .alarmAtATime : .state
        default: return .state
        }
    }

    /// Carries out an accepted `command` (``refusal(of:at:)`` is nil), logged `by: origin`.
    ///
    /// `status` from MQTT republishes the state at once (``Effect/publishState``); from the socket
    /// its reply is the answer.
    private mutating func carryOut(_ command: Command, from origin: Origin, at now: Instant) {
        let source = origin.rawValue
        switch (command, mode) {
        case (.status, _):
            if origin == .mqtt { perform(.publishState) }
        case (.acknowledge, .ringing(let ringing)):
            acknowledge(ringing, by: source, at: now)
        case (.acknowledge, .counting(let counting)):
            // Dismissing a snoozed alarm: it was heard when it rang; it need not ring again.
            logAcknowledgement(
                event(.acknowledged, counting.run, at: now, extra: [("by", .text(source))]), unproven: false)
            leaveOrRepeat(.done, at: now)
        case (.snooze(let length), .ringing(let ringing)):
            snooze(ringing, for: length ?? configuration.snoozeLength, at: now)
        case (.cancel, .counting(var counting)):
            disarm(&counting)
            emit(event(.cancelled, counting.run, at: now, extra: [("by", .text(source))]))
            leave(.cancelled, at: now)
        case (.cancel, .ringing(let ringing)):
            logAcknowledgement(
                event(.cancelled, ringing.run, at: now, extra: [("by", .text(source))]), unproven: false)
            leave(.cancelled, at: now)
        case (.pause, .counting(var counting)), (.resume, .counting(var counting)):
            // The user's change makes a recovered countdown one of real time again, off the wall clock.
            recovered = nil
            let paused = counting.run.countdown.isPaused
            if paused { counting.run.countdown.resume(at: now) } else { counting.run.countdown.pause(at: now) }
            if !paused { disarm(&counting) }
            mode = .counting(counting)
            emit(event(paused ? .resumed : .paused, counting.run, at: now))
        case (.add(let delta), .counting(var counting)):
            recovered = nil
            guard counting.run.countdown.adjust(by: delta, at: now) else { return }
            disarm(&counting)
            mode = .counting(counting)
            emit(event(.adjusted, counting.run, at: now, extra: [("by_s", .integer(delta.components.seconds))]))
        default:
            break
        }
    }
}
