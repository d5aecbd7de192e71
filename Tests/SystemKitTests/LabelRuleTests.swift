import Testing

@testable import SystemKit

/// The label rule (issue 41): labels people use (spaces, letters of any script), one rule for
/// matching (the key).
@Suite struct LabelRuleTests {
    @Test(arguments: [
        "tea", "Eggs-2", "a_b.c", "x", "0", "_hidden", String(repeating: "a", count: 64), "1:30", "1:30:00",
        "at-2026-12-24t18.00+01.00", "+", ":", "roast beef", "Küche", "3m Spätzle", "5 min", "1h 30m", "mum's stew",
        "Ku\u{0308}che", "寿司", "Ελληνικά", "Soft-2", "a b c d", String(repeating: "ü", count: 32), "_ _", "١٢",
    ])
    func validLabels(label: String) {
        #expect(LabelRule.isValid(label))
    }

    @Test(arguments: [
        "", ".", "..", ".tea", "-tea", "a/b", "tea#", "a*b", "a;b", "$x", "tea\n", "a%b", " tea", "tea ", "a  b",
        "a\tb", "a\u{0}b", "\u{0308}a", "a\u{200B}b", "a\u{200D}b", "😀", "a€", "a\u{7F}", "a\"b", "a\\b",
        String(repeating: "a", count: 65), String(repeating: "ü", count: 33),
    ])
    func invalidLabels(label: String) {
        #expect(!LabelRule.isValid(label))
    }

    @Test func theASCIICharactersAreLettersDigitsSpaceAndDashUnderscoreDotColonPlusApostrophe() {
        let allowed = (0...127).map { Character(Unicode.Scalar(UInt8($0))) }.filter(LabelRule.allows)
        #expect(String(allowed) == " '+-.0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
        let inNames = (0...255).map(UInt8.init).filter { LabelRule.allowsInFileName($0) }
        #expect(inNames == Array("-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8))
    }

    @Test(arguments: [("Soft", "soft"), ("KÜCHE", "küche"), ("Roast Beef", "roast beef"), ("1:30", "1:30")])
    func labelsThatDifferInCaseAloneAreOneTimer(label: String, other: String) {
        #expect(LabelRule.key(label) == LabelRule.key(other))
        #expect(LabelRule.same(label, other))
    }

    @Test(arguments: [("1:30", "1-30"), ("roast beef", "roast_beef"), (":", "+"), ("Küche", "Kuche"), ("a", "a ")])
    func otherLabelsAreOtherTimers(label: String, other: String) {
        #expect(!LabelRule.same(label, other))
    }

    @Test func nodeNamesStayOneASCIIWord() {
        #expect(LabelRule.isValidName("kitchen-2.lan"))
        for name in ["a b", "Küche", "a:b", "a+b", ".a", "-a", ""] { #expect(!LabelRule.isValidName(name), "\(name)") }
    }
}
