import Testing

@testable import SystemKit

@Suite struct LabelRuleTests {
    @Test(arguments: [
        "tea", "Eggs-2", "a_b.c", "x", "0", "_hidden", String(repeating: "a", count: 64), "1:30", "1:30:00",
        "at-2026-12-24t18.00+01.00", "+", ":",
    ])
    func validLabels(label: String) {
        #expect(LabelRule.isValid(label))
    }

    @Test(arguments: [
        "", ".", "..", ".tea", "-tea", "a b", "a/b", "tea#", "a*b", "a;b", "$x", "é", "tea\n",
        String(repeating: "a", count: 65),
    ])
    func invalidLabels(label: String) {
        #expect(!LabelRule.isValid(label))
    }

    @Test func theCharacterSetIsASCIILettersDigitsDashUnderscoreDotColonPlus() {
        let allowed = (0...255).map(UInt8.init).filter { LabelRule.allows($0) }
        let expected = Array("+-.0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
        #expect(allowed == expected)
        let inFileNames = (0...255).map(UInt8.init).filter { LabelRule.allowsInFileName($0) }
        #expect(inFileNames == Array("-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8))
        #expect(!LabelRule.allows(Unicode.Scalar(0xE9)!))
        #expect(LabelRule.allows(Unicode.Scalar("q")))
        #expect(!LabelRule.allowsFirst(UInt8(ascii: ".")) && !LabelRule.allowsFirst(UInt8(ascii: "-")))
        #expect(LabelRule.allowsFirst(UInt8(ascii: "_")))
    }
}
