import Glibc
import TestSupport
import Testing

/// Issue 39 end to end: a real kitchen never blocks its loop on followed timers frozen by SIGSTOP.
///
/// A key press sends `ack` to every ringing timer at once, each exchange with
/// its own deadline: the live timer is stopped without waiting for the frozen ones, and a start
/// through the kitchen is answered while their exchanges still wait. Every wait is on an event
/// (a process's exit, a log line, a command's answer), never a sleep or a measured time.
@Suite struct KitchenFrozenTimersEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }
    /// As many frozen timers as the issue's case: a full kitchen's worth.
    private static let frozenCount = 12

    @Test func aPressStopsTheLiveTimerAndAStartIsAnsweredWhileTheFrozenTimersExchangesWait() throws {
        let pad = House(config: "announce = no\n", keypad: true)
        // The frozen ones ring on no device (`-D hw:0`: no card here), so they write no audio.
        let frozen = (1...Self.frozenCount).map {
            PipedChild(["1s", "--label", "frozen\($0)", "-D", "hw:0", "--json"], environment: pad.environment)
        }
        let live = PipedChild(["1s", "--label", "live", "--json"], environment: pad.environment)
        defer {
            for timer in frozen {
                kill(timer.pid, SIGKILL)
                _ = timer.finish()
            }
        }
        for timer in frozen { #expect(timer.expect(#""event":"finished""#, until: soon()), "\(timer.stdout)") }
        #expect(live.expect(#""event":"sounding""#, until: soon()), "\(live.stdout)")
        try pad.addKeypad("event0")
        // Room beside the frozen ones for the live timer and the start (the default is 12).
        let kitchen = pad.kitchen(["--max-timers", "\(Self.frozenCount + 2)"])
        for timer in frozen {
            #expect(kitchen.expect("(pid \(timer.pid), silent)", until: soon()), "\(kitchen.stdout)")
        }
        #expect(kitchen.expect("following live (pid \(live.pid), ringing)", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try pad.connectKeypad("event0")
        for timer in frozen {
            kill(timer.pid, SIGSTOP)
            #expect(timer.waitForStop())
        }

        let offset = kitchen.stdout.count
        try pad.press(.enter)
        // The live timer got its `ack` and ended, while the frozen ones' exchanges wait.
        #expect(live.finish() == .exited(0), "\(live.stdout)")
        let start = pad.command(["start", "10m", "--label", "tea"])
        #expect(start.termination == .exited(0), "\(start.stderr)")
        #expect(kitchen.expect("(from shell)", after: offset, until: soon()), "\(kitchen.stdout)")
        let answered = String(Array(kitchen.stdout)[offset...])
        #expect(
            !answered.contains("key: "), "the press is answered only once the frozen ones' deadlines pass: \(answered)")

        // Then each frozen timer costs its own deadline, and the answer names the one stopped.
        #expect(kitchen.expect("key: live stopped", after: offset, until: soon()), "\(kitchen.stdout)")
        let lines = String(Array(kitchen.stdout)[offset...]).split(separator: "\n")
        for index in 1...Self.frozenCount {
            #expect(lines.contains("key: frozen\(index): no answer within 2 s (stopped?)"), "\(lines)")
        }
        let startLine = lines.firstIndex { $0.hasSuffix("(from shell)") } ?? lines.endIndex
        let firstKeyLine = lines.firstIndex { $0.hasPrefix("key: ") } ?? lines.startIndex
        #expect(startLine < firstKeyLine, "the start was answered first: \(lines)")
        #expect(pad.command(["cancel", "tea"]).termination == .exited(0))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }
}
