// libFuzzer entry for ConfigSyntax, the config file's lines (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with TimerText's sources in one module over TimerCore: -sanitize=fuzzer,address.

/// Splits the input into lines and reads each; a setting's key and value are one line of text
/// without control characters, and its error is one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in ConfigSyntax.lines(of: bytes) {
        do {
            guard case .setting(let key, let raw) = try ConfigSyntax.parse(line) else { continue }
            precondition(!key.isEmpty && !key.contains("\n"), "key")
            let value = try ConfigSyntax.value(raw, key: key)
            precondition(!value.contains("\n"), "value holds a newline")
        } catch {
            precondition(!error.description.isEmpty, "empty problem")
        }
    }
    return 0
}
