import ControlChannel
import Testing
import TimerModel

/// The control socket's status line as an encoding of a ``TimerSnapshot`` (issue 22): the same
/// keys as ever, and back.
@Suite struct TimerStatusLineTests {
    /// Any instant will do: the boot deadline stays off the line.
    private static let boot = ContinuousClock.now

    private static let counting = TimerSnapshot(
        state: .counting, label: "Soft", kind: .egg("Soft"), total: .seconds(300), remaining: .milliseconds(61_500),
        deadline: boot + .seconds(61), deadlineUnixMilliseconds: 1_796_032_861_500, pid: 42)

    /// A snapshot changed by `change`.
    private static func counting(_ change: (inout TimerSnapshot) -> Void) -> TimerSnapshot {
        var snapshot = counting
        change(&snapshot)
        return snapshot
    }

    static let table: [(TimerSnapshot, String)] = [
        (counting, "ok\tlabel=Soft\tpid=42\tstate=counting\tremaining_ns=61500000000\tdeadline_ms=1796032861500"),
        (
            counting {
                ($0.state, $0.deadline, $0.deadlineUnixMilliseconds) = (.paused, nil, nil)
            }, "ok\tlabel=Soft\tpid=42\tstate=paused\tremaining_ns=61500000000"
        ),
        (
            counting {
                ($0.state, $0.remaining, $0.device) = (.silent, .zero, .silent("no such device"))
            }, "ok\tlabel=Soft\tpid=42\tstate=silent\tremaining_ns=0\tdeadline_ms=1796032861500"
        ),
        (
            counting {
                ($0.label, $0.kind, $0.schedule) = (
                    "at-7.00", .alarm, .init(at: "2026-12-01T07:00:00+01:00", every: "weekday")
                )
                ($0.clockUnsynchronised, $0.detached) = (true, true)
            },
            "ok\tlabel=at-7.00\tpid=42\tstate=counting\tremaining_ns=61500000000\tdeadline_ms=1796032861500"
                + "\tat=2026-12-01T07:00:00+01:00\tevery=weekday\tclock=unsynchronised\tterminal=detached"
        ),
        (
            TimerSnapshot(
                state: .menu, label: "menu-7", kind: nil, total: .zero, remaining: .zero, deadline: nil,
                deadlineUnixMilliseconds: nil, pid: 7), "ok\tlabel=menu-7\tpid=7\tstate=menu\tremaining_ns=0"
        ),
    ]

    @Test(arguments: table)
    func aSnapshotIsEncodedAsItsStatusLineAndReadBack(snapshot: TimerSnapshot, line: String) throws {
        #expect(TimerStatus(snapshot).line == line)
        #expect(TimerStatus(line: line) == TimerStatus(snapshot))
    }

    @Test(arguments: TimerState.allCases)
    func everyStateWordIsReadBack(state: TimerState) throws {
        let status = try #require(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=\(state.rawValue)\tremaining_ns=0"))
        #expect(status.state == state)
    }

    @Test(arguments: ["", "Counting", "stale", "ringing ", "counting\u{0}"])
    func aStateOutsideTheVocabularyIsRejected(word: String) {
        #expect(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=\(word)\tremaining_ns=0") == nil)
    }
}
