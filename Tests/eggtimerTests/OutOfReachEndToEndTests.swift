import Glibc
import TestSupport
import Testing

/// Issue 40 end to end: nothing starts out of reach.
///
/// A detached start whose timer could have no
/// control socket (its path would pass the 107 bytes a socket address holds) is refused before
/// anything runs, with one line and 64, through the kitchen and without one; a retry cannot start
/// a second timer, as none started.
@Suite struct OutOfReachEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }
    /// 40 bytes: with the deeper runtime folder below, its socket path is 114 bytes.
    private let label = String(repeating: "l", count: 40)

    /// A house whose `XDG_RUNTIME_DIR` is a folder 59 bytes long: the kitchen's own socket fits
    /// (89 bytes), a 40-byte label's (114) does not.
    private func deepHouse() -> (House, [String: String]) {
        let house = House(config: "")
        let deep = house.runtime + "/a-deeper-runtime-folder-for-paths"
        #expect(mkdir(deep, 0o700) == 0)
        var environment = house.environment
        environment["XDG_RUNTIME_DIR"] = deep
        return (house, environment)
    }

    private func expectRefused(_ result: Eggtimer.Finished, house: House, environment: [String: String]) {
        let path = (environment["XDG_RUNTIME_DIR"] ?? "") + "/eggtimer/\(label).sock"
        #expect(result.termination == .exited(64), "\(result.stderr)")
        #expect(
            result.stderr
                == "eggtimer: start: \(label): not started: the socket path \(path) is \(path.utf8.count) bytes, "
                + "more than the 107 a socket address holds: give a shorter label or XDG_RUNTIME_DIR\n")
        #expect(result.stdout.isEmpty)
        #expect(!house.files().contains { $0.hasPrefix(label) }, "no log, no record: nothing ran")
    }

    @Test func aStartWithoutAKitchenWhoseSocketWouldNotFitIsRefusedBeforeAnythingRuns() {
        let (house, environment) = deepHouse()
        let start = { runEggtimer(["start", "10m", "--label", label], environment: environment) }
        expectRefused(start(), house: house, environment: environment)
        expectRefused(start(), house: house, environment: environment)
    }

    @Test func aStartThroughTheKitchenWhoseSocketWouldNotFitIsRefusedBeforeAnythingRuns() {
        let (house, environment) = deepHouse()
        let kitchen = PipedChild(["kitchen"], environment: environment)
        #expect(kitchen.expect("kitchen: listening on", until: soon()), "\(kitchen.stdout)")
        expectRefused(
            runEggtimer(["start", "10m", "--label", label], environment: environment), house: house,
            environment: environment)
        #expect(kitchen.expect("\(label): not started: the socket path ", until: soon()), "\(kitchen.stdout)")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// An `XDG_RUNTIME_DIR` others may use (as one left over from `su`, or made by another user,
    /// fails the same rule): the kitchen says why and which folder would work, and exits 71; so
    /// does a start without a kitchen, refused before anything runs.
    @Test func aRuntimeFolderThatCannotBeUsedIsSaidWithOneThatWould() {
        let house = House(config: "")
        let environment = house.openRuntimeEnvironment()
        let kitchen = runEggtimer(["kitchen"], environment: environment)
        #expect(kitchen.termination == .exited(71))
        #expect(kitchen.stderr.hasPrefix("eggtimer: kitchen: "), "\(kitchen.stderr)")
        #expect(kitchen.stderr.contains("mode 755, not 700"), "\(kitchen.stderr)")
        #expect(
            kitchen.stderr.contains("; set XDG_RUNTIME_DIR to a folder of yours with mode 700")
                || kitchen.stderr.contains("would work"), "\(kitchen.stderr)")
        #expect(kitchen.stderr.split(separator: "\n").count == 1, "one line: \(kitchen.stderr)")
        let start = runEggtimer(["start", "10m", "--label", "tea"], environment: environment)
        #expect(start.termination == .exited(71), "\(start.stderr)")
        #expect(start.stderr.hasPrefix("eggtimer: start: tea: not started: "), "\(start.stderr)")
        #expect(!house.files().contains { $0.hasPrefix("tea") }, "nothing ran")
    }
}
