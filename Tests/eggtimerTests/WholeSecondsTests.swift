import ControlChannel
import HouseBus
import Testing
import TimerCore
import TimerModel

@testable import TimerEngine
@testable import eggtimer

/// One rounding rule for every front: a time of day is cut to its second, a time left rounded up.
///
/// Issue 24: `status` showed RINGS AT one second after the log's "time is up" (it rounded a
/// deadline to the nearest second, the log cut it). The rule is ``WholeSeconds``.
@Suite struct WholeSecondsTests {
    /// 2026-11-30T08:12:03Z, in milliseconds since the epoch (09:12:03 at UTC+1).
    static let nineTwelve: Int64 = 1_796_026_323_000

    /// Instants around the 09:12:03 boundary (milliseconds after it) and the second each front shows.
    static let instants: [(Int64, String)] = [
        (-1001, "09:12:01"), (-1, "09:12:02"), (0, "09:12:03"), (1, "09:12:03"), (499, "09:12:03"),
        (500, "09:12:03"), (999, "09:12:03"), (1000, "09:12:04"),
    ]

    @Test(arguments: instants)
    func aTimeOfDayIsCutToItsSecondOnEveryFront(after: Int64, shown: String) {
        let unixMilliseconds = Self.nineTwelve + after
        // The plain log line ("09:12:03 tea: time is up"), from CLOCK_BOOTTIME nanoseconds.
        let wall = WallClock(offset: { 0 }, local: utcPlusOne.local)
        #expect(wall.localClockText(bootNanoseconds: unixMilliseconds * 1_000_000) == shown, "log")
        #expect(wall.localClockText(bootNanoseconds: unixMilliseconds * 1_000_000 + 999_999) == shown, "log, ns")
        // `status`: RINGS AT, and `--json`'s deadline.
        var status = TimerStatus(
            label: "tea", pid: 1, state: .counting, remaining: .seconds(60), deadlineUnixMilliseconds: unixMilliseconds)
        status.detached = false
        let table = StatusReport.table([status], time: utcPlusOne, now: Self.nineTwelve)
        #expect(table.hasSuffix("  \(shown)\n"), "status: \(table)")
        #expect(StatusReport.json([status], time: utcPlusOne).contains("T\(shown)+01:00"), "status --json")
        // `status --mqtt`: RINGS AT from the retained state's deadline.
        let payload = TimerStatePayload(
            state: "counting", label: "tea", node: "k", durationSeconds: 60, remainingSeconds: 30,
            deadlineUnixMilliseconds: unixMilliseconds)
        let survey = HouseSurvey.table([payload], time: utcPlusOne, nowUnixMilliseconds: Self.nineTwelve)
        #expect(survey.hasSuffix("  \(shown)\n"), "status --mqtt: \(survey)")
        // `snooze`'s answer.
        var snoozed = status
        snoozed.state = .snoozed
        #expect(
            ControlAnswer.outcome(of: snoozed.line, command: .snooze(nil), label: "tea", time: utcPlusOne)
                == .success("tea: snoozed until \(shown)"))
    }

    /// Time left (milliseconds) and what every front shows: rounded up, 0:00 only at none left.
    @Test(arguments: [
        (Int64(0), "0:00"), (-5, "0:00"), (1, "0:01"), (999, "0:01"), (1000, "0:01"), (1001, "0:02"),
        (59_999, "1:00"), (60_000, "1:00"), (3_599_001, "1:00:00"),
    ])
    func aTimeLeftIsRoundedUpOnEveryFront(milliseconds: Int64, shown: String) {
        let left = Duration.milliseconds(milliseconds)
        #expect(left.clockText == shown, "screen and log")
        #expect(WholeSeconds.left(left) == max(0, (milliseconds + 999) / 1000))
        let status = TimerStatus(label: "tea", pid: 1, state: .paused, remaining: left, deadlineUnixMilliseconds: nil)
        #expect(StatusReport.table([status], time: utcPlusOne, now: Self.nineTwelve).contains("  \(shown)  -\n"))
    }

    @Test func theWallSecondIsTheFloorAlsoBefore1970() {
        #expect(WholeSeconds.wallSecond(unixMilliseconds: -1) == -1)
        #expect(WholeSeconds.wallSecond(unixMilliseconds: -1000) == -1)
        #expect(WholeSeconds.wallSecond(unixMilliseconds: -1001) == -2)
        #expect(WholeSeconds.wallSecond(unixNanoseconds: -1) == -1)
        #expect(WholeSeconds.wallSecond(unixNanoseconds: 1_999_999_999) == 1)
        #expect(WholeSeconds.wallSecond(unixMilliseconds: .max) == .max / 1000)
        #expect(WholeSeconds.wallSecond(unixMilliseconds: .min) == .min / 1000 - 1)
    }
}
