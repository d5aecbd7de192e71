// libFuzzer entry for MP3 decoding from memory (make fuzz; not part of `swift test`).
// Built by scripts/fuzz.sh with AlarmAudio's sources in one module: -sanitize=fuzzer,address.

/// Decodes the input as an MP3 file; it must either throw the typed error or give whole frames.
///
/// The sniffer's verdict on a prefix must be "need more bytes" or its verdict on the whole input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = MPEGStreamSniffer.sniff(bytes, isWholeFile: true)
    precondition(whole != .needMoreBytes)
    let prefix = MPEGStreamSniffer.sniff(Array(bytes.prefix(size / 2)), isWholeFile: false)
    precondition(prefix == .needMoreBytes || prefix == whole)
    guard let sound = try? AlarmSound.decode(bytes: bytes) else { return 0 }
    precondition(sound.channels == 1 || sound.channels == 2)
    precondition(sound.samples.count % sound.channels == 0)
    return 0
}
