import ControlChannel
import Testing

@testable import TimerEngine
@testable import eggtimer

/// What `status` says of an alarm at a time, the reply fields that carry it (old timers and old
/// clients still understood), and where `at` is documented.
@Suite struct AlarmStatusTests {
    private let alarm = TimerStatus(
        label: "wake", pid: 42, state: .counting, remaining: .seconds(3600),
        deadlineUnixMilliseconds: 1_796_105_700_000, at: "2026-12-01T07:15:00+01:00", every: "weekday",
        clockUnsynchronised: true)

    @Test func theReplyCarriesAtEveryAndAnUnsynchronisedClockAndOldRepliesStillParse() throws {
        #expect(alarm.line.hasSuffix("\tat=2026-12-01T07:15:00+01:00\tevery=weekday\tclock=unsynchronised"))
        #expect(TimerStatus(line: alarm.line) == alarm)
        let old = "ok\tlabel=tea\tpid=7\tstate=counting\tremaining_ns=1000\tdeadline_ms=5"
        let parsed = try #require(TimerStatus(line: old))
        #expect(parsed.at == nil && parsed.every == nil && !parsed.clockUnsynchronised)
    }

    /// Days after Monday 2026-11-30 07:15 (UTC+1), in milliseconds, and RINGS AT for each.
    static let days: [(Int64, String)] = [
        (0, "07:15:00"), (86_400_000, "tomorrow 07:15:00"), (2 * 86_400_000, "Wed 07:15:00"),
        (6 * 86_400_000, "Sun 07:15:00"), (7 * 86_400_000, "2026-12-07 07:15:00"),
        (-86_400_000, "2026-11-29 07:15:00"),
    ]

    /// Monday 2026-11-30 09:12:03 at UTC+1, in milliseconds since the epoch.
    private let monday: Int64 = 1_796_026_323_000

    @Test func theTableNamesTheSeriesAndWarnsOfTheClock() {
        let table = StatusReport.table([alarm], time: utcPlusOne, now: monday)
        #expect(table.contains("  tomorrow 07:15:00 (every weekday)\n"), "\(table)")
        #expect(table.hasSuffix("warning: \(ClockSync.warning)\n"))
        let json = StatusReport.json([alarm], time: utcPlusOne)
        #expect(json.contains(#","at":"2026-12-01T07:15:00+01:00","every":"weekday","clock":"unsynchronised"}"#))
    }

    /// Issue 37: a timer whose alarm reaches no device is `silent` with its reason, in the table
    /// (one warning line each) and in the JSON; an older timer's `device=down` without a reason too.
    @Test func aSilentTimerSaysWhyInTheTableAndTheJSON() {
        var soft = TimerStatus(
            label: "Soft", pid: 43, state: .counting, remaining: .seconds(60),
            deadlineUnixMilliseconds: monday + 60_000,
            deviceDown: true, silentReason: "cannot open audio device 'hw:0': No such file or directory")
        var old = soft
        (old.label, old.state, old.silentReason) = ("tea", .silent, nil)
        let table = StatusReport.table([soft, old], time: utcPlusOne, now: monday)
        #expect(
            table.hasSuffix(
                "warning: Soft: silent: cannot open audio device 'hw:0': No such file or directory\n"
                    + "warning: tea: silent: its alarm reaches no device\n"), "\(table)")
        let json = StatusReport.json([soft, old], time: utcPlusOne)
        #expect(json.contains(#""silent":"cannot open audio device 'hw:0': No such file or directory"}"#), "\(json)")
        #expect(
            json.contains(
                #""state":"silent","remaining_s":60,"deadline":"2026-11-30T09:13:03+01:00","silent":"its alarm reaches no device"}"#
            ), "\(json)")
        soft.deviceDown = false
        #expect(!StatusReport.json([soft], time: utcPlusOne).contains("silent"))
        #expect(!StatusReport.table([soft], time: utcPlusOne, now: monday).contains("silent"))
    }

    /// RINGS AT names the day unless it is today's: tomorrow, a weekday within the week, else the date.
    @Test(arguments: days) func ringsAtNamesTheDayWhenItIsNotToday(later: Int64, text: String) {
        // 2026-11-30 07:15:00 at UTC+1, the morning of `monday`.
        let deadline: Int64 = 1_796_019_300_000 + later
        #expect(utcPlusOne.dayAndClockText(unixMilliseconds: deadline, now: monday) == text)
        var status = alarm
        status.deadlineUnixMilliseconds = deadline
        #expect(StatusReport.table([status], time: utcPlusOne, now: monday).contains("  \(text) (every weekday)\n"))
        #expect(StatusReport.json([status], time: utcPlusOne).contains(#""at":"2026-12-01T07:15:00+01:00""#))
    }

    @Test func atIsInTheHelpTheManPageAndTheCompletion() {
        #expect(Options.help.contains("\n  eggtimer at TIME   "))
        #expect(Options.help.contains("--every WHEN"))
        #expect(Options.manPage.contains(".B eggtimer at\n\\fITIME\\fR"))
        #expect(Options.bashCompletion.contains(" pomodoro at\""))
    }
}
