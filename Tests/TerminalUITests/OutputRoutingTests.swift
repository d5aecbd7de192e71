import Testing

@testable import TerminalUI

@Suite struct OutputRoutingTests {
    typealias Facts = OutputRouting.Facts

    /// stdin, stdout, stderr terminals; foreground; TERM; --json → UI descriptor, log, keyboard.
    @Test(arguments: [
        // At a terminal: the UI on standard output, keys from it.
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true, foreground: true, term: "xterm",
                json: false),
            OutputRouting(ui: 1, log: .none, keyboard: true)
        ),
        // --json at a terminal: JSON alone, keys still work.
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true, foreground: true, term: "xterm",
                json: true),
            OutputRouting(ui: nil, log: .json, keyboard: true)
        ),
        // `eggtimer 10m --json | jq .`: nothing drawn over the JSON.
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: false, stderrIsTerminal: true, foreground: true, term: "xterm",
                json: true),
            OutputRouting(ui: nil, log: .json, keyboard: true)
        ),
        // `eggtimer 10m > log`: the UI on standard error, plain lines in the log.
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: false, stderrIsTerminal: true, foreground: true, term: "xterm",
                json: false),
            OutputRouting(ui: 2, log: .plain, keyboard: true)
        ),
        // TERM=dumb or unset: plain lines, no escape codes.
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true, foreground: true, term: "dumb",
                json: false),
            OutputRouting(ui: nil, log: .plain, keyboard: true)
        ),
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true, foreground: true, term: nil,
                json: false),
            OutputRouting(ui: nil, log: .plain, keyboard: true)
        ),
        // A terminal type with no terminfo entry (TERM=xterm-nosuch): plain lines, no escape codes.
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true, foreground: true,
                term: "xterm-nosuch", json: false, termHasEntry: false),
            OutputRouting(ui: nil, log: .plain, keyboard: true)
        ),
        // A background job: no keyboard, no UI, plain lines.
        (
            Facts(
                stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true, foreground: false, term: "xterm",
                json: false),
            OutputRouting(ui: nil, log: .plain, keyboard: false)
        ),
        // A service: no terminal at all.
        (
            Facts(
                stdinIsTerminal: false, stdoutIsTerminal: false, stderrIsTerminal: false, foreground: false, term: nil,
                json: false),
            OutputRouting(ui: nil, log: .plain, keyboard: false)
        ),
        // Keys piped in, output to a terminal.
        (
            Facts(
                stdinIsTerminal: false, stdoutIsTerminal: true, stderrIsTerminal: true, foreground: true, term: "xterm",
                json: false),
            OutputRouting(ui: 1, log: .none, keyboard: false)
        ),
    ])
    func routingFollowsTheDescriptors(facts: Facts, routing: OutputRouting) {
        #expect(OutputRouting.decide(facts) == routing)
    }
}

@Suite struct TerminfoTests {
    @Test(arguments: [
        ("xterm", true), ("xterm-256color", true), ("dumb", true), ("xterm-nosuch", false), ("../x", false),
        ("", false),
    ])
    func entriesAreFoundAsNcursesWould(term: String, known: Bool) {
        #expect(Terminfo.hasEntry(term) == known)
    }

    @Test func theSearchFollowsNcursesOrder() {
        let environment = ["TERMINFO": "/t", "HOME": "/h", "TERMINFO_DIRS": "/a::/b"]
        #expect(
            Terminfo.folders { environment[$0] }
                == [
                    "/t", "/h/.terminfo", "/a", "/usr/share/terminfo", "/b", "/etc/terminfo", "/lib/terminfo",
                    "/usr/share/terminfo", "/usr/lib/terminfo",
                ])
    }
}
