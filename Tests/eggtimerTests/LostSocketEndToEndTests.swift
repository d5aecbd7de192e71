import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing

@testable import eggtimer

/// Issue 40, "sockets come back": a control socket file deleted under the real running timer or
/// the real kitchen (a tmp cleaner, a script) is bound again at the same path within the
/// benchmark's 2 s, with one log line, and every client reaches the process again.
@Suite struct LostSocketEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// The pid in `said` (`… (pid 4242)`).
    private func pid(in said: String) -> pid_t? {
        guard let range = said.firstRange(of: "(pid ") else { return nil }
        return pid_t(String(said[range.upperBound...].prefix { $0.isNumber }))
    }

    /// The line a process logs once its socket at `path` was bound again.
    private func rebound(_ path: String) -> String { "control socket \(path) was deleted: bound again" }

    /// Deletes the timer `label`'s socket in `house` and waits until its log says it was bound
    /// again (written after it listens), while a kitchen's log, if any, is read.
    /// - Returns: How long that took from the deletion.
    private func deleteSocket(of label: String, in house: House, kitchen: PipedChild? = nil) throws -> Duration {
        let path = house.sockets + "/" + label + ".sock"
        let deleted = ContinuousClock.now
        #expect(unlink(path) == 0)
        let what = { "\(label) logs that its socket was bound again: \(house.log(label))" }
        let said = { house.log(label).contains("eggtimer: " + rebound(path) + "\n") }
        if let kitchen {
            try eventually(what(), deadline: soon(), meanwhile: { kitchen.readOutput(until: $0) }, said)
        } else {
            try eventually(what(), deadline: soon(), said)
        }
        return ContinuousClock.now - deleted
    }

    /// The case: a ringing timer whose socket went could not be stopped by `ack`.
    @Test func aRingingTimerWhoseSocketWasDeletedIsAcknowledgedAgain() throws {
        let house = House(config: "")
        let start = house.command(["start", "1s", "--label", "tea"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        let watch = try ControlClient.watch(label: "tea", folder: house.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        let took = try deleteSocket(of: "tea", in: house)
        #expect(took < .seconds(2), "bound again \(took) after the deletion")
        let ack = house.command(["ack", "tea"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(ack.stdout == "tea: alarm stopped\n")
        #expect(try watch.awaitState(.done, until: soon()), "the watch begun before the deletion went on")
        let log = house.log("tea")
        #expect(log.split(separator: "\n").filter { $0.contains("bound again") }.count == 1, "one line: \(log)")
    }

    /// The kitchen's own socket deleted: `eggtimer start` goes through the kitchen again (not
    /// around it, as a start does when no kitchen answers).
    @Test func aStartGoesThroughTheKitchenAgainAfterItsSocketWasDeleted() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let path = house.sockets + "/kitchen/kitchen.sock"
        #expect(unlink(path) == 0)
        #expect(kitchen.expect(rebound(path) + "\n", until: soon()), "\(kitchen.stdout)")
        let start = house.command(["start", "10m", "--label", "pie"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        let timer = try #require(pid(in: start.stdout), "\(start.stdout)")
        #expect(kitchen.expect("pie: started, rings in 10:00 (pid \(timer)) (from shell)", until: soon()))
        #expect(house.command(["cancel", "pie"]).termination == .exited(0))
        #expect(kitchen.expect("pie: ended (pid \(timer), cancelled)", until: soon()))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
        #expect(
            kitchen.stdout.split(separator: "\n").filter { $0.contains("bound again") }.count == 1,
            "one line: \(kitchen.stdout)")
    }

    /// A timer the kitchen follows loses its socket: once bound again, the kitchen's commands
    /// (a keypad's "a minute more") reach it again and its follow goes on to its end.
    @Test func theKitchenReachesAndFollowsATimerWhoseSocketCameBack() throws {
        let house = House(config: "announce = no\n", keypad: true)
        try house.addKeypad("event0")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try house.connectKeypad("event0")
        let start = house.command(["start", "10m", "--label", "tea"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        let timer = try #require(pid(in: start.stdout), "\(start.stdout)")
        #expect(kitchen.expect("tea: started, rings in 10:00 (pid \(timer))", until: soon()), "\(kitchen.stdout)")
        _ = try deleteSocket(of: "tea", in: house, kitchen: kitchen)
        let offset = kitchen.stdout.count
        try house.press(.keypadPlus)
        #expect(kitchen.expect("key: tea: ", after: offset, until: soon()), "\(kitchen.stdout)")
        let remaining = house.status("tea")?.remaining ?? .zero
        #expect(remaining > .seconds(600), "a minute more reached the timer: \(remaining)")
        #expect(house.command(["cancel", "tea"]).termination == .exited(0))
        #expect(kitchen.expect("tea: ended (pid \(timer), cancelled)", until: soon()), "\(kitchen.stdout)")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }
}
