import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing
import TimerModel

@testable import eggtimer

/// A silent alarm is never reported as a success.
///
/// Issue 37 end to end: a timer whose sound device cannot be opened (`hw:0`: ALSA defines it, and
/// this machine has no card, so the start-up probe fails with ENOENT) is never reported as a
/// success. `start` warns at once (still 0), `status` says `silent` and why, the timer's own end
/// line and the kitchen's log say it rang unheard. Every wait is on a log or a watch.
@Suite struct SilentAlarmEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }
    /// What ALSA says of `hw:0` on a machine without a sound card.
    private let reason = "cannot open audio device 'hw:0': "

    /// A house whose config names `hw:0`, with the kitchen's own answers off (they too would try it).
    private func silentHouse() -> House {
        let house = House(config: "")
        house.writeConfig("device = hw:0\nannounce = no\n")
        return house
    }

    /// The pid in `said` (`… (pid 4242)`).
    private func pid(in said: String) -> pid_t? {
        guard let range = said.firstRange(of: "(pid ") else { return nil }
        return pid_t(String(said[range.upperBound...].prefix { $0.isNumber }))
    }

    @Test func startWarnsStatusSaysSilentAndTheEndLinesSayTheAlarmWasNeverHeard() throws {
        let house = silentHouse()
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let start = house.command(["start", "1s", "--label", "tea"])
        #expect(start.termination == .exited(0), "the timer runs: \(start.stderr)")
        #expect(start.stdout.hasPrefix("tea: started, rings in 0:01 (pid "), "\(start.stdout)")
        #expect(start.stderr.hasPrefix("eggtimer: start: warning: tea will ring silent: \(reason)"), "\(start.stderr)")
        #expect(start.stderr.filter { $0 == "\n" }.count == 1, "one line: \(start.stderr)")
        let timer = try #require(pid(in: start.stdout))
        let watch = try ControlClient.watch(label: "tea", folder: house.sockets)
        #expect(try watch.awaitState(.silent, until: soon()))
        let json = house.command(["status", "--json"])
        #expect(
            json.stdout.contains(#""state":"silent""#) && json.stdout.contains(#""silent":"\#(reason)"#),
            "\(json.stdout)")
        let table = house.command(["status"])
        #expect(table.stdout.contains("warning: tea: silent: \(reason)"), "\(table.stdout)")
        #expect(house.command(["ack", "tea"]).termination == .exited(0))
        #expect(try watch.awaitState(.done, until: soon()))
        #expect(kitchen.expect("tea: ended (pid \(timer), done, silent: \(reason)", until: soon()), "\(kitchen.stdout)")
        let log = house.log("tea")
        let acknowledged = log.split(separator: "\n").first { $0.contains(#""event":"acknowledged""#) } ?? ""
        #expect(acknowledged.contains(#""silent":"\#(reason)"#), "the timer's own end line: \(log)")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test func startWithoutAKitchenWarnsToo() throws {
        let house = silentHouse()
        let start = house.command(["start", "10m", "--label", "rice"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        #expect(start.stderr.hasPrefix("eggtimer: start: warning: rice will ring silent: \(reason)"), "\(start.stderr)")
        #expect(house.command(["cancel", "rice"]).termination == .exited(0))
    }

    @Test func aWorkingDeviceIsNoWarning() throws {
        let house = House(config: "")
        let start = house.command(["start", "10m", "--label", "rice"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        #expect(start.stderr.isEmpty, "\(start.stderr)")
        #expect(!house.command(["status", "--json"]).stdout.contains("silent"))
        #expect(house.command(["cancel", "rice"]).termination == .exited(0))
    }
}
