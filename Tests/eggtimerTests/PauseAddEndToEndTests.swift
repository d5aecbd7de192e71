import Glibc
import TestSupport
import Testing

/// `eggtimer pause|resume|add` end to end: a real headless timer, the real client commands in the
/// same private runtime folder, the socket's new verbs between them.
@Suite struct PauseAddEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(15) }

    @Test func pauseAddAndResumeReachTheRunningTimerAndRefusalsAreTheTimersWords() {
        let house = House(sharesState: false)
        let timer = house.timer(["1h", "--label", "stock"], capture: "stock")
        #expect(timer.expect(#""event":"started""#, until: soon()))

        let paused = house.command(["pause"])
        #expect(paused.termination == .exited(0), "\(paused.stderr)")
        #expect(paused.stdout == "stock: paused\n")
        #expect(timer.expect(#""event":"paused""#, until: soon()))
        #expect(house.command(["status"]).stdout.contains(" paused "))

        let again = house.command(["pause", "stock"])
        #expect(again.termination == .exited(3))
        #expect(again.stderr == "eggtimer: stock is paused, not counting\n")

        let added = house.command(["add", "-600", "stock"])
        #expect(added.termination == .exited(0), "\(added.stderr)")
        #expect(added.stdout == "stock: 600 s taken off\n")
        #expect(timer.expect(#""by_s":-600"#, until: soon()))
        let resumed = house.command(["resume"])
        #expect(resumed.stdout == "stock: resumed\n", "\(resumed.stderr)")
        #expect(timer.expect(#""event":"resumed""#, until: soon()))
        let tooFar = house.command(["add", "-86400"])
        #expect(tooFar.termination == .exited(3))
        #expect(tooFar.stderr.hasPrefix("eggtimer: stock cannot move by -86400 s"), "\(tooFar.stderr)")

        #expect(house.command(["cancel"]).termination == .exited(0))
        #expect(timer.finish() == .exited(1))
    }

    @Test(arguments: [
        (["add"], "missing amount for 'add'"), (["add", "ten"], "invalid amount 'ten' for 'add'"),
        (["add", "0"], "invalid amount '0' for 'add'"), (["add", "86401"], "invalid amount '86401' for 'add'"),
        (["add", "-9223372036854775808"], "invalid amount '-9223372036854775808' for 'add'"),
        (["add", "60", "a/b"], "invalid label 'a/b'"), (["pause", "a/b"], "invalid label 'a/b'"),
    ])
    func badAmountsAreUsageErrorsNamingTheToken(arguments: [String], message: String) {
        let result = runEggtimer(arguments, environment: [:])
        #expect(result.termination == .exited(64))
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
