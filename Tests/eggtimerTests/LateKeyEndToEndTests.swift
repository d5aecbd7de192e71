import Glibc
import TestSupport
import Testing

/// The process stalled across its deadline (SIGSTOP, then SIGCONT): a key typed while it was
/// stopped is read together with the deadline and must not acknowledge the alarm unheard.
@Suite struct LateKeyEndToEndTests {
    @Test func aKeyTypedWhileStoppedAcrossTheDeadlineIsDroppedAndTheAlarmStillRings() {
        let child = PipedChild(["4", "-D", "null", "--json"])
        #expect(child.expect(#""event":"started""#, until: .now + .seconds(10)))
        // The program read its start before printing that, so its deadline is at most 4 s on.
        let started = ContinuousClock.now
        // There is no event to wait for: the test is about time passing. Stop it well before the
        // deadline, type while it is stopped, continue once the deadline is certainly past.
        child.readOutput(until: started + .milliseconds(2500))
        kill(child.pid, SIGSTOP)
        #expect(child.waitForStop())
        #expect(!child.stdout.contains(#""event":"finished""#), "stopped too late to test anything")
        child.type("+")
        child.readOutput(until: started + .milliseconds(4300))
        kill(child.pid, SIGCONT)
        #expect(child.expect(#""event":"sounding""#, until: .now + .seconds(10)))
        #expect(!child.stdout.contains(#""event":"acknowledged""#))
        child.type("x")
        #expect(child.expect(#""event":"acknowledged""#, until: .now + .seconds(10)))
        #expect(child.finish() == .exited(0))
        let events = child.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst(3).first.map(String.init)
        }
        #expect(events == ["started", "finished", "sounding", "acknowledged"])
        #expect(child.stdout.contains(#""by":"key""#))
    }
}
