// libFuzzer entry for the control protocol's lines (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with ControlChannel's sources in one module: -sanitize=fuzzer,address.

/// Reads the input as a request line and as a reply line; what is accepted must be in range and
/// read back to itself from its own line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let request = ControlRequest(line: line) {
        if case .command(.snooze(let duration?)) = request {
            precondition(duration > .zero && duration <= .seconds(999 * 3600), "snooze out of range: \(line)")
        }
        if case .command(.add(let delta)) = request {
            precondition(delta != .zero && delta >= .seconds(-86_400) && delta <= .seconds(86_400), "add out of range")
        }
        precondition(ControlRequest(line: request.line) == request, "request round trip: \(line)")
    }
    if let status = TimerStatus(line: line) {
        precondition(status.remaining >= .zero, "negative remaining: \(line)")
        if let deadline = status.deadlineUnixMilliseconds {
            precondition((0...TimerStatus.deadlineLimit).contains(deadline), "deadline out of range: \(line)")
        }
        _ = status.line
    }
    return 0
}
