// Terminal column widths, so labels, paths and warnings in CJK or with emoji line up and are cut
// where the screen really ends (issue 9, item 12).
//
// Each Unicode scalar takes 0, 1 or 2 columns:
// - 0: C0 and C1 controls and DEL (they are escaped before display elsewhere); nonspacing and
//   enclosing marks (Mn, Me), which include the variation selectors; format characters (Cf: the
//   zero-width joiner and space, BOM, tags), except the visible Arabic number signs; the Hangul
//   medial vowels and final consonants that join the syllable before them (U+1160–U+11FF,
//   U+D7B0–U+D7FF);
// - 2: East Asian Wide and Fullwidth (`isEastAsianWide`) and every emoji with Emoji_Presentation;
// - 1: everything else, East Asian Ambiguous included (the width outside CJK locales).
// Text takes the sum of its scalars, as terminals that measure code point by code point (wcwidth)
// advance the cursor, except that U+FE0F (emoji presentation) after an emoji of 1 column makes
// it 2, as terminals that measure whole grapheme clusters draw it. The result is an upper bound
// for both kinds, so text measured here never wraps; a terminal that draws a ZWJ sequence, a flag
// or a skin-tone modifier as one glyph leaves blank columns after it instead.

extension String {
    /// The number of terminal columns the text takes when printed (see the rules at the top of
    /// this file): `"abc"` is 3, `"日本"` is 4, `"é"` is 1 composed or decomposed, `"👍"` is 2.
    ///
    /// Pure; any thread may call it.
    /// - Complexity: O(n) in the length; all-ASCII text takes one pass over its UTF-8 bytes.
    package var displayWidth: Int { asciiDisplayWidth ?? unicodeScalars.displayWidth }

    /// The longest prefix of whole grapheme clusters that takes at most `columns` terminal columns.
    ///
    /// A cluster is never split, so a wide character that would straddle the limit is left out
    /// whole: `"日本語".prefix(displayWidth: 5)` is `"日本"`. Zero-width clusters right after the
    /// last one that fits stay with it. Pure; any thread may call it.
    /// - Parameter columns: The most columns the result may take, 0 or more.
    /// - Returns: A prefix of `self` whose `displayWidth` is at most `columns`.
    /// - Precondition: `columns >= 0`.
    /// - Complexity: O(n) in the length.
    func prefix(displayWidth columns: Int) -> Substring {
        precondition(columns >= 0, "negative column count \(columns)")
        var width = 0
        var end = startIndex
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // One byte is one cluster, except "\r\n", whose two zero-width bytes are kept together
            // because the walk only stops before a printable byte.
            for index in utf8.indices {
                let byte = utf8[index]
                if byte >= 0x20 && byte != 0x7F {
                    if width == columns { break }
                    width += 1
                }
                end = utf8.index(after: index)
            }
            return self[..<end]
        }
        while end < endIndex {
            let next = self[end].displayWidth
            if width + next > columns { break }
            width += next
            end = index(after: end)
        }
        return self[..<end]
    }

    /// The text cut to at most `columns` terminal columns, ending with `ellipsis` when anything
    /// was cut; text that fits comes back unchanged.
    ///
    /// Pure; any thread may call it.
    /// - Parameters:
    ///   - columns: The most columns the result may take, 0 or more.
    ///   - ellipsis: What marks the cut; the default `…` takes 1 column. When it does not fit in
    ///     `columns` itself, the text is cut without it.
    /// - Returns: Text whose `displayWidth` is at most `columns`.
    /// - Precondition: `columns >= 0`.
    /// - Complexity: O(n) in the length.
    func truncated(toDisplayWidth columns: Int, ellipsis: String = "…") -> String {
        precondition(columns >= 0, "negative column count \(columns)")
        let cut = prefix(displayWidth: columns)
        if cut.endIndex == endIndex { return self }
        let markWidth = ellipsis.displayWidth
        guard markWidth <= columns else { return String(cut) }
        return String(prefix(displayWidth: columns - markWidth)) + ellipsis
    }

    /// The width of all-ASCII text (printable bytes count 1, controls 0), or nil if any byte is
    /// not ASCII.
    private var asciiDisplayWidth: Int? {
        var width = 0
        for byte in utf8 {
            if byte >= 0x80 { return nil }
            if byte >= 0x20 && byte != 0x7F { width += 1 }
        }
        return width
    }
}

extension Character {
    /// The number of terminal columns this grapheme cluster takes: the sum of its scalars'
    /// widths, an emoji followed by U+FE0F counting 2 (`"❤️"`, `"1️⃣"`).
    ///
    /// Pure; any thread may call it.
    var displayWidth: Int {
        if let ascii = asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }  // "\r\n" too
        return unicodeScalars.displayWidth
    }
}

extension String.UnicodeScalarView {
    /// The sum of the scalars' widths, plus 1 for each U+FE0F right after an emoji of width 1.
    fileprivate var displayWidth: Int {
        var width = 0
        var previous: (scalar: Unicode.Scalar, width: Int)?
        for scalar in self {
            let scalarWidth = scalar.displayWidth
            if scalar == "\u{FE0F}", let previous, previous.width == 1, previous.scalar.properties.isEmoji {
                width += 1  // emoji presentation asked for: drawn 2 wide
            }
            width += scalarWidth
            previous = (scalar, scalarWidth)
        }
        return width
    }
}

extension Unicode.Scalar {
    /// The number of terminal columns this scalar takes on its own: 0, 1 or 2.
    fileprivate var displayWidth: Int {
        let code = value
        if code < 0x7F { return code >= 0x20 ? 1 : 0 }  // ASCII: printable or C0 control
        if code < 0xA0 { return 0 }  // DEL and C1 controls
        if code < 0x300 { return 1 }  // Latin-1 and Latin Extended, soft hyphen included (drawn)
        if isEastAsianWide {
            // The only marks inside the wide ranges (DisplayWidthTests checks every scalar).
            return (0x302A...0x302D).contains(code) || (0x3099...0x309A).contains(code) || code == 0x16FE4 ? 0 : 2
        }
        if (0x1160...0x11FF).contains(code) || (0xD7B0...0xD7FF).contains(code) { return 0 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        case .format: return isPrependedConcatenationMark ? 1 : 0
        default: break
        }
        return properties.isEmojiPresentation ? 2 : 1
    }

    /// Whether the scalar is one of the format characters drawn as a visible sign over the digits
    /// after it (Prepended_Concatenation_Mark in Unicode 14.0 PropList.txt: the Arabic number
    /// signs and their kin), so 1 column where other format characters take none.
    private var isPrependedConcatenationMark: Bool {
        switch value {
        case 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD: true
        default: false
        }
    }

    /// Whether the scalar is East Asian Wide (W) or Fullwidth (F) in Unicode 14.0.0's
    /// EastAsianWidth.txt, leaving out what has Emoji_Presentation (asked of the stdlib instead,
    /// whose Unicode data is newer, so later emoji count 2 too).
    ///
    /// The ranges were derived from that file's data (as CPython 3.11's `unicodedata` carries
    /// it) and checked against glibc 2.36's UTF-8 width table, also Unicode 14.0. Runs of
    /// unassigned code points between two ranges are closed, and the unassigned code points that
    /// Unicode defaults to W (CJK blocks, planes 2 and 3) are in. Two additions, both 2 in glibc's
    /// table too: circled numbers on black squares (U+3248–U+324F, Ambiguous) and the Yijing
    /// hexagrams (U+4DC0–U+4DFF, Neutral in 14.0).
    private var isEastAsianWide: Bool {
        switch value {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x2329...0x232A,  // angle brackets
            0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK punctuation
            0x3041...0xA4C6,  // kana, Bopomofo, Hangul Jamo, Kanbun, enclosed CJK, Ext A, Yijing, CJK, Yi
            0xA960...0xA97C,  // Hangul Jamo Extended-A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6B,  // CJK compatibility forms, small form variants
            0xFF01...0xFF60,  // fullwidth ASCII and punctuation
            0xFFE0...0xFFE6,  // fullwidth signs
            0x16FE0...0x1B2FB,  // ideographic symbols, Tangut, Khitan, kana supplements, Nushu
            0x1F200...0x1F265,  // enclosed ideographic supplement
            0x20000...0x3FFFD:  // CJK Ext B and later, planes 2 and 3
            true
        default:
            false
        }
    }
}
