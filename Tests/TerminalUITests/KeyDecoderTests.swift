import Testing

@testable import TerminalUI
@testable import TimerEngine

@Suite struct KeyDecoderTests {
    @Test(arguments: [
        ([UInt8(ascii: "1")], [Key.character("1")]),
        ([0x1B, 0x5B, 0x41], [.up]),
        ([0x1B, 0x5B, 0x42, 0x0D], [.down, .enter]),
        ([0x1B, 0x4F, 0x43], [.right]),
        ([0x1B], [.escape]),
        ([0x20, 0x71], [.character(" "), .character("q")]),
        ([0x7F], [.backspace]),
        ([0x15], [.eraseLine]),
        ([0x1B, 0x5B, 0x31, 0x35, 0x7E], [.other]),  // F5: consumed whole
        ([0xC3, 0xA9], [.character("é")]),
        ([0x03], [.other]),
        ([0x0A], [.enter]),
    ])
    func decodesWhatOneReadDelivers(bytes: [UInt8], keys: [Key]) {
        #expect(KeyDecoder().decode(bytes) == keys)
    }
}
