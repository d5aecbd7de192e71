import Glibc
import TestSupport
import Testing

@testable import TimerEngine

/// Issue 41: every row of ``ExitStatus/table`` is reached by the real binary in the situation the
/// row documents; a row added without a situation here fails.
@Suite struct StatusTableEndToEndTests {
    /// How long a child has to reach the state a situation waits for.
    private static func soon() -> ContinuousClock.Instant { .now + .seconds(20) }

    /// One situation: what it does, and how the process it watches ended with what it said.
    typealias Situation = @Sendable () -> (termination: Termination?, said: String)

    /// A timer of the house that runs, then `signal`: how it ended.
    private static func signalled(_ signal: Int32) -> (termination: Termination?, said: String) {
        let house = House(sharesState: false)
        let timer = house.timer(["10m", "--label", "signalled"])
        #expect(timer.expect(#""event":"started""#, until: soon()), "\(timer.stdout)")
        kill(timer.pid, signal)
        return (timer.finish(), timer.stdout)
    }

    /// The house's runtime folder's kitchen socket served by a listener that answers `hello`.
    private static func junkKitchen(_ house: House) -> PipedChild {
        let folder = house.sockets + "/kitchen"
        #expect(mkdir(house.sockets, 0o700) == 0 && mkdir(folder, 0o700) == 0)
        let script = """
            use IO::Socket::UNIX; $SIG{PIPE} = "IGNORE";
            my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 8) or die "$!";
            $| = 1; print "listening\\n";
            while (my $c = $s->accept) { <$c>; print $c "hello\\n"; close $c; }
            """
        let fake = PipedChild(program: SystemTool.perl.path, ["-e", script, folder + "/kitchen.sock"])
        #expect(fake.expect("listening", until: soon()))
        return fake
    }

    /// The situation each status documents, by its code.
    static let situations: [Int32: Situation] = [
        0: {
            let run = runEggtimer(["1s", "-D", "null", "--loops", "1"])
            return (run.termination, run.stderr)
        },
        1: {
            let house = House(sharesState: false)
            let timer = house.timer(["10m", "--label", "soup"])
            #expect(timer.expect(#""event":"started""#, until: soon()))
            #expect(house.command(["cancel", "soup"]).termination == .exited(0))
            return (timer.finish(), timer.stdout)
        },
        2: {
            let house = House(sharesState: false)
            let timer = house.timer(["1s", "--ring-for", "1s"])
            return (timer.finish(timeout: .seconds(20)), timer.stdout)
        },
        // A timer that refuses (add -200 with less left): no timer acted (issue 41).
        3: {
            let house = House(sharesState: false)
            let timer = house.timer(["1m", "--label", "stock"])
            #expect(timer.expect(#""event":"started""#, until: soon()))
            let add = house.command(["add", "-200", "stock"])
            #expect(add.stderr.hasPrefix("eggtimer: stock cannot move by -200 s"), "\(add.stderr)")
            return (add.termination, add.stderr)
        },
        64: {
            let run = runEggtimer(["--frob"])
            return (run.termination, run.stderr)
        },
        65: {
            let dir = makePrivateDirectory()
            defer { removeDirectory(dir) }
            writeFile(dir + "/notes.mp3", Array("not audio at all\n".utf8))
            let run = runEggtimer(["1", "--sound", dir + "/notes.mp3", "-D", "null"])
            return (run.termination, run.stderr)
        },
        66: {
            let run = runEggtimer(["1", "--sound", "/nonexistent/alarm.mp3", "-D", "null"])
            return (run.termination, run.stderr)
        },
        // An address this machine lacks (TEST-NET-1; the test's namespace has only loopback).
        69: {
            let house = House(config: "")
            let run = house.command(["kitchen", "--http", "192.0.2.1:8080"])
            #expect(run.stderr.hasPrefix("eggtimer: kitchen: --http 192.0.2.1:8080: "), "\(run.stderr)")
            return (run.termination, run.stderr)
        },
        // No path of eggtimer's own ends in an inconsistency it can be driven into; an answer
        // outside the control protocol (here a kitchen's) is the one a test reaches.
        70: {
            let house = House(config: "")
            let fake = junkKitchen(house)
            let run = house.command(["start", "5m", "--label", "tea"])
            #expect(run.stderr == "eggtimer: start: the kitchen answered something else: hello\n", "\(run.stderr)")
            kill(fake.pid, SIGTERM)
            _ = fake.finish()
            return (run.termination, run.stderr)
        },
        // The system refuses the runtime folder (others may use it).
        71: {
            let house = House(config: "")
            let run = runEggtimer(["kitchen"], environment: house.openRuntimeEnvironment())
            return (run.termination, run.stderr)
        },
        75: {
            let house = House(config: "")
            let kitchen = house.kitchen(["--max-timers", "1"])
            #expect(kitchen.expect("kitchen: listening on", until: soon()))
            #expect(house.command(["start", "10m", "--label", "first"]).termination == .exited(0))
            let run = house.command(["start", "10m", "--label", "stock"])
            kill(kitchen.pid, SIGTERM)
            _ = kitchen.finish()
            return (run.termination, run.stderr)
        },
        78: {
            let house = House(config: "frob = 1\n")
            let run = house.command(["1s", "-D", "null"])
            return (run.termination, run.stderr)
        },
        129: {
            let pty = PseudoTerminal(["-D", "null"])
            #expect(pty.expect("How do you like your eggs?"))
            kill(pty.pid, SIGHUP)
            return (pty.waitForExit(), "")
        },
        130: { signalled(SIGINT) },
        131: { signalled(SIGQUIT) },
        143: { signalled(SIGTERM) },
    ]

    @Test func everyRowHasASituationAndEverySituationARow() {
        let codes = ExitStatus.table.map(\.status.code)
        for code in codes { #expect(Self.situations[code] != nil, "status \(code) has no situation here") }
        for code in Self.situations.keys { #expect(codes.contains(code), "status \(code) is not in the table") }
    }

    @Test(arguments: ExitStatus.table.map(\.status.code))
    func eachRowIsReachedInTheSituationItDocuments(code: Int32) throws {
        let situation = try #require(Self.situations[code], "status \(code) has no situation here")
        let (termination, said) = situation()
        #expect(termination == .exited(code), "\(said)")
    }
}
