import SystemKit
import TerminalUI
import TimerCore
import TimerEngine
import TimerModel

/// Writes what happens to standard output: one JSON object per event (`--json`), or plain lines
/// (events, and one line whenever a whole minute is left) when no UI is there.
///
/// Not thread-safe: owned by the event loop.
struct EventOutput {
    /// Changes when the job moves between the foreground and the background (the UI comes and goes).
    var log: OutputRouting.Log
    private let format: EventLog
    private var stdout: Output
    /// Whole minutes left at the last check, rounded up; -1 when not counting.
    private var lastMinute: Int64 = -1

    /// Creates the writer.
    /// - Parameters:
    ///   - log: What standard output carries.
    ///   - clock: Maps instants to CLOCK_BOOTTIME nanoseconds for `t_mono_ns`.
    ///   - descriptor: Standard output (a test may pass another).
    ///   - wallClock: Maps instants to wall-clock time for `time` and the plain lines' times.
    init(log: OutputRouting.Log, clock: MonotonicClock, descriptor: Int32, wallClock: WallClock = .system) {
        self.log = log
        self.format = EventLog(clock: clock, wallClock: wallClock)
        self.stdout = Output(descriptor: descriptor)
    }

    /// The errno of the first failed write to standard output, if one failed.
    var failed: Int32? { stdout.failed }

    /// Writes `event` as the log format says.
    mutating func write(_ event: TimerEvent) {
        switch log {
        case .json: stdout.write(format.json(event) + "\n")
        case .plain: if let line = format.plain(event) { stdout.write(line + "\n") }
        case .none: break
        }
    }

    /// The deadline of `timer` while it counts towards it (`counting`, or `snoozed` until it rings
    /// again); nil otherwise (paused, ringing, in the menu, over).
    private static func countingDeadline(_ timer: TimerSnapshot) -> ContinuousClock.Instant? {
        timer.state == .counting || timer.state == .snoozed ? timer.deadline : nil
    }

    /// Writes the plain "N:00 left" line when the whole minutes left changed since the last call.
    /// - Parameters:
    ///   - timer: The round's snapshot (its boot deadline gives the time left at `now`).
    ///   - now: The boot clock now.
    mutating func writeMinuteLine(_ timer: TimerSnapshot, at now: ContinuousClock.Instant) {
        guard log == .plain, let deadline = Self.countingDeadline(timer) else {
            lastMinute = -1
            return
        }
        // Whole minutes left, rounded up: changes exactly when a whole minute is left.
        let left = max(.zero, now.duration(to: deadline))
        let minute = (left.roundedUpToWholeSeconds.components.seconds + 59) / 60
        if lastMinute >= 0, minute != lastMinute, left > .zero {
            let label = timer.runLabel ?? timer.label
            stdout.write(format.line("\(left.clockText) left", label: label, at: now) + "\n")
        }
        lastMinute = minute
    }

    /// When the next minute line is due (a whole minute before the deadline).
    /// - Parameters:
    ///   - timer: The round's snapshot.
    ///   - now: The boot clock now.
    /// - Returns: The instant; nil when no line is due (not counting, or no plain log).
    func nextMinuteLine(_ timer: TimerSnapshot, at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard log == .plain, let deadline = Self.countingDeadline(timer) else { return nil }
        return nextStep(before: deadline, every: .seconds(60), after: now)
    }
}
