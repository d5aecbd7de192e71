import TimerModel
import TimerText

@testable import TerminalUI
@testable import TimerEngine

/// The view over a controller as the session draws it: the controller's snapshot and screen
/// extras at `now`, then the pure view of them. Lets the view tests drive a real controller.
extension View {
    /// The wall clock the tests' snapshots read (any fixed reading: the view shows no wall time).
    static let testWall = WallInstant(unixSeconds: 1_796_032_800)

    func lines(_ controller: Controller, at now: ContinuousClock.Instant, columns: Int, rows: Int) -> [String] {
        lines(
            controller.snapshot(at: now, wall: Self.testWall), controller.screen(at: now), at: now, columns: columns,
            rows: rows)
    }

    func legend(_ controller: Controller, at now: ContinuousClock.Instant, columns: Int = .max) -> String {
        legend(controller.snapshot(at: now, wall: Self.testWall), controller.screen(at: now), columns: columns)
    }

    func title(_ controller: Controller, _ run: Run, at now: ContinuousClock.Instant) -> String {
        title(controller.snapshot(at: now, wall: Self.testWall), controller.screen(at: now), at: now)
    }

    func nextChange(_ controller: Controller, at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        nextChange(controller.snapshot(at: now, wall: Self.testWall), controller.screen(at: now), at: now)
    }

    func spinner(_ run: Run, at now: ContinuousClock.Instant) -> String { spinner(run.countdown.remaining(at: now)) }

    func flashingEntry(_ controller: Controller, at now: ContinuousClock.Instant) -> (entry: Int, on: Bool)? {
        flashingEntry(controller.screen(at: now), at: now)
    }
}

/// `line` with its SGR escape codes stripped: what a person sees.
func visible(_ line: String) -> String {
    var out = ""
    var inEscape = false
    for c in line {
        if c == "\u{1B}" {
            inEscape = true
        } else if inEscape {
            if c.isLetter { inEscape = false }
        } else {
            out.append(c)
        }
    }
    return out
}
