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
        // Every spelling of every unit.
        ("2h", Duration.seconds(7200)), ("2hr", .seconds(7200)), ("2hrs", .seconds(7200)),
        ("2hour", .seconds(7200)), ("2hours", .seconds(7200)),
        ("5m", .seconds(300)), ("5min", .seconds(300)), ("5mins", .seconds(300)),
        ("5minute", .seconds(300)), ("5minutes", .seconds(300)),
        ("90s", .seconds(90)), ("90sec", .seconds(90)), ("90secs", .seconds(90)),
        ("90second", .seconds(90)), ("90seconds", .seconds(90)),
        // Singular or plural, whatever the number.
        ("1 hours", .seconds(3600)), ("2 hour", .seconds(7200)), ("1 minute", .seconds(60)),
        // Any letter case.
        ("5MIN", .seconds(300)), ("2 Hours", .seconds(7200)), ("90Sec", .seconds(90)), ("1H 30M", .seconds(5400)),
        // Spaces and tabs between a number and its unit and between fields.
        ("2 hours", .seconds(7200)), ("90 sec", .seconds(90)), ("1.5 hours", .seconds(5400)),
        ("1h 30m", .seconds(5400)), ("1 h 30 m", .seconds(5400)), ("1h\t30m", .seconds(5400)),
        ("1h   30m", .seconds(5400)), ("1 hour 30 minutes", .seconds(5400)),
        ("1 hr 2 min 3 sec", .seconds(3723)), ("1hour2minutes3seconds", .seconds(3723)),
        ("7 min 30 s", .seconds(450)), (" 2 hours ", .seconds(7200)),
        // A trailing bare number is the next smaller unit, with or without a space.
        ("1 hour 30", .seconds(5400)), ("1h 30", .seconds(5400)), ("2 min 30", .seconds(150)),
        ("1hr30", .seconds(5400)),
        // Fractions in the last field, exact to the millisecond.
        ("0.5 hours", .seconds(1800)), ("1h 0.5m", .seconds(3630)), ("2.5 sec", .milliseconds(2500)),
        ("0.001 seconds", .milliseconds(1)),
        // The maximum, in words.
        ("999 hours 59 minutes 59 seconds", DurationParser.maximum),
    ])
    func acceptsUnitWordsAndSpaces(text: String, expected: Duration) throws {
        #expect(try DurationParser.parse(text) == expected)
    }

    @Test(arguments: [
        ("1h 1h", "'h' given twice"),
        ("1 hour 2 hours", "'hours' given twice"),
        ("1m 2min", "'min' given twice"),
        ("30m 1h", "units must go from h to m to s"),
        ("30 minutes 1 hour", "units must go from h to m to s"),
        ("5 sec 1 min", "units must go from h to m to s"),
        ("1 30", "'1' needs a unit after it"),
        ("1h 30 15", "'30' needs a unit after it"),
        ("1.5 .5", "'1.5' needs a unit after it"),
        ("1s 30", "nothing is smaller than seconds"),
        ("1.5 hours 30 minutes", "only the last field may have a fraction"),
        ("5 ms", "'ms' is not a unit (h, m, s)"),
        ("5msec", "'msec' is not a unit (h, m, s)"),
        ("5 milliseconds", "'milliseconds' is not a unit (h, m, s)"),
        ("2 days", "'days' is not a unit (h, m, s)"),
        ("5 minutesx", "'minutesx' is not a unit (h, m, s)"),
        ("5 mi", "'mi' is not a unit (h, m, s)"),
        ("5 hourss", "'hourss' is not a unit (h, m, s)"),
        ("5 mín", "'mín' is not a unit (h, m, s)"),
        ("5分", "'分' is not a unit (h, m, s)"),
        ("5 !", "'!' is not a unit (h, m, s)"),
        ("1h, 30m", "',' is not a number or a unit (h, m, s)"),
        ("1 hour and 30 minutes", "'and' is not a number or a unit (h, m, s)"),
        ("5 min extra", "'extra' is not a number or a unit (h, m, s)"),
        ("5 min -3", "'-' is not a number or a unit (h, m, s)"),
        ("hours 5", "'hours' needs a number before it"),
        ("5 m s", "'s' needs a number before it"),
        ("min", "no number in it"),
        ("-5 min", "must be more than zero"),
        ("0 hours", "must be more than zero"),
        ("0h 0m 0s", "must be more than zero"),
        ("1000 hours", "longer than the maximum 999:59:59"),
        ("999 hours 60 minutes", "longer than the maximum 999:59:59"),
        ("0.0001 seconds", "finer than a millisecond"),
        ("1:30 min", "'30 min' is not a number"),
    ])
    func rejectsBadUnitWordsNamingThePart(text: String, reason: String) {
        #expect(throws: DurationParseError(token: text, reason: reason)) { try DurationParser.parse(text) }
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

/// The boundary numbers every parser of outside bytes is tried with: each is a duration in range
/// or one clear error naming it, never a trap.
@Suite struct DurationParserBoundaryTests {
    static let boundaries = [
        "0", "-0", "+0", "1", "-1", "+1", "2147483647", "-2147483648", "2147483648", "4294967296",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616",
        "1e999", "-1e999", "1e308", "1e-999", "4.9e-324", "nan", "NaN", "inf", "-inf", "infinity", "0x10", "0.0",
        "-0.0", "0.000000001", "99999999999999999999h", "9223372036854775807:00", "0:9223372036854775807",
        "1:00:9223372036854775807", "9223372036854775807ms", "3600000h", "999:59:59", "999:59:60", "1000:00:00",
        "3599999", "3600000", "59999.99999m", "1.5e3", "1e3s",
    ]

    @Test(arguments: boundaries.flatMap { [$0, $0 + "s", $0 + "m", $0 + "h", "1:" + $0, $0 + ":00"] })
    func boundaryNumbersAreInRangeOrOneNamedError(text: String) {
        do {
            let duration = try DurationParser.parse(text)
            #expect(duration > .zero && duration <= DurationParser.maximum, "\(text)")
        } catch {
            #expect(error.token == text && !error.reason.isEmpty && !error.reason.contains("\n"))
        }
    }

    @Test(arguments: [("999:59:59", Duration.seconds(3_599_999)), ("3599999", .seconds(3_599_999)), ("1", .seconds(1))])
    func theRangesEndsAreAccepted(text: String, expected: Duration) throws {
        #expect(try DurationParser.parse(text) == expected)
    }

    @Test(arguments: ["3600000", "1000:00:00", "999:59:60", "0", "-1", "9223372036854775807", "1e999", "nan"])
    func justBeyondTheEndsIsRefused(text: String) {
        #expect(throws: DurationParseError.self) { try DurationParser.parse(text) }
    }
}
