import Glibc
import Testing
import TextCoding
import TimerEngineTestSupport
import TimerText

@testable import TimerEngine

extension ScheduleTests {
    /// The spaced and trailing forms people type after `at` (issue 24): each with the instant it
    /// means on a fixed date in a fixed zone, and the rest refused with a line listing the forms.
    ///
    /// `TZ` is process-global: this runs inside the serialized ``ScheduleTests``.
    @Suite struct SpokenAlarmTimes {
        /// Monday 2026-11-30 11:00 in Berlin (CET, +01:00), by the POSIX rule (needs no tzdata).
        static let now = utc(2026, 11, 30, 10)

        /// The instant `text` means at ``now`` in Berlin.
        static func instant(_ text: String) throws -> WallInstant {
            try withTimeZone("CET-1CEST,M3.5.0,M10.5.0/3") {
                try LocalTimeResolver().resolve(try AlarmTimeParser.parse(text), now: now).instant
            }
        }

        @Test(arguments: [
            ("7pm", utc(2026, 11, 30, 18)),
            ("7 pm", utc(2026, 11, 30, 18)),
            ("7 PM", utc(2026, 11, 30, 18)),
            ("7 p.m.", utc(2026, 11, 30, 18)),
            ("7p.m.", utc(2026, 11, 30, 18)),
            ("7:30 pm", utc(2026, 11, 30, 18, 30)),
            ("9 am", utc(2026, 12, 1, 8)),  // 09:00 is past at 11:00: tomorrow
            ("12 am", utc(2026, 11, 30, 23)),  // midnight: 00:00 on 1 December
            ("7pm tomorrow", utc(2026, 12, 1, 18)),
            ("7 pm tomorrow", utc(2026, 12, 1, 18)),
            ("07:00 tomorrow", utc(2026, 12, 1, 6)),
            ("tomorrow 7 pm", utc(2026, 12, 1, 18)),
            ("Tomorrow 7:30 AM", utc(2026, 12, 1, 6, 30)),
            ("noon tomorrow", utc(2026, 12, 1, 11)),
            ("midnight tomorrow", utc(2026, 11, 30, 23)),
            ("2026-12-24 7 pm", utc(2026, 12, 24, 18)),
            ("2026-12-24 noon", utc(2026, 12, 24, 11)),
        ])
        func spacedAndTrailingFormsMeanTheirLocalTime(text: String, expected: WallInstant) throws {
            #expect(try Self.instant(text) == expected, "\(text)")
        }

        @Test(arguments: [
            ("7 pm please", "'please' is not part of a time; "),
            ("pm 7", "'pm' is not part of a time; "),
            ("7 pm pm", "'pm' is not part of a time; "),
            ("7 30", "'7' is not part of a time; "),
            ("tomorrow tomorrow 7pm", "'tomorrow' is not part of a time; "),
            ("7pm today", "'today' is not part of a time; "),
            ("at 7pm", "'at' is not part of a time; "),
            ("7", ""),
            ("half past seven", "'half' is not part of a time; "),
        ])
        func otherWordsAreNamedWithTheFormsTimeAccepts(text: String, reason: String) {
            let message = "invalid alarm time '\(text)': \(reason)TIME is one of \(AlarmTimeParser.forms)"
            #expect(throws: UsageError(description: message)) { try AlarmTimeParser.parse(text) }
        }

        @Test func theFormsListEveryWayOfWritingATime() {
            for form in [
                "14:30", "7:05", "7pm", "7 pm", "noon", "midnight", "tomorrow 7:00", "2026-12-24 18:00", "ISO 8601",
            ] {
                #expect(AlarmTimeParser.forms.contains(form), "\(form)")
            }
        }
    }
}
