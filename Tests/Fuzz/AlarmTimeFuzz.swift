import TextCoding

// libFuzzer entry for AlarmTimeParser, the `TIME` of `eggtimer at` (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with TimerText's sources in one module over TimerCore: -sanitize=fuzzer,address.

/// Parses the input as an alarm time; what is accepted must be a valid time of day, a real day
/// and, for an instant, a wall-clock instant that reads back its own seconds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAlarmTime(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let alarm = try? AlarmTimeParser.parse(text) else { return 0 }
    switch alarm {
    case .timeOfDay(let time), .tomorrow(let time):
        precondition((0..<86_400).contains(time.secondsSinceMidnight), "time of day: \(text)")
    case .date(let date, let time):
        precondition(CivilDate(daysSinceEpoch: date.daysSinceEpoch) == date, "date round trip: \(text)")
        precondition((0..<86_400).contains(time.secondsSinceMidnight), "time of day: \(text)")
    case .instant(let instant):
        precondition(WallInstant(exactlyUnixSeconds: instant.unixSeconds) == instant, "instant: \(text)")
    }
    return 0
}
