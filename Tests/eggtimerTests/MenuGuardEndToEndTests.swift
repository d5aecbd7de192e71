import Glibc
import TestSupport
import Testing

/// Issue 40 end to end: after an alarm started from the menu is stopped, the keys typed with the
/// stopping one do not silently start an egg (the real binary in a pseudo-terminal).
@Suite struct MenuGuardEndToEndTests {
    /// `x1` typed at once at the ringing: `x` stops it, `1` is ignored and the menu says so; `q`
    /// still quits, with no egg started (exit 0, not 130 after a countdown).
    @Test func aKeyTypedWithTheStopStartsNoEgg() {
        let pty = PseudoTerminal(["--soft", "1s", "-D", "null"])
        #expect(pty.expect("How do you like your eggs?"))
        let mark = pty.output.count
        pty.type("1")
        #expect(pty.expect("Alright, don't choke on them!", after: mark))
        let ringing = pty.output.count
        pty.type("x1")
        #expect(pty.expect("Ignored: the alarm has just stopped. Pick again to start.", after: ringing), "\(pty.text)")
        #expect(!String(decoding: pty.output[ringing...], as: UTF8.self).contains("So you like it Soft huh?"))
        pty.type("q")
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.settingsNow == pty.settingsBefore)
    }
}
