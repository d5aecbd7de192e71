import Testing

@testable import KitchenWeb

@Suite struct RequestFieldsTests {
    typealias Fields = RequestGuard.Fields

    @Test(arguments: [
        ("start=soft", ["start": "soft"]),
        ("start=3m40&label=Pasta", ["start": "3m40", "label": "Pasta"]),
        ("label=Pasta+al+dente", ["label": "Pasta al dente"]),
        ("label=Gr%C3%BCner%20Tee", ["label": "Grüner Tee"]),
        ("label=a%2Bb%26c%3Dd", ["label": "a+b&c=d"]),
        ("code=004217&", ["code": "004217"]),
        ("&&code=1&&", ["code": "1"]),
        ("flag", ["flag": ""]),
        ("label=", ["label": ""]),
        ("label=x=y", ["label": "x=y"]),
        ("", [:]),
    ])
    func formsAreDecoded(_ body: String, _ expected: [String: String]) {
        #expect(Fields.form(Array(body.utf8)) == Fields(expected.mapValues { .string($0) }), "\(body)")
    }

    @Test(arguments: ["a=%", "a=%4", "a=%G1", "a=%C3", "a=%FF", "=value", "a=1&a=2", "%zz=1"])
    func badFormsAreRefusedWhole(_ body: String) {
        #expect(Fields.form(Array(body.utf8)) == nil, "\(body)")
    }

    @Test func aFormHasAtMostSixteenFieldsAndSixteenKiB() {
        let sixteen = (0..<16).map { "f\($0)=1" }.joined(separator: "&")
        #expect(Fields.form(Array(sixteen.utf8))?.values.count == 16)
        #expect(Fields.form(Array((sixteen + "&f16=1").utf8)) == nil)
        #expect(Fields.form(Array(repeating: UInt8(ascii: "a"), count: RequestGuard.bodyLimit + 1)) == nil)
    }

    @Test func jsonObjectsOfStringsAndIntegersAreRead() {
        let fields = Fields.json(Array(#" {"start":"3m40","label":"Pasta \"al\" dente","seconds":-86400} "#.utf8))
        #expect(fields?.string("start") == "3m40")
        #expect(fields?.string("label") == #"Pasta "al" dente"#)
        #expect(fields?.integer("seconds") == -86400)
        #expect(fields?.string("seconds") == nil && fields?.integer("label") == nil)
        #expect(Fields.json(Array("{}".utf8)) == Fields())
        #expect(Fields.json([]) == Fields(), "an empty body is no fields")
    }

    @Test(arguments: [
        #"[]"#, #""soft""#, #"{"a":{"b":1}}"#, #"{"a":[1]}"#, #"{"a":true}"#, #"{"a":null}"#, #"{"a":1.5}"#,
        #"{"a":1e300}"#, #"{"a":9007199254740993}"#, #"{"a":1,"a":2}"#, #"{"a":1"#, #"{"a":1} x"#,
    ])
    func otherJSONIsRefused(_ body: String) {
        #expect(Fields.json(Array(body.utf8)) == nil, "\(body)")
    }

    @Test(
        arguments: [
            ("60", 60), ("-86400", -86400), ("0", 0), ("999999999999999999", 999_999_999_999_999_999),
        ] as [(String, Int64)])
    func formIntegersAreWholeNumbers(_ text: String, _ value: Int64) {
        #expect(Fields(["seconds": .string(text)]).integer("seconds") == value)
    }

    @Test(arguments: ["", "-", "+5", "1.5", "1e3", " 5", "5 ", "0x10", "9999999999999999999", "٥"])
    func otherFormNumbersAreNone(_ text: String) {
        #expect(Fields(["seconds": .string(text)]).integer("seconds") == nil, "\(text)")
    }
}
