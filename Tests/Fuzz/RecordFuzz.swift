// libFuzzer entry for timer records, the files `recover` and `status` read (make fuzz; not part of
// `swift test`). The record's format, its resumption plan and a kept record's line live in
// TimerEngine: scripts/fuzz.sh builds it and the libraries below it as modules and links this one
// over them, with -sanitize=fuzzer,address.

import TimerCore
import TimerEngine
import TimerText

/// Parses the input as a record; what is accepted reads back to itself from its own text, and the
/// resumed timer's plan, its start and the `status` line of a kept record are worked out at a
/// few instants without a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let record = try? TimerRecord(parsing: bytes) else { return 0 }
    let again = try? TimerRecord(parsing: Array(record.text.utf8))
    precondition(again == record, "record round trip")
    let now = ContinuousClock.now
    for bootID in [record.bootID, "another-boot"] {
        let plan = ResumePlan(record: record, bootID: bootID, writtenAt: AlarmRecovery.wallNow())
        for wall in [
            AlarmRecovery.wallNow(), WallInstant(unixNanoseconds: 0),
            WallInstant(unixNanoseconds: 4_000_000_000_000_000_000),
        ] {
            _ = plan.overdue(at: now, wall: wall)
            _ = try? plan.resumption(at: now, wall: wall, synchronised: true, presets: Preset.eggs)
            _ = KeptRecord(record: record, name: "x.timer", bootID: bootID, now: now, wall: wall)
        }
    }
    return 0
}
