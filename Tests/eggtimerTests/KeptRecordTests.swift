import ControlChannel
import Glibc
import TestSupport
import Testing
import TimerCore
import TimerText

@testable import TimerEngine
@testable import eggtimer

/// Every timer that can still come back is shown: `status` lists the records no running timer
/// owns (how it ended, time left or overdue, and the two ways out), `cancel LABEL` forgets one,
/// and the boot service's `recover --boot` brings back only what an earlier boot left.
@Suite struct KeptRecordTests {
    typealias House = RecoverEndToEndTests.House

    private let soon = { ContinuousClock.now + .seconds(15) }

    /// A record of a 5-minute countdown labelled `label`, written by `pid` in boot `bootID`,
    /// due `dueIn` from now on both clocks.
    static func record(
        label: String, bootID: String, ended: String? = nil, dueIn: Duration, from now: ContinuousClock.Instant = .now
    ) -> TimerRecord {
        let clock = MonotonicClock()
        let boot = clock.nanoseconds(now.advanced(by: dueIn))
        return TimerRecord(
            label: label, kind: .plain, total: .seconds(300), state: .counting, deadlineBootNanoseconds: boot,
            deadlineUnixNanoseconds: boot + WallClock.system.offset(), remaining: nil, bootID: bootID, pid: 999_999,
            ended: ended)
    }

    @Test func aKeptRecordShowsTimeLeftOrHowOverdueAndTheWaysOut() {
        let now = ContinuousClock.now
        let ahead = KeptRecord(
            record: Self.record(label: "tea", bootID: "b", ended: "SIGTERM", dueIn: .seconds(252), from: now),
            name: "tea.timer",
            bootID: "b", now: now)
        let late = KeptRecord(
            record: Self.record(label: "soup", bootID: "b", dueIn: .seconds(-200), from: now), name: "soup.timer",
            bootID: "b",
            now: now)
        #expect(ahead.overdue == nil && ahead.remaining > .seconds(250) && ahead.remaining <= .seconds(252))
        #expect(late.overdue.map { $0 >= .seconds(200) } == true && late.remaining == .zero)
        let table = StatusReport.table([], kept: [ahead, late], time: .system, now: 0)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == StatusReport.noneRunning)
        #expect(lines[1] == "2 timers not running, kept for `eggtimer recover` (`eggtimer cancel LABEL` forgets one):")
        #expect(lines[2] == "LABEL  ENDED             STATE     LEFT")
        #expect(lines[3].hasPrefix("tea    ended by SIGTERM  counting  4:1"), "\(lines[3])")
        #expect(lines[4] == "soup   process gone      counting  overdue by 3 min")
        let json = StatusReport.json([], kept: [late], time: .system)
        #expect(json.hasPrefix(#"[{"label":"soup","pid":999999,"state":"kept","ended":"gone","#), "\(json)")
        #expect(json.contains(#""recorded_state":"counting","remaining_s":0"#) && json.contains(#""overdue_s":20"#))
    }

    @Test(arguments: [(SIGTERM, "ended by SIGTERM", "SIGTERM"), (SIGKILL, "process gone", "gone")])
    func aKilledTimerIsListedByStatusWithTheWaysOut(signal: Int32, how: String, word: String) {
        let house = House()
        let timer = house.timer(["5m", "--label", "tea"])
        #expect(timer.expect(#""event":"started""#, until: soon()))
        kill(timer.pid, signal)
        _ = timer.finish()
        let status = house.command(["status"])
        #expect(status.termination == .exited(0))
        #expect(status.stdout.hasPrefix("no timers running\n1 timer not running"), "\(status.stdout)")
        #expect(status.stdout.contains("`eggtimer recover`") && status.stdout.contains("`eggtimer cancel LABEL`"))
        #expect(status.stdout.contains("tea    \(how)  counting  "), "\(status.stdout)")
        let json = house.command(["status", "--json"]).stdout
        #expect(json.contains(#""label":"tea","pid":\#(timer.pid),"state":"kept","ended":"\#(word)""#), "\(json)")
    }

    @Test func cancelLabelForgetsAKeptRecordSoRecoverDoesNotBringItBack() {
        let house = House()
        let timer = house.timer(["5m", "--label", "tea"])
        #expect(timer.expect(#""event":"started""#, until: soon()))
        kill(timer.pid, SIGTERM)
        #expect(timer.finish() == .exited(143))
        let cancel = house.command(["cancel", "Tea"])
        #expect(cancel.termination == .exited(0), "\(cancel.stderr)")
        #expect(cancel.stdout == "tea: not running; its kept record is removed: `eggtimer recover` will not start it\n")
        #expect(house.record("tea") == nil)
        #expect(house.command(["status"]).stdout == "no timers running\n")
        #expect(house.command(["recover"]).termination == .exited(3))
        #expect(house.command(["cancel", "tea"]).termination == .exited(3), "nothing left to forget")
    }

    @Test func theBootServiceRecoversWhatAnEarlierBootLeftNotATimerKilledInThisBoot() throws {
        let house = House()
        let timer = house.timer(["5m", "--label", "tea"])
        #expect(timer.expect(#""event":"started""#, until: soon()))
        kill(timer.pid, SIGTERM)
        #expect(timer.finish() == .exited(143))
        let other = Self.record(label: "soup", bootID: "00000000-0000-0000-0000-000000000000", dueIn: .seconds(120))
        var earlier = other
        earlier.alarm.device = "null"
        house.write("soup", earlier.text)

        let boot = house.command(["recover", "--boot"])
        #expect(boot.termination == .exited(0), "\(boot.stderr)")
        #expect(boot.stdout.contains("soup: resumed after a restart, rings in "), "\(boot.stdout)")
        #expect(
            boot.stdout.contains(
                "tea: left alone: it was ended in this boot, not by a reboot; `eggtimer recover` starts it\n"))
        #expect(house.record("tea")?.contains("ended=SIGTERM\n") == true)
        #expect(house.command(["cancel", "soup"]).termination == .exited(0))

        let asked = house.command(["recover"])
        #expect(asked.stdout.contains("tea: resumed, rings in "), "\(asked.stdout)\(asked.stderr)")
        #expect(house.command(["cancel", "tea"]).termination == .exited(0))
    }

    /// `recover --quiet` (the kitchen as it starts, issue 41) says what it did and nothing of a
    /// timer that runs (the kitchen follows it: "already running" beside "following" said one
    /// timer twice); a plain `recover` still says it.
    @Test func recoverQuietSaysNothingOfATimerThatRuns() throws {
        let house = House()
        let running = house.timer(["5m", "--label", "rice"])
        #expect(running.expect(#""event":"started""#, until: soon()))
        _ = try house.killedTimer(["5m", "--label", "jam"])

        let quiet = house.command(["recover", "--quiet"])
        #expect(quiet.termination == .exited(0), "\(quiet.stderr)")
        #expect(quiet.stdout.hasPrefix("jam: resumed, rings in "), "\(quiet.stdout)")
        #expect(quiet.stdout.split(separator: "\n").count == 1, "\(quiet.stdout)")
        let plain = house.command(["recover"])
        #expect(plain.stdout.contains("rice: already running (pid \(running.pid))\n"), "\(plain.stdout)")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        #expect(running.finish() == .exited(1))
    }
}
