import ControlChannel
import Testing

@testable import eggtimer

/// What `status` says of an alarm at a time, the reply fields that carry it (old timers and old
/// clients still understood), and where `at` is documented.
@Suite struct AlarmStatusTests {
    private let alarm = TimerStatus(
        label: "wake", pid: 42, state: "counting", remaining: .seconds(3600),
        deadlineUnixMilliseconds: 1_796_105_700_000, at: "2026-12-01T07:15:00+01:00", every: "weekday",
        clockUnsynchronised: true)

    @Test func theReplyCarriesAtEveryAndAnUnsynchronisedClockAndOldRepliesStillParse() throws {
        #expect(alarm.line.hasSuffix("\tat=2026-12-01T07:15:00+01:00\tevery=weekday\tclock=unsynchronised"))
        #expect(TimerStatus(line: alarm.line) == alarm)
        let old = "ok\tlabel=tea\tpid=7\tstate=counting\tremaining_ns=1000\tdeadline_ms=5"
        let parsed = try #require(TimerStatus(line: old))
        #expect(parsed.at == nil && parsed.every == nil && !parsed.clockUnsynchronised)
    }

    @Test func theTableNamesTheSeriesAndWarnsOfTheClock() {
        let table = StatusReport.table([alarm], time: utcPlusOne)
        #expect(table.contains("07:15:00 (every weekday)\n"), "\(table)")
        #expect(table.hasSuffix("warning: \(ClockSync.warning)\n"))
        let json = StatusReport.json([alarm], time: utcPlusOne)
        #expect(json.contains(#","at":"2026-12-01T07:15:00+01:00","every":"weekday","clock":"unsynchronised"}"#))
    }

    @Test func atIsInTheHelpTheManPageAndTheCompletion() {
        #expect(Options.help.contains("\n  eggtimer at TIME   "))
        #expect(Options.help.contains("--every WHEN"))
        #expect(Options.manPage.contains(".B eggtimer at\n\\fITIME\\fR"))
        #expect(Options.bashCompletion.contains(" pomodoro at\""))
    }
}
