import AlarmAudio

@testable import eggtimer

/// Shorthands for driving the controller in tests, one input kind at a time.
extension Controller {
    /// A controller already started at `now`; the start's effects are dropped (tests that check
    /// them call ``Controller/start(at:)`` themselves).
    init(configuration: Configuration, start: Start, at now: ContinuousClock.Instant) {
        self.init(configuration: configuration, start: start)
        _ = self.start(at: now)
    }

    mutating func handle(key: Key, at now: ContinuousClock.Instant) -> [Effect] { handle(.key(key), at: now) }
    mutating func tick(at now: ContinuousClock.Instant) -> [Effect] { handle(.tick, at: now) }
    mutating func handle(audio event: AlarmPlayer.Event, at now: ContinuousClock.Instant) -> [Effect] {
        handle(.audio(event), at: now)
    }
}

extension Controller.Start {
    /// A plain countdown labelled with its clock text, as `eggtimer 1:30` would be.
    static func plain(_ duration: Duration) -> Controller.Start { .timer(.plain, duration, label: duration.clockText) }
}
