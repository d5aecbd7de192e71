import ControlChannel
import Glibc
import TestSupport
import Testing

/// Issue 40 end to end: the real `eggtimer kitchen` supervises the timers it follows.
///
/// One that
/// dies by a signal (SIGKILL here, as the OOM killer sends) is recovered from its record at once,
/// with its deadline; one ended by SIGTERM (it says so first) is not; a record left while
/// no kitchen ran is recovered when the kitchen starts. Every wait is on a line or a status.
@Suite struct KitchenSupervisionEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// The pid in `said` (`… (pid 4242 …`).
    private func pid(in said: some StringProtocol) -> pid_t? {
        guard let range = said.firstRange(of: "(pid ") else { return nil }
        return pid_t(String(said[range.upperBound...].prefix { $0.isNumber }))
    }

    /// A kitchen in `house`, listening, and a 10-minute timer `label` started through it.
    /// - Returns: The kitchen and the timer's pid.
    private func kitchenWithTimer(_ label: String, in house: House) throws -> (PipedChild, pid_t) {
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let start = house.command(["start", "10m", "--label", label])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        let timer = try #require(pid(in: start.stdout))
        #expect(kitchen.expect("\(label): started, rings in 10:00 (pid \(timer)) (from shell)", until: soon()))
        return (kitchen, timer)
    }

    @Test func aTimerKilledBySIGKILLIsRecoveredAtOnceWithItsDeadline() throws {
        let house = House(config: "")
        let (kitchen, killed) = try kitchenWithTimer("tea", in: house)
        let deadline = try #require(house.status("tea")?.deadlineUnixMilliseconds)
        kill(killed, SIGKILL)
        #expect(
            kitchen.expect(
                "tea: died (pid \(killed), counting): recovering it from its record (1 of 3)",
                until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("tea: resumed, rings in ", until: soon()), "\(kitchen.stdout)")
        let resumed = try #require(kitchen.stdout.split(separator: "\n").first { $0.hasPrefix("tea: resumed") })
        let new = try #require(pid(in: resumed))
        #expect(kitchen.expect("following tea (pid \(new), counting)", until: soon()), "\(kitchen.stdout)")
        let recovered = try #require(house.status("tea"))
        #expect(recovered.pid == new && new != killed && recovered.state == .counting)
        // The same boot: the recovered deadline is the boot clock's, exact; the wall deadline is
        // worked out from it again, so within a millisecond of the first.
        let moved = try #require(recovered.deadlineUnixMilliseconds) - deadline
        #expect(abs(moved) <= 1, "the deadline moved by \(moved) ms")
        #expect(house.command(["cancel", "tea"]).termination == .exited(0))
        #expect(kitchen.expect("tea: ended (pid \(recovered.pid), cancelled)", until: soon()), "\(kitchen.stdout)")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// SIGTERM is a timer's orderly end (its record stays for a reboot's `recover`): it says so
    /// before it exits with its status, so the kitchen leaves it ended and logs it as ended by
    /// SIGTERM, not as cancelled (issue 41), with what its kept record means.
    @Test func aTimerEndedBySIGTERMIsNotRecovered() throws {
        let house = House(config: "")
        let (kitchen, timer) = try kitchenWithTimer("rice", in: house)
        kill(timer, SIGTERM)
        #expect(
            kitchen.expect(
                "rice: ended by SIGTERM (pid \(timer)); its record is kept: `eggtimer recover rice` starts it again, "
                    + "`eggtimer cancel rice` forgets it", until: soon()), "\(kitchen.stdout)")
        #expect(!kitchen.stdout.contains("rice: ended (pid"), "\(kitchen.stdout)")
        // Something after it, to wait on: a second timer followed.
        let next = house.command(["start", "10m", "--label", "jam"])
        #expect(next.termination == .exited(0), "\(next.stderr)")
        #expect(kitchen.expect("jam: started, rings in ", until: soon()))
        #expect(!kitchen.stdout.contains("recovering"), "\(kitchen.stdout)")
        #expect(house.status("rice") == nil, "not running again")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        #expect(house.command(["cancel", "rice"]).stdout.contains("rice: not running; its kept record is removed"))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// At its start the kitchen follows a running timer once, without the recovery's "already
    /// running" beside it (issue 41); one SIGTERM ended keeps its record, so it comes back (a
    /// session that ended, not only a reboot).
    @Test func theKitchensStartSaysARunningTimerOnce() throws {
        let house = House(config: "")
        let running = house.timer(["10m", "--label", "jam"])
        #expect(running.expect(#""event":"started""#, until: soon()))
        let terminated = house.timer(["10m", "--label", "tea"])
        #expect(terminated.expect(#""event":"started""#, until: soon()))
        kill(terminated.pid, SIGTERM)
        #expect(terminated.finish() == .exited(143))
        let kitchen = house.kitchen()
        // Records are recovered in file-name order: jam's (said nothing of) comes before tea's.
        #expect(kitchen.expect("tea: resumed, rings in ", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("following jam (pid \(running.pid), counting)", until: soon()), "\(kitchen.stdout)")
        #expect(!kitchen.stdout.contains("already running"), "\(kitchen.stdout)")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        #expect(running.finish() == .exited(1))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// A timer that died while no kitchen ran is recovered when the kitchen starts.
    @Test func aRecordLeftByAKilledTimerIsRecoveredWhenTheKitchenStarts() throws {
        let house = House(config: "")
        let killed = try house.killedTimer(["10m", "--label", "pasta"])
        #expect(house.status("pasta") == nil)
        let kitchen = house.kitchen()
        #expect(kitchen.expect("pasta: resumed, rings in ", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("following pasta (pid ", until: soon()), "\(kitchen.stdout)")
        let recovered = try #require(house.status("pasta"))
        #expect(recovered.pid != killed && recovered.state == .counting)
        #expect(house.command(["cancel", "pasta"]).termination == .exited(0))
        #expect(kitchen.expect("pasta: ended (pid \(recovered.pid), cancelled)", until: soon()))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }
}
