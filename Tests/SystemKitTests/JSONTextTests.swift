import Testing

@testable import SystemKit

@Suite struct JSONTextTests {
    @Test(arguments: [
        ("", #""""#),
        ("tea", #""tea""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\eggs"#, #""C:\\eggs""#),
        ("a\nb\rc\td", #""a\nb\rc\td""#),
        ("\u{0}\u{1}\u{8}\u{B}\u{C}\u{1B}\u{1F}", #""\u0000\u0001\u0008\u000b\u000c\u001b\u001f""#),
        ("\u{7F}", #""\u007f""#),
        ("line\u{2028}para\u{2029}", #""line\u2028para\u2029""#),
        ("Ei – 5 °C, 🥚", "\"Ei – 5 °C, 🥚\""),
        ("\u{80}\u{9F}", "\"\u{80}\u{9F}\""),
        ("/", #""/""#),
    ])
    func stringsAreEscapedPerRFC8259(text: String, literal: String) {
        #expect(JSONText.quoted(text) == literal)
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        JSONText.appendQuoted(text, to: &bytes)
        #expect(bytes == [UInt8(ascii: "[")] + Array(literal.utf8))
    }

    @Test func everyControlCharacterIsEscaped() {
        for value in 0..<0x20 {
            let literal = JSONText.quoted(String(Unicode.Scalar(UInt8(value))))
            #expect(literal.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }, "U+\(value): \(literal)")
            #expect(literal.hasPrefix("\"\\"), "U+\(value): \(literal)")
        }
    }
}
