import Testing
import TimerModel

@testable import TimerEngine

/// The record's changing part as a function of the one snapshot (issue 22): snapshot → what the
/// record says.
@Suite struct RecordSnapshotTests {
    private static let boot = ContinuousClock.now
    private static let counting = TimerSnapshot(
        state: .counting, label: "menu-7", kind: .egg("Soft"), total: .seconds(300), remaining: .seconds(200),
        deadline: boot + .seconds(200), deadlineUnixMilliseconds: 1_796_032_800_000, pid: 7, runLabel: "Soft")

    /// `counting` changed by `change`.
    private static func counting(_ change: (inout TimerSnapshot) -> Void) -> TimerSnapshot {
        var snapshot = counting
        change(&snapshot)
        return snapshot
    }

    static let table: [(TimerSnapshot, RecordKeeper.Snapshot?)] = [
        (
            counting,
            .init(
                label: "Soft", kind: .egg("Soft"), total: .seconds(300), state: .counting,
                deadline: boot + .seconds(200),
                left: nil)
        ),
        (
            counting { ($0.state, $0.deadline, $0.kind) = (.paused, nil, .plain) },
            .init(label: "Soft", kind: .plain, total: .seconds(300), state: .paused, deadline: nil, left: .seconds(200))
        ),
        (
            counting { ($0.state, $0.kind, $0.runLabel) = (.silent, .pomodoro(phase: "work"), nil) },
            .init(
                label: "menu-7", kind: .pomodoro, total: .seconds(300), state: .ringing, deadline: boot + .seconds(200),
                left: nil)
        ),
        (
            counting { ($0.state, $0.kind) = (.snoozed, .alarm) },
            .init(
                label: "Soft", kind: .plain, total: .seconds(300), state: .snoozed, deadline: boot + .seconds(200),
                left: nil)
        ),
        (counting { $0.state = .menu }, nil),
        (counting { $0.state = .done }, nil),
        (counting { $0.state = .cancelled }, nil),
        (counting { $0.state = .missed }, nil),
    ]

    @Test(arguments: table)
    func aSnapshotBecomesWhatTheRecordSays(snapshot: TimerSnapshot, record: RecordKeeper.Snapshot?) {
        #expect(RecordKeeper.snapshot(snapshot, schedule: nil) == record)
    }
}
