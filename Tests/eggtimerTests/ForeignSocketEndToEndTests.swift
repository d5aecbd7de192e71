import Glibc
import TestSupport
import Testing

/// Issue 20, "The client trusts what the server trusts", end to end: another local user (nobody,
/// through setpriv) plants a socket that answers every request with `ok`, and the real
/// `eggtimer ack|cancel|recover` must not believe it.
@Suite struct ForeignSocketEndToEndTests {
    /// The kitchen harness's house (its runtime folder root's, 0700) with a folder of nobody's
    /// where the fake listens before its socket is moved where the test wants it.
    final class House: TestSupport.House {
        let foreign = makePrivateDirectory()
        var folder: String { sockets }
        private var fakes: [PipedChild] = []

        init() {
            super.init()
            #expect(chown(foreign, 65534, 65534) == 0)
        }

        deinit {
            for fake in fakes {
                kill(fake.pid, SIGTERM)
                _ = fake.finish()
            }
            removeDirectory(foreign)
        }

        /// Starts, as user 65534, a listener that answers every line with a ringing timer's status
        /// (which is also an `ok` to any action), and moves its socket to `<folder>/<label>.sock`.
        func plantFake(label: String) {
            let script = """
                use IO::Socket::UNIX; $SIG{PIPE} = "IGNORE";
                my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 64) or die "$!";
                $| = 1; print "listening\\n";
                while (my $c = $s->accept) { <$c>; print $c "ok\\tlabel=\(label)\\tpid=4242\\tstate=ringing\\tremaining_ns=0\\n"; close $c; }
                """
            let fake = PipedChild(
                program: SystemTool.setpriv.path,
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", SystemTool.perl.path, "-e", script,
                    foreign + "/fake.sock",
                ])
            fakes.append(fake)
            #expect(fake.expect("listening", until: .now + .seconds(10)))
            #expect(rename(foreign + "/fake.sock", folder + "/" + label + ".sock") == 0)
        }
    }

    /// The `/tmp` fallback's case: the control folder was made by another user before any timer ran.
    @Test func aFolderPreCreatedByAnotherUserIsNotBelieved() {
        let house = House()
        #expect(mkdir(house.folder, 0o700) == 0 && chown(house.folder, 65534, 65534) == 0)
        house.plantFake(label: "tea")
        for verb in ["ack", "cancel"] {
            let command = house.command([verb, "tea"])
            #expect(command.termination == .exited(3), "\(verb): \(command.stdout)")
            #expect(command.stdout.isEmpty)
            #expect(
                command.stderr
                    == "eggtimer: unsafe runtime folder '\(house.folder)': it belongs to user 65534; its sockets are not trusted\n"
            )
        }
    }

    /// A listener of another user's in this user's own folder (moved there: only root can) is not
    /// believed either: the client asks the kernel who listens (SO_PEERCRED) before it reads a word.
    @Test func aSocketServedByAnotherUserIsNotBelieved() throws {
        let house = House()
        #expect(mkdir(house.folder, 0o700) == 0)
        house.plantFake(label: "tea")
        let ack = house.command(["ack", "tea"])
        #expect(ack.termination == .exited(3), "\(ack.stdout)")
        #expect(ack.stdout.isEmpty)
        #expect(
            ack.stderr == "eggtimer: tea: \(house.folder)/tea.sock is served by user 65534, not by you: not trusted\n")
        let status = house.command(["status"])
        #expect(!status.stdout.contains("4242"), "\(status.stdout)")
        #expect(status.stderr.contains("served by user 65534"), "\(status.stderr) \(status.stdout)")
    }

    @Test(arguments: [(UInt32(65534), UInt16(0o700)), (0, 0o755)])
    func anXDGRuntimeDirThatIsNotTheUsersOwnAndPrivateIsRefused(owner: UInt32, mode: UInt16) {
        let house = House()
        #expect(chown(house.runtime, owner, owner) == 0 && chmod(house.runtime, mode_t(mode)) == 0)
        let why =
            owner != 0 ? "belongs to user \(owner)" : "has mode \(String(mode, radix: 8)), not 700"
        let line = "unsafe runtime folder '\(house.runtime)': it is $XDG_RUNTIME_DIR but \(why)"
        let ack = house.command(["ack", "tea"])
        #expect(ack.termination == .exited(3))
        #expect(ack.stderr == "eggtimer: \(line); its sockets are not trusted\n")
        // The timer refuses it too, in one line, and still counts (stopped here by SIGTERM).
        let timer = runEggtimer(
            ["30s", "--label", "tea", "--json", "-D", "null"], environment: house.environment,
            trigger: Eggtimer.Trigger(stdoutContains: #""event":"started""#) { kill($0, SIGTERM) })
        #expect(timer.stderr.contains("eggtimer: warning: no control socket (\(line)); stop the alarm with kill -USR1"))
        var info = stat()
        #expect(lstat(house.folder, &info) != 0, "no folder made in it")
    }

    /// A killed timer is not skipped as "already running" because a fake answers for it.
    @Test func recoverIsNotFooledByAFakeSocket() throws {
        let house = House()
        let original = PipedChild(["30s", "--label", "tea", "--json", "-D", "null"], environment: house.environment)
        #expect(original.expect(#""event":"started""#, until: .now + .seconds(15)))
        kill(original.pid, SIGKILL)
        #expect(original.finish() == .signaled(SIGKILL))
        #expect(chown(house.folder, 65534, 65534) == 0)
        house.plantFake(label: "tea")

        let recover = house.command(["recover"])
        #expect(!recover.stdout.contains("already running"), "\(recover.stdout)")
        #expect(recover.stdout.contains("tea: resumed"), "\(recover.stdout)")
        #expect(
            recover.stderr.contains(
                "eggtimer: recover: unsafe runtime folder '\(house.folder)': it belongs to user 65534; its sockets are not trusted"
            ))
        // End the resumed timer: "tea: resumed, rings in 0:29 (pid N)".
        let pid = recover.stdout.split(separator: "(pid ").last.flatMap { Int32($0.prefix { $0.isNumber }) }
        let resumed = try #require(pid)
        #expect(resumed != original.pid)
        kill(resumed, SIGTERM)
    }
}
