import Testing
import TextCoding

/// Hex, percent coding and the printable rule: the one home of each (issue 38).
@Suite struct CodingTests {
    @Test func hexRoundTripsEveryByte() {
        let bytes = (0...255).map { UInt8($0) }
        let text = Hex.text(bytes)
        #expect(text.count == 512)
        #expect(text.hasPrefix("000102") && text.hasSuffix("fdfeff"))
        #expect(Hex.bytes(text) == bytes)
        #expect(Hex.bytes(text.uppercased()) == bytes)
        #expect(Hex.text([0xAB, 0x0F], uppercase: true) == "AB0F")
    }

    @Test(arguments: ["a", "abc", "zz", "0g", " 0"])
    func hexThatIsNotHexIsNone(text: String) {
        #expect(Hex.bytes(text) == nil)
    }

    @Test func percentDecodingTakesEitherCaseAndRefusesABrokenEscape() {
        #expect(PercentCoding.decoded(Array("a%2Fb%2fc".utf8)) == Array("a/b/c".utf8))
        #expect(PercentCoding.decoded(Array("a+b".utf8)) == Array("a+b".utf8))
        #expect(PercentCoding.decoded(Array("a+b".utf8), plusIsSpace: true) == Array("a b".utf8))
        #expect(PercentCoding.decoded(Array("%".utf8)) == nil)
        #expect(PercentCoding.decoded(Array("%4".utf8)) == nil)
        #expect(PercentCoding.decoded(Array("%zz".utf8)) == nil)
        #expect(PercentCoding.escaped("/") == "%2F")
        #expect(PercentCoding.escaped("\u{9B}") == "%C2%9B")
    }

    /// C0, DEL and C1 are control characters (Unicode's Cc), and nothing else is.
    @Test func theControlCharactersAreExactlyUnicodesCc() {
        for value in UInt32(0)...0x2FF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(scalar.isControlCharacter == (scalar.properties.generalCategory == .control), "U+\(value)")
        }
    }

    @Test func controlCharactersAreEscapedOrSpaced() {
        #expect("a\u{1B}[2Jb\u{9B}c\u{7F}".escapingControlCharacters == "a\\x1B[2Jb\\x9Bc\\x7F")
        #expect("plain Küche".escapingControlCharacters == "plain Küche")
        #expect("a\nb\tc".controlCharactersAsSpaces == "a b c")
        #expect("a\nb".containsControlCharacters && !"ab".containsControlCharacters)
    }
}
