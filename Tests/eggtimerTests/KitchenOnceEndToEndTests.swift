import ControlChannel
import Glibc
import TestSupport
import Testing
import TimerModel

/// Issue 42 end to end: the real kitchen and the real `eggtimer start` act once per request,
/// whatever retries, repeats or a stopped kitchen do.
@Suite struct KitchenOnceEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(30) }

    /// `eggtimer start WORDS` on pipes, its standard error merged into its standard output (so
    /// that its lines can be awaited as they come).
    private func start(_ words: [String], in house: House) -> PipedChild {
        Eggtimer(
            ["start"] + words, environment: house.environment,
            launcher: [SystemTool.sh.path, "-c", "exec \"$0\" \"$@\" 2>&1"]
        )
        .piped()
    }

    @Test func aStartRepeatedWithOneIdOnTheSocketGivesOneTimerAndTheSameAnswer() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let line = ControlRequest.start("10m tea", id: RequestID("shell-1")).line
        let folder = house.sockets + "/kitchen"
        let first = try ControlClient.exchange(line, label: "kitchen", folder: folder, timeout: .seconds(10))
        let again = try ControlClient.exchange(line, label: "kitchen", folder: folder, timeout: .seconds(10))
        #expect(first.hasPrefix("ok\t") && again == first, "\(first) / \(again)")
        #expect(house.runningLabels() == ["tea"])
        #expect(kitchen.expect("a repeat of request shell-1", until: soon()), "\(kitchen.stdout)")
        // The id given to another request starts nothing.
        let other = try ControlClient.exchange(
            ControlRequest.start("11m tea", id: RequestID("shell-1")).line, label: "kitchen", folder: folder,
            timeout: .seconds(10))
        #expect(other.contains("was given to another start"), "\(other)")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// A kitchen killed once it started a timer (its answer lost with it) and started again: the
    /// retry with the same id finds the timer the id started (it carries it, `--request-id`), not a
    /// second one (the tester's page retry that started `Soft-2`, issue 43).
    @Test func aRetryAfterTheKitchenRestartedAnswersWithTheTimerItsIdStarted() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let line = ControlRequest.start("soft", id: RequestID("page-7f3a")).line
        let folder = house.sockets + "/kitchen"
        let first = try ControlClient.exchange(line, label: "kitchen", folder: folder, timeout: .seconds(10))
        kill(kitchen.pid, SIGKILL)
        _ = kitchen.finish()
        let restarted = house.kitchen()
        #expect(restarted.expect("following Soft (pid ", until: soon()), "\(restarted.stdout)")
        let again = try ControlClient.exchange(line, label: "kitchen", folder: folder, timeout: .seconds(10))
        let pid = { (answer: String) in answer.split(separator: "\t").first { $0.hasPrefix("pid=") } }
        #expect(first.hasPrefix("ok\tlabel=Soft\t") && again.hasPrefix("ok\tlabel=Soft\t"), "\(first) / \(again)")
        #expect(pid(first) != nil && pid(again) == pid(first), "\(first) / \(again)")
        #expect(restarted.expect("a repeat of request page-7f3a: Soft runs", until: soon()), "\(restarted.stdout)")
        #expect(house.runningLabels() == ["Soft"], "one timer, not Soft and Soft-2")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        kill(restarted.pid, SIGTERM)
        #expect(restarted.finish() == .exited(0))
    }

    /// A kitchen stopped (Ctrl-Z, SIGSTOP) while `start` asks: `start` asks again with its id,
    /// and once the kitchen continues one timer runs: the request it read late, whose shell had
    /// gone, is not acted on (the tester's `Soft` and `Soft-2`).
    @Test func aStoppedKitchenContinuedWhileStartAsksAgainStartsOneTimer() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        kill(kitchen.pid, SIGSTOP)
        let asking = start(["soft"], in: house)
        #expect(
            asking.expect(
                "eggtimer: start: the kitchen (pid \(kitchen.pid)), stopped (`kill -CONT \(kitchen.pid)` continues it), did not answer within 7 s; asking again (2 of 3)",
                until: soon()),
            "\(asking.stdout)")
        kill(kitchen.pid, SIGCONT)
        #expect(asking.finish(timeout: .seconds(30)) == .exited(0), "\(asking.stdout)")
        #expect(asking.stdout.contains("Soft: started, rings in 5:00 (pid "), "\(asking.stdout)")
        #expect(kitchen.expect("kitchen: a start ('soft') whose shell has gone: not acted on", until: soon()))
        #expect(house.runningLabels() == ["Soft"], "one timer, not Soft and Soft-2")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// A kitchen killed while stopped (it never read the request) leaves `start` certain: it
    /// starts the timer itself, as with no kitchen, and says nothing false first (the tester's
    /// "may have started" after 2 s).
    @Test func aKitchenKilledBeforeItReadTheRequestLeavesStartToStartItDirectly() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        kill(kitchen.pid, SIGSTOP)
        let asking = start(["medium"], in: house)
        #expect(asking.expect("asking again (2 of 3)", until: soon()), "\(asking.stdout)")
        kill(kitchen.pid, SIGKILL)
        _ = kitchen.finish()
        #expect(asking.finish(timeout: .seconds(30)) == .exited(0), "\(asking.stdout)")
        #expect(asking.stdout.contains("Medium: started, rings in "), "\(asking.stdout)")
        #expect(!asking.stdout.contains("may have started") && !asking.stdout.contains("3 of 3"), "\(asking.stdout)")
        #expect(house.runningLabels() == ["Medium"])
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
    }

    /// A kitchen stopped for longer than `start` asks: `start` says "not started", which is
    /// certain: the kitchen, continued, acts on none of the requests.
    @Test func aStartGivenUpIsNeverActedOn() throws {
        let house = House(config: "")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        kill(kitchen.pid, SIGSTOP)
        let given = runEggtimer(["start", "10m", "tea"], environment: house.environment, timeout: .seconds(90))
        #expect(given.termination == .exited(69))
        #expect(
            given.stderr.hasSuffix(
                "eggtimer: start: not started: the kitchen (pid \(kitchen.pid)), stopped (`kill -CONT \(kitchen.pid)` "
                    + "continues it), did not take the request within 21 s\n"), "\(given.stderr)")
        kill(kitchen.pid, SIGCONT)
        let gone = "kitchen: a start ('600s tea') whose shell has gone: not acted on"
        let deadline = soon()
        while kitchen.stdout.split(separator: "\n").filter({ $0 == gone }).count < 3, kitchen.readSome(until: deadline)
        {}
        #expect(kitchen.stdout.split(separator: "\n").filter { $0 == gone }.count == 3, "\(kitchen.stdout)")
        // Something after them, to wait on: the kitchen answers.
        #expect(house.command(["start", "10m", "rice"]).termination == .exited(0))
        #expect(house.runningLabels() == ["rice"])
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }
}
