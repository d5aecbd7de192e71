import Glibc

@testable import AlarmAudio

/// Drives an ``AlarmPlayer`` the way an event loop does.
///
/// Waits in `poll` on the player's descriptor, then takes its events. Used on the test's own
/// thread, like the player.
final class PlayerDriver {
    let player: AlarmPlayer
    private let now: () -> ContinuousClock.Instant
    /// Every event taken so far, in order.
    private(set) var events: [AlarmPlayer.Event] = []
    /// The longest a single player call took (real time): the owning thread must never block.
    private(set) var longestCall: Duration = .zero

    /// - Parameters:
    ///   - player: The player to drive.
    ///   - now: The clock to pass to the player: the fake timer's `now` with a fake timer (so a
    ///     slow machine cannot make a call look hung), `ContinuousClock.now` with the real one.
    init(_ player: AlarmPlayer, now: @escaping () -> ContinuousClock.Instant) {
        self.player = player
        self.now = now
    }

    /// Starts a ringing, timing the call.
    func start(at startAt: ContinuousClock.Instant, loops: Int?) {
        timed { player.start(at: startAt, loops: loops, now: now()) }
    }

    /// Asks for a stop, timing the call.
    func stop() {
        timed { player.stop(at: now()) }
    }

    /// Takes the waiting events once, without waiting.
    @discardableResult
    func poll() -> [AlarmPlayer.Event] {
        let new = timed { player.events(at: now()) }
        events += new
        return new
    }

    /// Waits in `poll` on the descriptor and takes events until one matches `predicate`.
    /// - Returns: `false` after 30 s of real time (a hang, not a timing assumption).
    @discardableResult
    func wait(for predicate: (AlarmPlayer.Event) -> Bool) -> Bool {
        let giveUp = ContinuousClock.now + .seconds(30)
        while true {
            if poll().contains(where: predicate) { return true }
            let left = ContinuousClock.now.duration(to: giveUp)
            if left <= .zero { return false }
            var ready = pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&ready, 1, Int32(min(left / .milliseconds(1), 100)))
        }
    }

    /// Waits for the ringing's ending.
    /// - Returns: The ending; `nil` after 30 s.
    func waitForEnd() -> AlarmPlayer.Event? {
        wait(for: \.endsRinging) ? events.last : nil
    }

    /// Waits for the ringing's ending and returns its report.
    /// - Returns: The report of `.finished` or `.stopped`; `nil` for `.hung` or after 30 s.
    func waitForReport() -> AlarmPlayer.Report? {
        switch waitForEnd() {
        case .finished(let report)?, .stopped(let report)?: report
        default: nil
        }
    }

    /// Asks for a stop and waits for the report of `.stopped` (or `.finished`, had it ended already).
    func stopAndWait() -> AlarmPlayer.Report? {
        stop()
        return waitForReport()
    }

    /// The events taken so far, without the ending.
    var eventsBeforeEnd: [AlarmPlayer.Event] { events.filter { !$0.endsRinging } }

    private func timed<Result>(_ body: () -> Result) -> Result {
        let before = ContinuousClock.now
        let result = body()
        longestCall = max(longestCall, before.duration(to: .now))
        return result
    }
}

/// A test failure with a message, for `throw` where `#require` does not fit.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
