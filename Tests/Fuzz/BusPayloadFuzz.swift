// libFuzzer entry for MQTT payloads: commands, timer states, JSON (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with HouseBus's sources in one module, over SystemKit's: -sanitize=fuzzer,address.

import SystemKit

/// Parses the input as a command payload, a state payload and a JSON value; an accepted command
/// or state must be in range, and a state must read back from its own JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBusPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .add(let delta)? = try? BusCommand.parse(bytes) {
        precondition(delta != .zero && delta >= .seconds(-86_400) && delta <= .seconds(86_400), "add out of range")
    }
    if let state = TimerStatePayload.parse(bytes) {
        let limit = TimerStatePayload.secondsLimit
        precondition(
            abs(state.durationSeconds) <= limit && abs(state.remainingSeconds) <= limit, "seconds out of range")
        _ = state.json()
        if let deadline = state.deadlineUnixMilliseconds {
            precondition(UTCTimestamp.unixMilliseconds(UTCTimestamp.text(unixMilliseconds: deadline)) == deadline)
        }
    }
    _ = JSONValue.parse(bytes)
    return 0
}
