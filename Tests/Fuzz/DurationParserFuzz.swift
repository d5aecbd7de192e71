// libFuzzer entry for DurationParser (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with TimerCore's sources in one module: -sanitize=fuzzer,address.

/// Parses the input as text; any accepted duration must be in range and, when it is whole
/// seconds, read back to itself from its own clock text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDurationParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let duration = try? DurationParser.parse(text) else { return 0 }
    precondition(duration > .zero && duration <= DurationParser.maximum, "out of range: \(text)")
    if duration.components.attoseconds == 0 {
        precondition((try? DurationParser.parse(duration.clockText)) == duration, "round trip: \(text)")
    }
    return 0
}
