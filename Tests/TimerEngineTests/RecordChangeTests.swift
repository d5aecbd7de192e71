import Glibc
import TestSupport
import Testing
import TimerCore
import TimerModel

@testable import TimerEngine

/// Whether the timer's record changes (issue 23): a pure decision, then a step the session
/// carries out (``RecordKeeper/plan(_:schedule:recoveredDeadline:offset:clock:)``, ``RecordKeeper/perform(_:)``).
@Suite struct RecordChangeTests {
    private static let boot = ContinuousClock.now
    private static let counting = RecordKeeper.Snapshot(
        label: "tea", kind: .plain, total: .seconds(300), state: .counting, deadline: boot + .seconds(200), left: nil)
    private static let paused = RecordKeeper.Snapshot(
        label: "tea", kind: .plain, total: .seconds(300), state: .paused, deadline: nil, left: .seconds(200))
    private static let second: Int64 = 1_000_000_000

    static let table: [(RecordKeeper.Snapshot?, RecordKeeper.Snapshot?, Bool, Int64, Bool, RecordKeeper.Change)] = [
        // snapshot, written, mayExist, offset step (ns), final → change
        (counting, nil, false, 0, false, .write),  // the first round of a timer
        (counting, nil, true, 0, false, .write),  // the last write failed: try again
        (counting, counting, true, 0, false, .unchanged),
        (counting, counting, true, second, false, .unchanged),  // a second's drift is no step
        (counting, counting, true, -second, false, .unchanged),
        (counting, counting, true, second + 1, false, .write),  // the wall clock stepped: new UTC deadline
        (counting, counting, true, -second - 1, false, .write),
        (paused, counting, true, 0, false, .write),
        (nil, counting, true, 0, false, .remove),  // the menu again
        (nil, nil, true, 0, false, .remove),  // a failed write may have left one
        (nil, nil, false, 0, false, .unchanged),
        (nil, counting, true, 0, true, .unchanged),  // over: end(keepingFor:) settles it
        (counting, nil, false, 0, true, .unchanged),
    ]

    @Test(arguments: table)
    func theRecordChangesOnlyWhenWhatItSaysOrTheWallClockDoes(
        snapshot: RecordKeeper.Snapshot?, written: RecordKeeper.Snapshot?, mayExist: Bool, step: Int64, final: Bool,
        change: RecordKeeper.Change
    ) {
        let written0: Int64 = 1_796_032_800 * Self.second
        #expect(
            RecordKeeper.change(
                to: snapshot, written: written, mayExist: mayExist, offset: written0 + step, writtenOffset: written0,
                final: final) == change)
    }

    @Test func offsetsAtTheLimitsOfInt64DoNotTrap() {
        #expect(
            RecordKeeper.change(
                to: Self.counting, written: Self.counting, mayExist: true, offset: .max, writtenOffset: .min) == .write)
        #expect(
            RecordKeeper.change(
                to: Self.counting, written: Self.counting, mayExist: true, offset: .min, writtenOffset: .max) == .write)
    }

    /// Planning does no I/O: the file appears only when the step is performed, and an unchanged
    /// round plans nothing.
    @Test func aPlannedWriteTouchesTheDiskOnlyWhenPerformed() throws {
        let folder = makePrivateDirectory()
        defer { removeDirectory(folder) }
        var keeper = RecordKeeper(
            store: RecordStore(folder: folder), name: "tea.timer", alarm: .init(), bus: nil, presets: Preset.eggs,
            bootID: "b")
        let clock = MonotonicClock()
        let t0 = clock.now()
        let timer = TimerSnapshot(
            state: .counting, label: "tea", kind: .plain, total: .seconds(300), remaining: .seconds(300),
            deadline: t0 + .seconds(300), deadlineUnixMilliseconds: 1_796_032_800_000, pid: getpid())
        let offset: Int64 = 1_796_032_500 * Self.second
        let step = try #require(keeper.plan(timer, schedule: nil, recoveredDeadline: nil, offset: offset, clock: clock))
        guard case .write(let record, _, offset: let stepOffset) = step else {
            Issue.record("expected a write, got \(step)")
            return
        }
        #expect(stepOffset == offset)
        #expect(record.deadlineUnixNanoseconds == clock.nanoseconds(t0 + .seconds(300)) + offset)
        #expect(readFile(folder + "/tea.timer") == nil, "planned, not written")
        keeper.perform(step)
        #expect(readFile(folder + "/tea.timer") != nil)
        #expect(keeper.plan(timer, schedule: nil, recoveredDeadline: nil, offset: offset, clock: clock) == nil)
        #expect(
            keeper.plan(timer, schedule: nil, recoveredDeadline: nil, offset: offset + 2 * Self.second, clock: clock)
                != nil, "a wall-clock step rewrites the UTC deadline")
        var menu = timer
        menu.state = .menu
        let remove = try #require(
            keeper.plan(menu, schedule: nil, recoveredDeadline: nil, offset: offset, clock: clock))
        #expect(remove == .remove)
        keeper.perform(remove)
        #expect(readFile(folder + "/tea.timer") == nil)
    }
}
