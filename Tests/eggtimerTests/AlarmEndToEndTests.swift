import Glibc
import SystemKit
import TestSupport
import Testing
import TextCoding
import TimerText

@testable import TimerEngine
@testable import eggtimer

/// `eggtimer at` run as a user would: the time as typed, rejections, the ring's lateness against
/// the wall clock, and the wall-clock timerfd the loop waits on.
@Suite struct AlarmEndToEndTests {
    /// The wall clock now, in nanoseconds since the Unix epoch.
    private static func wallNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `HH:MM:SS` (UTC) of `unixSeconds`.
    private static func utcClock(_ unixSeconds: Int64) -> String {
        let seconds = Int(unixSeconds % 86_400)
        return "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of `unixSeconds`.
    private static func utcISO(_ unixSeconds: Int64) -> String {
        "\(CivilDate(daysSinceEpoch: Int(unixSeconds / 86_400)))T\(utcClock(unixSeconds))Z"
    }

    /// Milliseconds since the epoch of the JSON `time` field (`2026-11-30T11:01:00.000Z`).
    private static func unixMilliseconds(ofTime text: Substring) -> Int64? {
        let parts = text.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
        guard parts.count == 7, let date = CivilDate(year: parts[0], month: parts[1], day: parts[2]) else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(parts[3] * 3600 + parts[4] * 60 + parts[5])
        return seconds * 1000 + Int64(parts[6])
    }

    /// The value of the JSON string field `key` in the first line of `stdout` with event `name`.
    private static func field(_ key: String, of name: String, in stdout: String) -> Substring? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.contains(#""event":"\#(name)""#) }) else {
            return nil
        }
        let pieces = line.split(separator: #""\#(key)":""#, maxSplits: 1)
        return pieces.count == 2 ? pieces[1].prefix { $0 != "\"" } : nil
    }

    @Test(arguments: [
        (["at"], "''"), (["at", "25:00"], "'25:00'"), (["at", "7:5"], "'7:5'"), (["at", "13pm"], "'13pm'"),
        (["at", "soon"], "'soon'"), (["at", "2026-02-30", "10:00"], "'2026-02-30 10:00'"),
        (["at", "2026-12-24T18:00+25:00"], "'+25:00'"), (["at", "tomorrow"], "'tomorrow'"),
        (["at", "2020-01-01", "10:00"], "'2020-01-01 10:00': it is in the past"),
        (["at", "2020-01-01T10:00"], "'2020-01-01T10:00': it is in the past"),
        (["at", "2020-01-01T10:00Z"], "'2020-01-01T10:00Z': 2020-01-01 10:00 UTC is in the past"),
        // The calendar's ends, and instants whose nanoseconds pass Int64 (these trapped, exit 132).
        (["at", "0001-01-01", "00:00"], "'0001-01-01 00:00': it is in the past"),
        (["at", "9999-12-31", "23:59"], "'9999-12-31 23:59': it is more than 999:59:59 ahead"),
        (["at", "0001-01-01T00:00+23:59"], "'0001-01-01T00:00+23:59': it is in the past"),
        (["at", "9999-12-31T23:59:59-23:59"], "'9999-12-31T23:59:59-23:59': it is more than 999:59:59 ahead"),
        (["at", "1677-09-21T00:12:43Z"], "'1677-09-21T00:12:43Z': it is in the past"),
        (["at", "2262-04-11T23:47:17Z"], "'2262-04-11T23:47:17Z': it is more than 999:59:59 ahead"),
        (["at", "2262-04-11T23:47:16Z"], "'2262-04-11T23:47:16Z': it is more than 999:59:59 ahead"),
        (["at", "0000-01-01", "00:00"], "'0000-01-01 00:00': there is no day 0000-01-01"),
        (["5m", "--every", "day"], "'--every'"), (["soft", "--every", "day"], "'--every'"),
        (["at", "7:00", "--every", "fortnight"], "'fortnight'"), (["at", "7:00", "--every", "30s"], "'30s'"),
        (["at", "7:00", "--every"], "'--every'"), (["at", "7", "pm", "please"], "'please' is not part of a time"),
        (["at", "7"], "TIME is one of 14:30, 7:05, 7pm, 7 pm, noon, midnight, tomorrow 7:00"),
    ])
    func badTimesAreOneLineNamingTheTokenAndExit64(arguments: [String], token: String) {
        let result = runEggtimer(arguments + ["-D", "null"], timeout: .seconds(10))
        #expect(result.termination == .exited(64))
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("eggtimer: ") && result.stderr.contains(token), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: [
        (["14:30"], "T14:30:00+01:00"), (["7:05"], "T07:05:00+01:00"), (["7pm"], "T19:00:00+01:00"),
        (["noon"], "T12:00:00+01:00"), (["tomorrow", "07:00"], "T07:00:00+01:00"),
        (["tomorrow 7:30am"], "T07:30:00+01:00"), (["7", "pm"], "T19:00:00+01:00"),
        (["7:30", "PM"], "T19:30:00+01:00"), (["7pm", "tomorrow"], "T19:00:00+01:00"),
        (["noon", "tomorrow"], "T12:00:00+01:00"), (["tomorrow", "7", "am"], "T07:00:00+01:00"),
    ])
    func acceptedTimesStartAnAlarmAtThatLocalTime(time: [String], at: String) {
        // November to March in Berlin is CET (+01:00): the time-of-day forms land there this season
        // or say CEST; accept either for them, the dated ones are exact.
        let started = Eggtimer.Trigger(stdoutContains: #""event":"started""#) { pid in kill(pid, SIGINT) }
        let result = runEggtimer(
            ["at"] + time + ["--json", "-D", "null"], environment: ["TZ": "Europe/Berlin"], timeout: .seconds(15),
            trigger: started)
        #expect(result.termination == .exited(130), "\(result.stderr)")
        let scheduled = Self.field("at", of: "started", in: result.stdout).map(String.init) ?? ""
        let summer = at.dropLast(6) + "+02:00"
        #expect(scheduled.hasSuffix(at) || (at.hasPrefix("T") && scheduled.hasSuffix(summer)), "\(result.stdout)")
    }

    /// Dated forms ten days ahead start at that local time; forty-three days ahead is refused.
    ///
    /// An alarm may be at most 999:59:59 ahead. `TZ` is a rule without daylight saving time
    /// (always +01:00), so the dates may be any on which the suite runs.
    @Test func datedTimesWithinTheRangeStartAndLaterOnesAreRefused() throws {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let today = Int(now.tv_sec / 86_400)
        let soon = CivilDate(daysSinceEpoch: today + 10).description
        let late = CivilDate(daysSinceEpoch: today + 43).description
        let cases: [([String], String)] = [
            ([soon, "18:00"], "\(soon)T18:00:00+01:00"), (["\(soon)T18:00:30"], "\(soon)T18:00:30+01:00"),
            (["\(soon)T18:00Z"], "\(soon)T19:00:00+01:00"), (["\(soon)T08:00-04:00"], "\(soon)T13:00:00+01:00"),
        ]
        for (time, at) in cases {
            let started = Eggtimer.Trigger(stdoutContains: #""event":"started""#) { pid in kill(pid, SIGINT) }
            let result = runEggtimer(
                ["at"] + time + ["--json", "-D", "null"], environment: ["TZ": "CET-1"], timeout: .seconds(15),
                trigger: started)
            #expect(result.termination == .exited(130), "\(time): \(result.stderr)")
            #expect(Self.field("at", of: "started", in: result.stdout) == Substring(at), "\(result.stdout)")
        }
        for time in [[late, "18:00"], ["\(late)T18:00Z"]] {
            let result = runEggtimer(
                ["at"] + time + ["-D", "null"], environment: ["TZ": "CET-1"], timeout: .seconds(10))
            #expect(result.termination == .exited(64))
            let token = time.joined(separator: " ")
            #expect(result.stderr == "eggtimer: invalid alarm time '\(token)': \(LocalTimeResolver.tooFarReason)\n")
        }
    }

    /// A `TZ` that names no zone file (glibc then uses UTC) gets one warning line and the alarm
    /// goes on (also with the plain log); a real zone, a POSIX rule and `:`+path get none.
    @Test(arguments: [
        ("Nowhere/Bogus", true), (":Nowhere/Bogus", true), (":/nonexistent/zone", true), ("Europe/Berlin", false),
        ("CET-1CEST,M3.5.0,M10.5.0/3", false), (":/usr/share/zoneinfo/Europe/Berlin", false), ("UTC", false),
    ])
    func anUnknownTimeZoneIsWarnedOfOnce(tz: String, warned: Bool) {
        let started = Eggtimer.Trigger(stdoutContains: "started") { pid in kill(pid, SIGINT) }
        let result = runEggtimer(
            ["at", "7:00", "-D", "null"], environment: ["TZ": tz], timeout: .seconds(15), trigger: started)
        #expect(result.termination == .exited(130), "\(result.stderr)")
        #expect(result.stdout.contains("started, rings "), "the plain log goes on: \(result.stdout)")
        let warning = "eggtimer: warning: TZ '\(tz)' is not a known time zone; times are in UTC\n"
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.contains("time zone") }.count == (warned ? 1 : 0), "\(result.stderr)")
        #expect(result.stderr.contains(warning) == warned, "\(result.stderr)")
    }

    @Test func aPOSIXRuleIsNotAZoneName() {
        #expect(TimeZoneCheck.isPOSIXRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(TimeZoneCheck.isPOSIXRule("<+0530>-5:30") && TimeZoneCheck.isPOSIXRule("EST5"))
        #expect(!TimeZoneCheck.isPOSIXRule("Nowhere/Bogus") && !TimeZoneCheck.isPOSIXRule("AB1"))
        let none: (String) -> Bool = { _ in false }
        #expect(TimeZoneCheck.warning(tz: nil, zoneFolder: "/z", exists: none) == nil)
        #expect(TimeZoneCheck.warning(tz: "Foo", zoneFolder: "/z", exists: { $0 == "/z/Foo" }) == nil)
        #expect(TimeZoneCheck.warning(tz: "../../etc/passwd", zoneFolder: "/z", exists: { _ in true }) != nil)
    }

    /// `eggtimer at HH:MM` for the next wall-clock minute (at least 5 s away: up to 65 s, which
    /// other tests' time in parallel mostly hides), as the issue asks, and `at HH:MM:SS` a few
    /// seconds ahead: rings on a file PCM at that wall-clock time.
    @Test(arguments: [true, false])
    func theAlarmRingsWithin50MillisecondsOfTheWallClockTime(nextMinute: Bool) throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let now = Self.wallNanoseconds() / 1_000_000_000
        let minute = (now / 60 + 1) * 60
        let target = nextMinute ? (minute - now < 5 ? minute + 60 : minute) : now + 4
        // Near midnight a time of day with seconds could mean tomorrow: give the date then. HH:MM
        // of the next minute is always right (00:00 past today means tomorrow's).
        let text =
            nextMinute
            ? String(Self.utcClock(target).prefix(5))
            : target % 86_400 < 86_390 ? Self.utcClock(target) : Self.utcISO(target)
        let result = runEggtimer(
            ["at", text, "--json", "-D", "file:'\(dir)/capture.raw',raw", "--loops", "1"],
            environment: ["TZ": "UTC"], timeout: .seconds(100))
        #expect(result.termination == .exited(0), "\(result.stderr)")
        let sounding = try #require(
            Self.field("time", of: "sounding", in: result.stdout).flatMap(Self.unixMilliseconds))
        let lateness = sounding - target * 1000
        #expect(lateness >= -1 && lateness <= 50, "rang \(lateness) ms after \(text) UTC")
        #expect(
            Self.field("at", of: "sounding", in: result.stdout) == Substring(Self.utcISO(target).dropLast() + "+00:00"))
        #expect((readFile(dir + "/capture.raw")?.count ?? 0) > 0)
        let line = result.stdout.split(separator: "\n").first { $0.contains(#""event":"sounding""#) } ?? ""
        let mono = ["t_mono_ns", "deadline_t_mono_ns"].map { key in
            line.split(separator: "\"\(key)\":").last.flatMap { Int64(String($0.prefix { $0.isNumber })) } ?? 0
        }
        print(
            "eggtimer at \(text): first frame \(lateness) ms after the wall-clock second, \(mono[0] - mono[1]) ns after the deadline"
        )
    }

    @Test func theLoopWaitsOnAWallClockTimerThatTheClockBeingSetCancels() throws {
        let target = Self.wallNanoseconds() / 1_000_000_000 + 3600
        let (pid, reader) = Eggtimer(["at", Self.utcISO(target), "--json", "-D", "null"]).intoPipe()
        defer {
            close(reader)
            kill(pid, SIGINT)
            _ = waitForExit(pid)
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(reader, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { line.append(byte) }
        #expect(String(decoding: line, as: UTF8.self).contains(#""event":"started""#))
        // Arming follows the first event by microseconds and makes no event: look every 5 ms.
        var armed: DetachedEndToEndTests.TimerInfo?
        var readAt: Int64 = 0
        try eventually("the wall-clock timer is armed", deadline: .now + .seconds(10), every: .milliseconds(5)) {
            readAt = Self.wallNanoseconds()
            armed = DetachedEndToEndTests.timers(of: pid).first { $0.clockID == Int(CLOCK_REALTIME) && $0.left > .zero }
            return armed != nil
        }
        let timer = try #require(armed)
        #expect(timer.settimeFlags == "03")  // TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET
        let firesAt = Duration.nanoseconds(readAt) + timer.left
        let error = firesAt - .seconds(target)
        #expect(error < .milliseconds(50) && error > .milliseconds(-50), "fires \(error) off the target")
    }

    /// A repeating weekday alarm killed with SIGKILL comes back with `eggtimer recover`: `status`
    /// shows its next occurrence and series, and `cancel` ends the series (its record goes).
    @Test func aWeekdaySeriesKilledWithSIGKILLIsRecoveredAndCancelEndsIt() throws {
        let house = RecoverEndToEndTests.House()
        let environment = house.environment.merging(["TZ": "Europe/Berlin"]) { $1 }
        let soon = ContinuousClock.now + .seconds(15)
        let original = PipedChild(
            ["at", "07:15", "--every", "weekday", "--label", "wake", "--json", "-D", "null"], environment: environment)
        #expect(original.expect(#""event":"started""#, until: soon))
        #expect(house.record("wake")?.contains("every=weekday\n") == true)
        kill(original.pid, SIGKILL)
        #expect(original.finish() == .signaled(SIGKILL))

        let recover = runEggtimer(["recover"], environment: environment)
        #expect(recover.termination == .exited(0), "\(recover.stderr)")
        #expect(recover.stdout.hasPrefix("wake: resumed, rings ") && recover.stdout.contains("(every weekday)"))
        let status = runEggtimer(["status", "--json"], environment: environment)
        #expect(
            status.stdout.contains(#""every":"weekday""#) && status.stdout.contains(#"T07:15:00+0"#), "\(status.stdout)"
        )
        let resumed = try #require(
            recover.stdout.split(separator: "(pid ").last.flatMap { pid_t(String($0.prefix { $0.isNumber })) })
        let pidfd = (try? FileDescriptor.process(resumed))?.release() ?? -1
        defer { if pidfd >= 0 { close(pidfd) } }
        #expect(runEggtimer(["cancel", "wake"], environment: environment).termination == .exited(0))
        var ended = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        #expect(pidfd >= 0 && poll(&ended, 1, 20_000) == 1, "the series ended")
        #expect(house.record("wake") == nil, "cancel ends the series and removes its record")
    }
}
