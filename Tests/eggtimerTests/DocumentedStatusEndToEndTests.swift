import Glibc
import TestSupport
import Testing

/// Issue 41: paths that ended with a status other than the one documented for their case, each
/// with the one line that says why.
@Suite struct DocumentedStatusEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// `start` without a kitchen whose timer refuses its config file ends as the timer did (78,
    /// not 70) with the timer's own line, not "exited with status 78".
    @Test func aStartWhoseTimerRefusesItsConfigFileEndsWith78AndTheTimersLine() {
        let house = House(config: "frob = 1\n")  // its second line is bad
        let start = house.command(["start", "soft"])
        #expect(start.termination == .exited(78), "\(start.stderr)")
        let line = "eggtimer: start: Soft: not started: \(house.configPath ?? ""):2: frob: unknown key ("
        #expect(start.stderr.hasPrefix(line), "\(start.stderr)")
        #expect(start.stderr.split(separator: "\n").count == 1, "one line: \(start.stderr)")
        #expect(start.stdout.isEmpty)
    }

    /// The same through the kitchen: the shell's `start` ends with 78 and the timer's line, and
    /// the kitchen logs that line.
    @Test func aStartThroughTheKitchenWhoseTimerRefusesItsConfigFileEndsWith78() {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()), "\(kitchen.stdout)")
        house.appendConfig("frob = 1\n")  // the kitchen read it whole; its timers read it bad
        let start = house.command(["start", "soft"])
        #expect(start.termination == .exited(78), "\(start.stderr)")
        let line = "Soft: not started: \(house.configPath ?? ""):2: frob: unknown key ("
        #expect(start.stderr.hasPrefix("eggtimer: start: \(line)"), "\(start.stderr)")
        #expect(start.stderr.split(separator: "\n").count == 1, "one line: \(start.stderr)")
        #expect(kitchen.expect(line, until: soon()), "\(kitchen.stdout)")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// A runtime folder too deep for the kitchen's socket path is a configuration (78, as the
    /// table says), not a refusal of the system (71), with one line.
    @Test func aKitchenWhoseRuntimeFolderIsTooDeepForItsSocketEndsWith78() {
        let house = House(config: "")
        let deep = house.runtime + "/" + String(repeating: "d", count: max(1, 100 - house.runtime.utf8.count))
        #expect(mkdir(deep, 0o700) == 0)
        var environment = house.environment
        environment["XDG_RUNTIME_DIR"] = deep
        let kitchen = runEggtimer(["kitchen"], environment: environment)
        #expect(kitchen.termination == .exited(78), "\(kitchen.stderr)")
        #expect(kitchen.stderr.hasPrefix("eggtimer: kitchen: the socket path \(deep)/eggtimer/"), "\(kitchen.stderr)")
        #expect(kitchen.stderr.split(separator: "\n").count == 1, "one line: \(kitchen.stderr)")
    }

    /// `snooze 5m` without `--for` finds no timer labelled `5m` (3) and says how to snooze for 5m.
    @Test func aSnoozeOfALabelThatReadsAsADurationSaysHowToGiveOne() {
        let house = House(config: "")
        let snooze = house.command(["snooze", "5m"])
        #expect(snooze.termination == .exited(3), "\(snooze.stderr)")
        #expect(
            snooze.stderr == "eggtimer: no timer labelled '5m' is running (to snooze for 5m, give --for 5m)\n",
            "\(snooze.stderr)")
    }
}
