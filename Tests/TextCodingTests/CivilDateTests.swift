import Glibc
import Testing
import TextCoding

/// The calendar arithmetic every date and UTC stamp in eggtimer uses (issue 38: one home).
@Suite struct CivilDateTests {
    /// Every day from 1900 to 2500 against libc's `gmtime_r` (the proleptic Gregorian calendar).
    @Test func civilDatesAgreeWithGmtime() {
        for days in Int64(-25_567)...Int64(193_000) {
            var seconds = time_t(days * 86_400)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let civil = CivilDate.components(daysSinceEpoch: days)
            let expected = (Int64(parts.tm_year) + 1900, Int64(parts.tm_mon) + 1, Int64(parts.tm_mday))
            guard civil == expected else {
                Issue.record("day \(days): \(civil) != \(expected)")
                return
            }
            #expect(CivilDate.daysSinceEpoch(year: civil.year, month: civil.month, day: civil.day) == days)
        }
    }

    @Test func aDateOutsideTheCalendarIsNone() {
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2028, month: 2, day: 29)?.description == "2028-02-29")
        #expect(CivilDate(year: 2026, month: 13, day: 1) == nil)
        #expect(CivilDate.length(ofMonth: Int64(2), year: 2100) == 28)
        #expect(CivilDate.length(ofMonth: 2, year: 2000) == 29)
    }

    @Test func padFillsWithZerosToTheWidth() {
        #expect(pad(7, 2) == "07")
        #expect(pad(Int64(2026), 4) == "2026")
        #expect(pad(UInt8(5), 3) == "005")
        #expect(pad(123, 2) == "123")
    }
}
