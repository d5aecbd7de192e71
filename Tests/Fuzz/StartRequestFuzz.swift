// libFuzzer entry for StartRequest, a start from any front (an MQTT `P/NODE/start` payload, the
// kitchen's socket) (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with TimerText's sources in one module over TimerCore and SystemKit:
// -sanitize=fuzzer,address.

import SystemKit

/// Parses the input as a start request; an accepted one must give arguments with no option but
/// its own `--label`, a label by the label rule, text that parses back to the same request, and,
/// for one-line input, text the pattern accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStartRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let request = try? StartRequest.parse(bytes, presets: ["Soft", "Medium", "Hard", "pasta"]) else {
        return 0
    }
    precondition(bytes.count <= StartRequest.limit, "over the limit")
    let arguments = request.arguments
    precondition(!arguments[0].hasPrefix("-"), "an option first: \(arguments)")
    precondition(arguments.count == 1 || (arguments.count == 3 && arguments[1] == "--label"), "\(arguments)")
    if let label = request.label {
        precondition(LabelRule.isValid(label) && arguments.last == label, "label: \(arguments)")
    }
    let again = try? StartRequest.parse(request.description, presets: ["Soft", "Medium", "Hard", "pasta"])
    precondition(again == request, "round trip: \(request.description)")
    let text = String(decoding: bytes, as: UTF8.self)
    if !bytes.contains(UInt8(ascii: "\n")), !bytes.contains(UInt8(ascii: "\r")) {
        // Home Assistant's check (StartRequest.pattern), compiled per input: a global one is never
        // freed and LeakSanitizer reports it at exit.
        guard let pattern = try? Regex(StartRequest.pattern) else {
            preconditionFailure("the pattern does not compile")
        }
        precondition(text.wholeMatch(of: pattern) != nil, "pattern refuses an accepted request: \(text)")
    }
    return 0
}
