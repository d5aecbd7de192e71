import Testing
import TimerCore

@Suite struct DurationParserTests {
    @Test(arguments: [
        ("90", Duration.seconds(90)),
        ("90s", .seconds(90)),
        ("5m", .seconds(300)),
        ("7m30s", .seconds(450)),
        ("1h2m3s", .seconds(3723)),
        ("1.5m", .seconds(90)),
        ("1h30", .seconds(5400)),
        ("1m30", .seconds(90)),
        ("1:30", .seconds(90)),
        ("0:05", .seconds(5)),
        ("90:00", .seconds(5400)),
        ("1:02:03", .seconds(3723)),
        ("25h", .seconds(90_000)),
        ("2.5", .milliseconds(2500)),
        ("0.001", .milliseconds(1)),
        ("1H", .seconds(3600)),
        (" 7m ", .seconds(420)),
        ("2h0m", .seconds(7200)),
        ("999:59:59", DurationParser.maximum),
        ("1:00:30.5", .milliseconds(3_630_500)),
    ])
    func acceptsWhatKitchenUsersType(text: String, expected: Duration) throws {
        #expect(try DurationParser.parse(text) == expected)
    }

    @Test(arguments: [
        ("0", "must be more than zero"),
        ("0s", "must be more than zero"),
        ("0:00", "must be more than zero"),
        ("-5", "must be more than zero"),
        ("abc", "no number in it"),
        ("", "empty"),
        ("-5x", "must be more than zero"),
        ("1:75", "seconds must be below 60"),
        ("0:90", "seconds must be below 60"),
        ("1:60:00", "minutes must be below 60"),
        ("1:5", "expected two digits after ':'"),
        ("1:2:3:4", "expected m:ss or h:mm:ss"),
        ("1:", "a field is empty"),
        ("1h1h", "'h' given twice"),
        ("1s1m", "units must go from h to m to s"),
        ("1s30", "nothing is smaller than seconds"),
        ("5x", "'x' is not a unit (h, m, s)"),
        ("1.5m30", "only the last field may have a fraction"),
        ("1..5", "'1..5' is not a number"),
        ("0.0001", "finer than a millisecond"),
        ("0.0000000001", "finer than a millisecond"),
        ("-", "no number in it"),
        ("-x", "no number in it"),
        ("5ms", "'ms' is not a unit (h, m, s)"),
        ("1.5:30", "only the seconds may have a fraction"),
        ("5X", "'X' is not a unit (h, m, s)"),
        ("1000h", "longer than the maximum 999:59:59"),
        ("99999999999999999999", "too large"),
        ("999999999999999h", "too large"),
        ("12:00pm", "'00pm' is not a number"),
        ("m", "no number in it"),
        ("h5", "'h' needs a number before it"),
    ])
    func rejectsWithAMessageNamingTheToken(text: String, reason: String) {
        #expect(throws: DurationParseError(token: text, reason: reason)) { try DurationParser.parse(text) }
        #expect(DurationParseError(token: text, reason: reason).description == "invalid duration '\(text)': \(reason)")
    }
}
