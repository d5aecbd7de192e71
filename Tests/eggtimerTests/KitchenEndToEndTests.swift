import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing

@testable import TimerEngine
@testable import eggtimer

/// Issue 26 end to end: the real `eggtimer kitchen` in a private runtime and state folder, the
/// real `eggtimer start` and the other clients beside it, its timers ringing into a file PCM named
/// by a private config file (the kitchen passes no device: its timers read the config themselves).
@Suite struct KitchenEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// The wall clock now, in Unix milliseconds.
    private func wallMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// The pid in `said` (`… (pid 4242)`).
    private func pid(in said: String) -> pid_t? {
        guard let range = said.firstRange(of: "(pid ") else { return nil }
        return pid_t(String(said[range.upperBound...].prefix { $0.isNumber }))
    }

    /// The parent of process `pid`, from `/proc/PID/stat` (the field after the parenthesised name).
    private func parent(of pid: pid_t) -> pid_t? {
        guard let bytes = readFile("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    @Test func startSoftThroughTheKitchenRunsASoftTimerWithItsDeadlineAndLabel() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let before = wallMilliseconds()
        let start = house.command(["start", "soft"])
        let after = wallMilliseconds()
        #expect(start.termination == .exited(0), "\(start.stderr)")
        #expect(start.stdout.hasPrefix("Soft: started, rings in 5:00 (pid "), "\(start.stdout)")
        #expect(start.stderr.isEmpty)
        let timer = try #require(pid(in: start.stdout))
        #expect(parent(of: timer) == kitchen.pid, "the kitchen started it")
        #expect(getsid(timer) == timer, "in a session of its own")
        let status = try #require(house.status("Soft"))
        #expect(status.pid == timer && status.label == "Soft" && status.state == .counting)
        let deadline = try #require(status.deadlineUnixMilliseconds)
        #expect(deadline >= before + 300_000 - 1 && deadline <= after + 300_000 + 1, "\(deadline - before) ms")
        let listed = house.command(["status"])
        #expect(listed.stdout.contains("Soft") && listed.stdout.contains("\(timer)"), "\(listed.stdout)")
        #expect(kitchen.expect("Soft: started, rings in 5:00 (pid \(timer)) (from shell)", until: soon()))
        #expect(house.log("Soft").contains(#""event":"started""#), "its log beside the records")
        // The kitchen's timers say their name when they ring (issue 28), so their record says so.
        let record = house.record("Soft")  // soft.timer: named by the label's key
        #expect(record?.contains("announce=yes") == true, "\(record ?? "no record")")
        #expect(house.command(["cancel", "Soft"]).termination == .exited(0))
        #expect(kitchen.expect("Soft: ended (pid \(timer), cancelled)", until: soon()))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test func aTimerStartedThroughTheKitchenRingsIntoTheFilePCMAndIsAcknowledgedFromAnotherClient() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let start = house.command(["start", "2s", "--label", "tea"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        #expect(start.stdout.hasPrefix("tea: started, rings in 0:02 (pid "), "\(start.stdout)")
        let timer = try #require(pid(in: start.stdout))
        let watch = try ControlClient.watch(label: "tea", folder: house.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        try eventually(
            "the alarm is written to the file PCM", deadline: soon(), every: .milliseconds(20),
            meanwhile: { kitchen.readOutput(until: $0) },
            { house.log("tea").contains(#""event":"sounding""#) && house.captured() > 0 })
        let ack = house.command(["ack", "tea"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(ack.stdout == "tea: alarm stopped\n")
        #expect(try watch.awaitState(.done, until: soon()))
        #expect(kitchen.expect("tea: ended (pid \(timer), done)", until: soon()))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test func aKitchenKilledAndRestartedFindsItsTimerAgain() throws {
        let house = House(config: "")
        let first = house.kitchen()
        #expect(first.expect("kitchen: listening on", until: soon()))
        let start = house.command(["start", "10m", "--label", "pasta"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        let timer = try #require(pid(in: start.stdout))
        kill(first.pid, SIGKILL)
        #expect(first.finish() == .signaled(SIGKILL))
        #expect(house.status("pasta")?.pid == timer, "its timer outlives it")

        let second = house.kitchen()
        #expect(second.expect("following pasta (pid \(timer), counting)", until: soon()), "\(second.stdout)")
        // It counts it against the limit and refuses the label while it runs.
        let again = house.command(["start", "1m", "--label", "pasta"])
        #expect(again.termination == .exited(64))
        #expect(again.stderr == "eggtimer: start: pasta: a timer with this label is running (pid \(timer))\n")
        #expect(house.command(["cancel", "pasta"]).termination == .exited(0))
        #expect(second.expect("pasta: ended (pid \(timer), cancelled)", until: soon()))
        kill(second.pid, SIGTERM)
        #expect(second.finish() == .exited(0))
    }

    @Test func aTimerStartedFromAShellIsFollowedToo() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let shell = PipedChild(["10m", "--label", "rice", "--json"], environment: house.environment)
        #expect(shell.expect(#""event":"started""#, until: soon()))
        #expect(kitchen.expect("following rice (pid \(shell.pid), counting)", until: soon()), "\(kitchen.stdout)")
        #expect(house.command(["cancel", "rice"]).termination == .exited(0))
        #expect(shell.finish() == .exited(1))
        #expect(kitchen.expect("rice: ended (pid \(shell.pid), cancelled)", until: soon()))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// A timer that takes the connection but does not answer (stopped) is one line, never holds
    /// the kitchen (a start goes through meanwhile), and is followed once it answers again.
    @Test func aStoppedTimerIsOneLineAndTriedAgainWhileTheKitchenGoesOn() throws {
        let house = House(config: "")
        let stopped = PipedChild(["10m", "--label", "jam", "--json"], environment: house.environment)
        #expect(stopped.expect(#""event":"started""#, until: soon()))
        kill(stopped.pid, SIGSTOP)
        #expect(stopped.waitForStop())
        let kitchen = house.kitchen()
        #expect(kitchen.expect("jam: no status within 2 s; tried again later", until: soon()), "\(kitchen.stdout)")
        let start = house.command(["start", "10m", "--label", "tea"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        kill(stopped.pid, SIGCONT)
        #expect(kitchen.expect("following jam (pid \(stopped.pid), counting)", until: soon()), "\(kitchen.stdout)")
        #expect(
            kitchen.stdout.split(separator: "\n").filter { $0.hasPrefix("jam: no status") }.count == 1,
            "said once: \(kitchen.stdout)")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        #expect(stopped.finish() == .exited(1))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test func aKitchenEndedBySIGTERMLeavesItsTimerToRingOn() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let start = house.command(["start", "3s", "--label", "rice"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        let timer = try #require(pid(in: start.stdout))
        let watch = try ControlClient.watch(label: "rice", folder: house.sockets)
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
        #expect(kitchen.stdout.contains("kitchen: ended by SIGTERM; its timers run on"))
        #expect(house.status("rice")?.pid == timer, "still there")
        #expect(try watch.awaitState(.ringing, until: soon()), "it rings on without the kitchen")
        #expect(house.command(["ack", "rice"]).termination == .exited(0))
    }

    @Test func theStartOverTheLimitIsRefusedWithTempfailAndOneLine() throws {
        let house = House(config: "")
        let kitchen = house.kitchen(["--max-timers", "2"])
        #expect(kitchen.expect("at most 2 timers", until: soon()))
        for label in ["a", "b"] {
            let start = house.command(["start", "10m", "--label", label])
            #expect(start.termination == .exited(0), "\(start.stderr)")
        }
        let third = house.command(["start", "10m", "--label", "c"])
        #expect(third.termination == .exited(75))
        #expect(third.stderr == "eggtimer: start: c: not started: 2 timers run already (the most: max-timers)\n")
        #expect(third.stdout.isEmpty)
        #expect(house.status("c") == nil, "nothing started")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test(arguments: [
        (
            ["start", "7m", "--on-done", "x"],
            "eggtimer: option '--on-done' does not work with 'start' (only with a timer)\n"
        ),
        (["start", "7m --on-done x"], "eggtimer: start: '--on-done': a start request takes no options\n"),
        (
            ["start", "7m pasta", "--label", "x"],
            "eggtimer: start: 'pasta' and --label 'x': give the label once\n"
        ),
        (["start", "stew"], "eggtimer: start: 'stew' is neither a preset (soft, medium, hard) nor a duration"),
        (["start", "7m", "--label", "a/b"], "eggtimer: option '--label' needs"),
    ])
    func aBadStartIsRefusedWithUsageNamingTheTokenAndStartsNothing(arguments: [String], message: String) {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let start = house.command(arguments)
        #expect(start.termination == .exited(64))
        #expect(start.stderr.hasPrefix(message), "\(start.stderr)")
        #expect(start.stderr.split(separator: "\n").count == 1)
        #expect(ControlClient.labels(in: house.sockets).isEmpty, "nothing started")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
        #expect(!kitchen.stdout.contains("started"))
    }

    /// The kitchen parses the request's text again, never trusting the client that sent it.
    @Test func theKitchenRefusesASmuggledOptionOnItsSocket() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let reply = try ControlClient.exchange(
            ControlRequest.start("7m --on-done x").line, label: "kitchen", folder: house.sockets + "/kitchen")
        #expect(reply == "error\tusage\t'--on-done': a start request takes no options")
        let other = try ControlClient.exchange(
            ControlRequest.status.line, label: "kitchen", folder: house.sockets + "/kitchen")
        #expect(other.hasPrefix("error\tusage\t"))
        #expect(ControlClient.labels(in: house.sockets).isEmpty, "nothing started")
        // A timer answers `start` with its error line.
        let timer = PipedChild(["10m", "--label", "tea", "--json"], environment: house.environment)
        #expect(timer.expect(#""event":"started""#, until: soon()))
        let refused = try ControlClient.exchange(ControlRequest.start("soft").line, label: "tea", folder: house.sockets)
        #expect(refused.hasPrefix("error\t"))
        #expect(house.command(["cancel", "tea"]).termination == .exited(0))
        #expect(timer.finish() == .exited(1))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// `announce = no` in the config file: the kitchen passes no `--announce` (which would win
    /// over the timer's own reading of that line), so its timers ring without a spoken line.
    @Test func announceNoInTheConfigFileKeepsTheKitchensTimersQuiet() throws {
        let house = House(config: "announce = no\n")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let start = house.command(["start", "9m", "quiet"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        let record = readFile(house.state + "/eggtimer/quiet.timer").map { String(decoding: $0, as: UTF8.self) }
        #expect(record?.contains("label=quiet") == true && record?.contains("announce") == false, "\(record ?? "")")
        #expect(house.command(["cancel", "quiet"]).termination == .exited(0))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// A read-only state folder (as root, a read-only bind mount in a private mount namespace;
    /// else mode 0500): `start` starts the timer as a foreground one starts there, with no log
    /// file beside the records, rather than failing with 70 because that log cannot be made.
    @Test func startInAReadOnlyStateFolderStartsTheTimerAnyway() throws {
        let house = House(config: "")
        let records = house.state + "/eggtimer"
        mkdir(house.state, 0o700)
        mkdir(records, 0o700)
        defer { chmod(records, 0o700) }
        let launcher: [String]
        if getuid() == 0 {
            let mount = SystemTool.mount.path
            let script = mount + #" --bind "$0" "$0" && "# + mount + #" -o remount,ro,bind "$0" "$0" && exec "$@""#
            launcher = [SystemTool.unshare.path, "-m", SystemTool.sh.path, "-c", script, records]
        } else {
            chmod(records, 0o500)
            launcher = []
        }
        let start = runEggtimer(["start", "9m", "ro"], environment: house.environment, launcher: launcher)
        #expect(start.termination == .exited(0), "\(start.stderr)")
        #expect(start.stdout.hasPrefix("ro: started, rings in 9:00 (pid "), "\(start.stdout)")
        #expect(house.status("ro")?.state == .counting)
        #expect(house.command(["cancel", "ro"]).termination == .exited(0))
    }

    /// Ctrl-Z (SIGTSTP) stops the kitchen as it stops any program, and SIGCONT (`fg`, `bg`) lets
    /// it go on; Ctrl-\\ (SIGQUIT) ends it as Ctrl-C does (the tester's tmux: Ctrl-Z did nothing).
    @Test func ctrlZStopsTheKitchenAndSIGCONTGoesOn() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        kill(kitchen.pid, SIGTSTP)
        try eventually(
            "stopped", deadline: soon(), every: .milliseconds(20), meanwhile: { kitchen.readOutput(until: $0) },
            {
                processState(kitchen.pid) == "T"
            })
        kill(kitchen.pid, SIGCONT)
        try eventually(
            "running again", deadline: soon(), every: .milliseconds(20), meanwhile: { kitchen.readOutput(until: $0) },
            { processState(kitchen.pid) != "T" })
        let start = house.command(["start", "9m", "after"])
        #expect(start.termination == .exited(0) && start.stdout.contains("(pid "), "\(start.stderr)")
        #expect(kitchen.expect("after: started", until: soon()))
        #expect(house.command(["cancel", "after"]).termination == .exited(0))
        kill(kitchen.pid, SIGQUIT)
        #expect(kitchen.expect("kitchen: ended by SIGQUIT; its timers run on", until: soon()))
        #expect(kitchen.finish() == .exited(0))
    }

    /// The state letter of `pid` in /proc/PID/stat (R, S, T, Z…), nil when it is gone.
    private func processState(_ pid: pid_t) -> Character? {
        guard let bytes = readFile("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].first { $0 != " " }
    }

    @Test func startWithNoKitchenStartsTheTimerDirectlyAndRefusesALabelInUse() throws {
        let house = House(config: "")
        let start = house.command(["start", "10m", "--label", "direct"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        #expect(start.stdout.hasPrefix("direct: started, rings in 10:00 (pid "), "\(start.stdout)")
        let timer = try #require(pid(in: start.stdout))
        #expect(getsid(timer) == timer, "in a session of its own")
        #expect(house.status("direct")?.pid == timer)
        #expect(house.log("direct").contains(#""event":"started""#))
        let again = house.command(["start", "1m", "--label", "direct"])
        #expect(again.termination == .exited(64))
        #expect(again.stderr == "eggtimer: start: direct: a timer with this label is running (pid \(timer))\n")
        #expect(house.command(["cancel", "direct"]).termination == .exited(0))
    }

    /// Issue 41: its command line is fine, so not 64 (EX_USAGE) but 75 (EX_TEMPFAIL): it may run
    /// once the first one ends.
    @Test func aSecondKitchenOfTheSameUserIsRefusedWith75() {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let second = house.command(["kitchen"])
        #expect(second.termination == .exited(75))
        #expect(
            second.stderr == "eggtimer: kitchen: another kitchen of this user runs (\(house.sockets)/kitchen)\n",
            "\(second.stderr)")
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test(arguments: ["0", "100", "-1", "1x", "999"])
    func aMaxTimersOutOfRangeIsRefusedNamingIt(value: String) {
        let run = runEggtimer(["kitchen", "--max-timers", value])
        #expect(run.termination == .exited(64))
        #expect(
            run.stderr.contains("'--max-timers' needs a whole number from 1 to 99, got '\(value)'"), "\(run.stderr)")
    }
}
