import Testing
import TimerText

@testable import TimerEngine

/// A record placed on this boot's clock (``ResumePlan``): how late it is said, and how a kept
/// record's timer ended (the executable's `ResumeTests` and `KeptRecordTests` run `recover`,
/// `--resume-record` and `status`).
@Suite struct ResumePlanTests {
    /// A record of a 5-minute countdown labelled `label`, written in boot `bootID`, due `dueIn`
    /// from now on both clocks.
    static func record(label: String, bootID: String, ended: String? = nil, dueIn: Duration) -> TimerRecord {
        let boot = MonotonicClock().nanoseconds(ContinuousClock.now.advanced(by: dueIn))
        return TimerRecord(
            label: label, kind: .plain, total: .seconds(300), state: .counting, deadlineBootNanoseconds: boot,
            deadlineUnixNanoseconds: boot + WallClock.system.offset(), remaining: nil, bootID: bootID, pid: 999_999,
            ended: ended)
    }

    @Test(arguments: [
        (Duration.seconds(42), "42 s"), (.seconds(180), "3 min"), (.seconds(199), "3 min"), (.seconds(7200), "2 h"),
        (.seconds(7500), "2 h 5 min"),
    ])
    func latenessReadsAsPeopleSayIt(duration: Duration, text: String) {
        #expect(ResumePlan.text(duration) == text)
    }

    @Test(
        arguments: [
            ("this", "SIGTERM", KeptRecord.Ending.signal("SIGTERM")), ("this", nil, .processGone),
            ("other", "SIGTERM", .earlierBoot), ("other", nil, .earlierBoot),
        ] as [(String, String?, KeptRecord.Ending)])
    func howATimerEndedComesFromItsRecordAndTheBootID(boot: String, ended: String?, ending: KeptRecord.Ending) {
        let record = Self.record(label: "tea", bootID: boot, ended: ended, dueIn: .seconds(60))
        let kept = KeptRecord(record: record, name: "tea.timer", bootID: "this", now: .now)
        #expect(kept.ending == ending)
    }
}
