// libFuzzer entry for KeyInput's readers of a device's bytes: input event records split at any
// point, and the sysfs key bitmap (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with KeyInput's sources in one module over SystemKit: -sanitize=fuzzer,address.

import SystemKit

/// Feeds the input to a press reader (debouncing by 10 ms for an odd length, not at all for an
/// even one) in two reads split at its first byte's place, then as a capabilities bitmap: no
/// trap, each press counted at most once per key down, codes in range.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var reader = KeyPressReader<ContinuousClock.Instant>(debounce: size % 2 == 1 ? .milliseconds(10) : .zero)
    let now = ContinuousClock.now
    let downs = InputEvent.records(in: Array(bytes.prefix(bytes.count - bytes.count % InputEvent.recordBytes)))
        .filter { $0.type == InputEvent.key && $0.value == 1 }.count
    let presses =
        reader.read(Array(bytes[..<split]), at: now) + reader.read(Array(bytes[split...]), at: now)
        + reader.expire(at: now + .seconds(2))
    precondition(presses.count <= downs, "more presses than keys went down")
    precondition(presses.allSatisfy { $0.code.rawValue > 0 && $0.code.rawValue <= InputEvent.highestKeyCode })
    if let capabilities = KeyCapabilities.parse(bytes) {
        precondition(capabilities.codes.allSatisfy { $0.rawValue <= InputEvent.highestKeyCode }, "code past KEY_MAX")
    }
    return 0
}
