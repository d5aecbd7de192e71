import Glibc
import Testing

@testable import SystemKit

@Suite struct UTCTimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_709_210_096_789, "2024-02-29T12:34:56.789Z"),
        (1_709_251_200_000, "2024-03-01T00:00:00.000Z"),
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
    ])
    func textAcrossLeapDaysAndTheEnds(milliseconds: Int64, text: String) {
        #expect(UTCTimestamp.text(unixMilliseconds: milliseconds) == text)
        #expect(UTCTimestamp.unixMilliseconds(text) == milliseconds)
        let (nanoseconds, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000_000)
        if !overflow { #expect(UTCTimestamp.text(unixNanoseconds: nanoseconds + 999_999) == text) }
    }

    @Test func nanosecondsBefore1970RoundDown() {
        #expect(UTCTimestamp.text(unixNanoseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(UTCTimestamp.text(unixNanoseconds: -1_000_001) == "1969-12-31T23:59:59.998Z")
    }

    @Test(arguments: [
        "2100-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-02-30T00:00:00Z",
        "2024-02-29T24:00:00Z", "2024-02-29T12:60:00Z", "2024-02-29 12:00:00Z", "2024-02-29T12:00:00",
        "2024-02-29T12:00:00.Z", "2024-02-29T12:00:00.1234567890Z", "", "Z",
    ])
    func impossibleOrMisshapenTextIsRefused(text: String) {
        #expect(UTCTimestamp.unixMilliseconds(text) == nil)
    }

    @Test func fractionDigitsAreCutToMilliseconds() {
        #expect(UTCTimestamp.unixMilliseconds("2024-02-29T00:00:00.5Z") == 1_709_164_800_500)
        #expect(UTCTimestamp.unixMilliseconds("2024-02-29T00:00:00.123456789Z") == 1_709_164_800_123)
    }
}
