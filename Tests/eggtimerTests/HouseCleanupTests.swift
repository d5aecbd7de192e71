import Glibc
import TestSupport
import Testing

/// The harness leaves no timer behind: a house ends at deinit what `cancel --all` cannot reach.
@Suite struct HouseCleanupTests {
    /// A timer started detached (no kitchen) and then stopped (SIGSTOP: it answers no `cancel`)
    /// is gone once its house is.
    @Test func aTimerCancelCannotReachIsEndedWithItsHouse() throws {
        var pid: pid_t = 0
        do {
            let house = House(config: "")
            let start = house.command(["start", "10m", "--label", "left"])
            #expect(start.termination == .exited(0), "\(start.stderr)")
            let status = try #require(house.status("left"))
            pid = status.pid
            #expect(kill(pid, SIGSTOP) == 0)
        }
        try eventually("the stopped timer is ended", deadline: .now + .seconds(20), every: .milliseconds(20)) {
            kill(pid, 0) != 0 || readText("/proc/\(pid)/stat").contains(") Z ")
        }
    }
}
