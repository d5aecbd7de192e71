import Testing
import TextCoding

/// JSON's one writer (issue 38): strings escaped by one rule, values and containers in order,
/// commas where they belong.
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
        var json = JSONText()
        json.array { $0.string(text) }
        #expect(json.bytes == [UInt8(ascii: "[")] + Array(literal.utf8) + [UInt8(ascii: "]")])
    }

    @Test func everyControlCharacterIsEscaped() {
        for value in 0..<0x20 {
            let literal = JSONText.quoted(String(Unicode.Scalar(UInt8(value))))
            #expect(literal.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }, "U+\(value): \(literal)")
            #expect(literal.hasPrefix("\"\\"), "U+\(value): \(literal)")
        }
    }

    @Test func valuesAndContainersAreWrittenInOrderWithCommasBetween() {
        var json = JSONText()
        json.object { json in
            json.key("label")
            json.string("tea \"green\"")
            json.key("pid")
            json.number(Int32(42))
            json.key("remaining_s")
            json.number(decimal: "-0.000123")
            json.key("deadline")
            json.string(orNull: nil)
            json.key("flags")
            json.array { json in
                json.bool(true)
                json.bool(false)
                json.null()
                json.object { _ in }
                json.array { _ in }
            }
            json.key("nested")
            json.object { json in
                json.key("a")
                json.number(1.5)
            }
        }
        #expect(
            json.text
                == #"{"label":"tea \"green\"","pid":42,"remaining_s":-0.000123,"deadline":null,"#
                + #""flags":[true,false,null,{},[]],"nested":{"a":1.5}}"#)
    }

    @Test(arguments: [
        (0.0, "0"), (-3.0, "-3"), (2.5, "2.5"), (312.125, "312.125"), (1e15, "1000000000000000.0"), (.nan, "null"),
        (.infinity, "null"), (-.infinity, "null"), (0.1, "0.1"),
    ])
    func numbersAreWholeWhenWholeAndNullWhenNotFinite(number: Double, text: String) {
        var json = JSONText()
        json.number(number)
        #expect(json.text == text)
    }

    @Test func valuesAtTheTopLevelFollowEachOtherWithCommas() {
        var json = JSONText()
        json.number(UInt64.max)
        json.string("x")
        #expect(json.text == #"18446744073709551615,"x""#)
    }
}
