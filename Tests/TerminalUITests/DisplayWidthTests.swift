import Testing

@testable import TerminalUI

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0),
        ("abc", 3),
        ("Soft-boiled egg", 15),
        ("日本", 4),
        ("\u{E9}", 1),  // é composed
        ("e\u{301}", 1),  // é decomposed
        ("👍", 2),
        ("a\u{200D}b", 2),  // zero-width joiner
        ("a\u{200B}b", 2),  // zero-width space
        ("\u{FEFF}x", 1),  // byte order mark
        ("가나다abc", 9),  // Hangul syllables
        ("\u{1112}\u{1161}\u{11AB}", 2),  // 한 decomposed: the vowel and final consonant join the initial
        ("ｱｲｳ", 3),  // halfwidth katakana
        ("ＡＢ", 4),  // fullwidth Latin
        ("\u{3000}", 2),  // ideographic space
        ("、。", 4),  // CJK punctuation
        ("\u{20000}", 2),  // CJK Extension B, plane 2
        ("\u{3FFFD}", 2),  // last of plane 3, unassigned but wide by default
        ("\u{40000}", 1),  // plane 4 is not
        ("ㄱ", 2),  // Hangul compatibility Jamo
        ("ไทย", 3),  // Thai: one column each
        ("Ωß€", 3),
        ("\u{301}", 0),  // a lone combining mark
        ("a\tb", 2),  // controls take nothing: they are escaped before display
        ("\u{1B}[1m", 3),
        ("\r\n", 0),
        ("\u{7F}\u{85}\u{9F}", 0),  // DEL, C1 controls
        ("x\u{FE0E}", 1),  // text variation selector
        ("☕", 2),  // Emoji_Presentation, East Asian Wide
        ("❤", 1),  // text presentation by default
        ("❤\u{FE0F}", 2),  // U+FE0F asks for emoji presentation
        ("1\u{FE0F}\u{20E3}", 2),  // keycap
        ("x\u{FE0F}", 1),  // U+FE0F after a non-emoji changes nothing
        ("🌡", 1),  // thermometer: text presentation by default
        ("🌡\u{FE0F}", 2),
        ("👍🏽", 4),  // skin tone modifier: measured by code point, an upper bound
        ("👨\u{200D}👩\u{200D}👧", 6),  // ZWJ sequence: measured by code point, an upper bound
        ("🇯🇵", 4),  // regional indicators: Emoji_Presentation each
        ("\u{1FAF7}", 2),  // leftwards pushing hand, Unicode 15.0: wide through the stdlib's emoji data
        ("\u{0600}1", 2),  // Arabic number sign: a format character that is drawn
        ("〈〉", 4),  // U+2329, U+232A
        ("\u{4DC0}", 2),  // Yijing hexagram
    ])
    func measuresTerminalColumns(text: String, columns: Int) {
        #expect(text.displayWidth == columns)
        #expect(text.reduce(0) { $0 + $1.displayWidth } == columns)  // the ASCII fast path agrees
    }

    @Test(arguments: [
        // First and last code point of ranges, and the ones just outside.
        (0x10FF, 1), (0x1100, 2), (0x115F, 2), (0x1160, 0), (0x11FF, 0), (0x1200, 1),
        (0x2E7F, 1), (0x2E80, 2), (0x303E, 2), (0x303F, 1), (0x3041, 2),
        (0x3248, 2), (0xA4C6, 2), (0xA4D0, 1), (0xA960, 2), (0xA97C, 2), (0xA97D, 1),
        (0xABFF, 1), (0xAC00, 2), (0xD7A3, 2), (0xD7B0, 0), (0xD7FF, 0), (0xE000, 1),
        (0xF8FF, 1), (0xF900, 2), (0xFAFF, 2), (0xFB00, 1), (0xFE10, 2), (0xFE19, 2), (0xFE20, 0),
        (0xFE30, 2), (0xFE6B, 2), (0xFE70, 1), (0xFF00, 1), (0xFF01, 2), (0xFF60, 2), (0xFF61, 1),
        (0xFFE0, 2), (0xFFE6, 2), (0xFFE8, 1), (0x16FE0, 2), (0x17000, 2), (0x1B2FB, 2), (0x1B2FC, 1),
        (0x1F200, 2), (0x1F265, 2), (0x1F300, 2), (0x1F64F, 2), (0x1F650, 1), (0x1F900, 1), (0x1F90C, 2),
        (0x1FFFF, 1), (0x20000, 2), (0x2FFFD, 2), (0x30000, 2), (0xE0001, 0), (0xE0100, 0),
    ])
    func measuresRangeEdges(code: UInt32, columns: Int) throws {
        let scalar = try #require(Unicode.Scalar(code))
        #expect(String(scalar).displayWidth == columns, "U+\(String(code, radix: 16, uppercase: true))")
    }

    @Test func marksTakeNoColumnsAndEmojiTwoEvenInsideTheWideRanges() {
        // The wide ranges are looked up before the general category, for speed; this checks that
        // no mark hides in them and that the stdlib's emoji all count 2, over every scalar.
        var wrong: [String] = []
        for code in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(code) else { continue }
            let expected: Int?
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: expected = 0
            default: expected = scalar.properties.isEmojiPresentation ? 2 : nil
            }
            if let expected, String(scalar).displayWidth != expected {
                wrong.append("U+\(String(code, radix: 16, uppercase: true))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }

    @Test(arguments: [
        ("日本語", 5, "日本"),
        ("日本語", 6, "日本語"),
        ("日本語", 7, "日本語"),
        ("日本語", 1, ""),
        ("日本語", 0, ""),
        ("abc", 2, "ab"),
        ("abc", 0, ""),
        ("abc", 3, "abc"),
        ("", 4, ""),
        ("a日b", 2, "a"),
        ("a日b", 3, "a日"),
        ("e\u{301}x", 1, "e\u{301}"),  // the mark stays with its letter
        ("ab\u{301}c", 2, "ab\u{301}"),
        ("👍🏽x", 3, ""),  // one cluster, four columns: never split into 👍 and a lone modifier
        ("👍🏽x", 4, "👍🏽"),
        ("ab\u{200B}c", 2, "ab\u{200B}"),  // a zero-width cluster after the last that fits stays
        ("ab\tc", 2, "ab\t"),
        ("a\r\nb", 1, "a\r\n"),  // "\r\n" is one cluster: never split
        ("\r\nab", 1, "\r\na"),
        ("한국어", 3, "한"),
        ("\u{1112}\u{1161}\u{11AB}x", 2, "\u{1112}\u{1161}\u{11AB}"),
    ])
    func cutsAtColumnsNeverSplittingACharacter(text: String, columns: Int, expected: String) {
        let cut = text.prefix(displayWidth: columns)
        #expect(cut == expected)
        #expect(cut.unicodeScalars.elementsEqual(expected.unicodeScalars))  // not just canonically equal
    }

    @Test(arguments: [
        "Soft-boiled egg", "日本語のラベル", "e\u{301}e\u{301}e\u{301}", "a\u{200D}b\tc\r\nd",
        "👍🏽👨\u{200D}👩\u{200D}👧🇯🇵x", "❤\u{FE0F}1\u{FE0F}\u{20E3}", "ｱＡa가\u{20000}",
        "/home/ユーザー/音/alarm.mp3",
    ])
    func everyCutIsTheLongestPrefixThatFits(text: String) {
        let clusters = Array(text)
        for columns in 0...(text.displayWidth + 2) {
            let cut = text.prefix(displayWidth: columns)
            #expect(text.hasPrefix(cut))
            #expect(cut.count <= clusters.count)
            #expect(String(cut).displayWidth <= columns, "\(columns) columns")
            if cut.count < clusters.count {
                let widthWithNext = String(cut).displayWidth + clusters[cut.count].displayWidth
                #expect(widthWithNext > columns, "\(columns) columns: the next cluster fits too")
            }
        }
    }

    @Test(arguments: [
        ("Soft-boiled egg", 8, "…", "Soft-bo…"),
        ("Soft-boiled egg", 15, "…", "Soft-boiled egg"),
        ("Soft-boiled egg", 40, "…", "Soft-boiled egg"),
        ("日本語", 4, "…", "日…"),
        ("日本語", 5, "…", "日本…"),
        ("日本語", 6, "…", "日本語"),
        ("abcdef", 4, "...", "a..."),
        ("abc", 1, "…", "…"),
        ("abc", 0, "…", ""),
        ("abcdef", 2, "...", "ab"),  // the mark does not fit: a plain cut
        ("abc", 2, "", "ab"),
    ])
    func truncatesWithAMarkOnlyWhenItCuts(text: String, columns: Int, ellipsis: String, expected: String) {
        let result = text.truncated(toDisplayWidth: columns, ellipsis: ellipsis)
        #expect(result == expected)
        #expect(result.displayWidth <= columns)
    }
}
