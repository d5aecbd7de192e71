package import AlarmAudio
import TimerCore
package import TimerEngine

/// Shorthands for driving the controller in tests, one input kind at a time.
extension Controller {
    /// A controller already started at `now`; the start's effects are dropped (tests that check
    /// them call ``Controller/start(at:)`` themselves).
    package init(configuration: Configuration, start: Start, at now: ContinuousClock.Instant) {
        self.init(configuration: configuration, start: start)
        _ = self.start(at: now)
    }

    package mutating func handle(key: Key, at now: ContinuousClock.Instant) -> [Effect] { handle(.key(key), at: now) }
    package mutating func tick(at now: ContinuousClock.Instant) -> [Effect] { handle(.tick, at: now) }
    package mutating func handle(audio event: AlarmPlayer.Event, at now: ContinuousClock.Instant) -> [Effect] {
        handle(.audio(event), at: now)
    }
}

extension Controller.Start {
    /// A plain countdown labelled with its clock text, as `eggtimer 1:30` would be.
    package static func plain(_ duration: Duration) -> Controller.Start {
        .timer(.plain, duration, label: duration.clockText)
    }
}

/// The effects as short names for comparisons: an event's name, `exit N`, `start alarm`.
package func names(_ effects: [Effect]) -> [String] {
    effects.map {
        switch $0 {
        case .emit(let event): event.name.rawValue
        case .startAlarm: "startAlarm"
        case .stopAlarm: "stopAlarm"
        case .bell: "bell"
        case .resize: "resize"
        case .suspend: "suspend"
        case .retakeTerminal: "retakeTerminal"
        case .detach: "detach"
        case .exit(let status): "exit \(status.code)"
        case .reply(_, .status): "reply"
        case .reply(_, .refused(let reason)): "refused: \(reason)"
        case .runDoneCommand: "runDoneCommand"
        case .publishState: "publishState"
        case .log(let text): "log: \(text)"
        }
    }
}

/// The player's report that it dropped the device at `at`.
package func stopped(at instant: ContinuousClock.Instant) -> AlarmPlayer.Event { .stopped(.init(stoppedAt: instant)) }
