import Glibc
import TestSupport
import Testing
import TimerModel

@testable import TimerEngine
@testable import eggtimer

/// The plain log's "N:00 left" lines as a function of the round's snapshot (issue 22): its state
/// and boot deadline, at injected instants.
@Suite struct MinuteLineTests {
    private static let t0 = ContinuousClock.now

    /// A snapshot of a 5-minute timer `5m` in `state` with its deadline at `t0 + 300 s`.
    private static func timer(_ state: TimerState, deadline: Bool = true) -> TimerSnapshot {
        TimerSnapshot(
            state: state, label: "menu-7", kind: .plain, total: .seconds(300), remaining: .seconds(300),
            deadline: deadline ? t0 + .seconds(300) : nil, deadlineUnixMilliseconds: nil, pid: 7, runLabel: "5m")
    }

    /// What the minute lines say after `rounds` (seconds after `t0`, each with its snapshot).
    private func written(_ rounds: [(TimerSnapshot, Int64)]) throws -> [String] {
        let pipe = makePipe()
        defer { close(pipe.read) }
        let clock = MonotonicClock()
        let boot = clock.nanoseconds(Self.t0)
        let wall = WallClock(
            offset: { 1_796_029_923_000_000_000 - boot },  // t0 is 2026-11-30T09:12:03Z
            local: { seconds in
                var seconds = seconds
                var parts = tm()
                gmtime_r(&seconds, &parts)
                return parts
            })
        var output = EventOutput(log: .plain, clock: clock, descriptor: pipe.write, wallClock: wall)
        for (timer, second) in rounds { output.writeMinuteLine(timer, at: Self.t0 + .seconds(second)) }
        close(pipe.write)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipe.read, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aLineComesWhenAWholeMinuteIsLeftWhileCounting() throws {
        let counting = Self.timer(.counting)
        #expect(
            try written([(counting, 0), (counting, 59), (counting, 60), (counting, 61), (counting, 120)]) == [
                "09:13:03 5m timer: 4:00 left", "09:14:03 5m timer: 3:00 left",
            ])
    }

    @Test(arguments: [TimerState.paused, .ringing, .silent, .menu, .done])
    func noLineComesUnlessItCountsTowardsItsDeadline(state: TimerState) throws {
        let timer = Self.timer(state, deadline: state != .paused)
        #expect(try written([(timer, 0), (timer, 60), (timer, 120)]).isEmpty)
    }

    @Test func aSnoozedTimerCountsItsMinutesToo() throws {
        let snoozed = Self.timer(.snoozed)
        let lines = try written([(snoozed, 30), (snoozed, 60)])
        #expect(lines == ["09:13:03 5m timer: 4:00 left"], "\(lines)")
    }

    @Test func theNextLineIsDueAWholeMinuteBeforeTheDeadline() {
        let output = EventOutput(log: .plain, clock: MonotonicClock(), descriptor: -1)
        #expect(output.nextMinuteLine(Self.timer(.counting), at: Self.t0 + .seconds(10)) == Self.t0 + .seconds(60))
        #expect(output.nextMinuteLine(Self.timer(.paused, deadline: false), at: Self.t0) == nil)
    }
}
