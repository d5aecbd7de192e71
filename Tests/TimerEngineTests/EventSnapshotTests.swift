import Glibc
import Testing
import TimerCore
import TimerEngineTestSupport
import TimerModel

@testable import TimerEngine

private let t0 = ContinuousClock.now

/// The JSON log's events take the fields they share with the snapshot from it (issue 22): one
/// function, snapshot → the event's common fields; the event's own (name, `by`, …) stay its own.
@Suite struct EventSnapshotTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var snapshot: TimerSnapshot
        /// The JSON line's fields after `t_mono_ns` and `time`.
        var json: String
        /// What the JSON line says before `t_mono_ns`.
        var head: String
        var testDescription: String { name }
    }

    private static func snapshot(
        _ state: TimerState, kind: TimerSnapshot.Kind? = .plain, runLabel: String? = "1:30",
        total: Duration = .seconds(90), remaining: Duration = .seconds(60)
    ) -> TimerSnapshot {
        TimerSnapshot(
            state: state, label: "kitchen", kind: kind, total: total, remaining: remaining, deadline: nil,
            deadlineUnixMilliseconds: nil, pid: 7, runLabel: runLabel)
    }

    static let cases: [Case] = [
        Case(
            name: "a countdown: the run's label, not the process's", snapshot: snapshot(.paused),
            json: #""by":"key"}"#, head: #"{"event":"paused","label":"1:30","duration_s":90,"remaining_s":60,"#),
        Case(
            name: "a pomodoro: its phase leads the extras",
            snapshot: snapshot(.counting, kind: .pomodoro(phase: "short-break"), runLabel: "pomodoro"),
            json: #""phase":"short-break","by":"key"}"#,
            head: #"{"event":"paused","label":"pomodoro","duration_s":90,"remaining_s":60,"#),
        Case(
            name: "an alarm at a time: its occurrence leads the extras",
            snapshot: {
                var alarm = snapshot(.ringing, kind: .alarm, runLabel: "wake", total: .seconds(3600), remaining: .zero)
                alarm.schedule = .init(at: "2026-11-30T07:00:00+01:00", every: "weekday")
                return alarm
            }(),
            json: #""at":"2026-11-30T07:00:00+01:00","by":"key"}"#,
            head: #"{"event":"paused","label":"wake","duration_s":3600,"remaining_s":0,"#),
        Case(
            name: "no run: empty label, nothing long",
            snapshot: snapshot(.menu, kind: nil, runLabel: nil, total: .zero, remaining: .zero),
            json: #""by":"key"}"#, head: #"{"event":"paused","label":"","duration_s":0,"remaining_s":0,"#),
    ]

    @Test(arguments: cases)
    func anEventsCommonFieldsComeFromTheSnapshot(_ row: Case) {
        let event = TimerEvent(.paused, row.snapshot, at: t0, extra: [.init(key: "by", value: .text("key"))])
        #expect(event.label == (row.snapshot.runLabel ?? ""))
        #expect((event.total, event.remaining, event.at) == (row.snapshot.total, row.snapshot.remaining, t0))
        let clock = MonotonicClock()
        let boot = clock.nanoseconds(t0)
        let wall = WallClock(
            offset: { 1_796_029_923_456_000_000 - boot },
            local: { seconds in
                var copy = seconds
                var parts = tm()
                gmtime_r(&copy, &parts)
                return parts
            })
        let line = EventLog(clock: clock, wallClock: wall).json(event)
        #expect(line == row.head + #""t_mono_ns":\#(boot),"time":"2026-11-30T09:12:03.456Z","# + row.json)
    }

    @Test func theControllersEventsAreItsSnapshotsOfTheRun() {
        let plan = Pomodoro.Plan(work: .seconds(10), shortBreak: .seconds(5))
        var controller = Controller(configuration: .init(), start: .pomodoro(plan))
        _ = controller.start(at: t0)
        let run = controller.currentRun
        let event = controller.event(.paused, run, at: t0 + .seconds(3), extra: [("by", .text("key"))])
        #expect(event.label == "pomodoro")
        #expect(event.remaining == .seconds(7))
        #expect(event.extra == [.init(key: "phase", value: .text("work")), .init(key: "by", value: .text("key"))])
    }
}
