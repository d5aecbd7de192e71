import Glibc
import TestSupport
import Testing
import TimerCore
import TimerEngineTestSupport
import TimerText

@testable import TimerEngine

/// A failed record write (a full state folder) never brings an acknowledged alarm back: removing
/// the record does not depend on the last write having succeeded, and no temporary file stays.
@Suite struct RecordWriteFailureTests {
    /// Whether the store's writes fail now (ENOSPC), switched by the test.
    final class Disk {
        var full = false
    }

    /// The file names in `folder`, without `.` and `..`.
    static func files(in folder: String) -> Set<String> { Set(folderEntries(folder).map(\.name)) }

    /// What a session does after each round: the record follows the controller's snapshot.
    private static func record(_ keeper: inout RecordKeeper, _ controller: Controller, at now: ContinuousClock.Instant)
    {
        let snapshot = controller.snapshot(at: now, wall: WallInstant(unixSeconds: 1_796_032_800))
        keeper.update(snapshot, schedule: nil, recoveredDeadline: nil, clock: MonotonicClock())
    }

    @Test(arguments: [false, true])
    func anAlarmSnoozedThenAcknowledgedOnAFullDiskLeavesNoRecord(fromMenu: Bool) {
        let folder = makePrivateDirectory()
        defer { removeDirectory(folder) }
        let disk = Disk()
        let store = RecordStore(folder: folder) { disk.full ? ENOSPC : nil }
        var keeper = RecordKeeper(
            store: store, name: "tea.timer", alarm: .init(), bus: nil, presets: Preset.eggs, bootID: "b")
        let t0 = ContinuousClock.now
        var controller = Controller(configuration: .init(), start: fromMenu ? .menu : .plain(.seconds(60)), at: t0)
        if fromMenu { _ = controller.handle(key: .character("1"), at: t0) }
        Self.record(&keeper, controller, at: t0)
        let deadline = controller.currentRun?.countdown.deadline ?? t0
        _ = controller.tick(at: deadline)
        Self.record(&keeper, controller, at: deadline)
        let ringing = readFile(folder + "/tea.timer").map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(ringing.contains("state=ringing\n"), "\(ringing)")

        disk.full = true
        _ = controller.handle(key: .character("z"), at: deadline + .seconds(1))  // snooze: its write fails
        #expect(controller.state == .snoozed)
        Self.record(&keeper, controller, at: deadline + .seconds(1))
        #expect(Self.files(in: folder) == ["tea.timer"], "the ringing record stays; no temporary file")
        let again = deadline + .seconds(1) + controller.configuration.snoozeLength
        _ = controller.tick(at: again)
        Self.record(&keeper, controller, at: again)
        _ = controller.handle(key: .character("x"), at: again + .seconds(1))  // acknowledged
        Self.record(&keeper, controller, at: again + .seconds(1))
        if !fromMenu {
            #expect(controller.mode == .exited(.done))
            keeper.end(keepingFor: nil)  // as the session's way out does
        }
        #expect(Self.files(in: folder).isEmpty, "no record for recover to ring again, no temporary file")
    }
}
