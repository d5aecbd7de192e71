import AlarmAudio
import Glibc
import TestSupport
import Testing

/// A hang-up (an SSH session dropped, a terminal window closed) never silences an alarm.
///
/// The terminal's master side is closed under a running timer, as sshd does, and the timer goes
/// on headless, listed by `status` as detached, and rings until acknowledged from another shell.
/// In the menu, with nothing counting, a hang-up still ends eggtimer with 129.
@Suite struct HangUpEndToEndTests {
    /// One test's runtime folder (control sockets) and state folder (records).
    final class Folders {
        let runtime = makePrivateDirectory()
        let state = makePrivateDirectory()
        var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": state] }

        deinit {
            removeDirectory(runtime)
            removeDirectory(state)
        }

        func command(_ arguments: [String]) -> Finished { runEggtimer(arguments, environment: environment) }

        /// Runs `eggtimer status` until its output contains `text` or `deadline` passes.
        /// - Returns: The last output.
        func status(until text: String, deadline: ContinuousClock.Instant) -> String {
            var output = ""
            while ContinuousClock.now < deadline {
                output = command(["status"]).stdout
                if output.contains(text) { break }
                _ = poll(nil, 0, 20)  // another look: a status line has no event to wait for
            }
            return output
        }
    }

    /// User + system CPU time of a running process, from `/proc/PID/stat` (clock ticks of 10 ms).
    static func cpu(of pid: pid_t) -> Duration? {
        guard let bytes = readFile("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14, stime 15 (so indices 11 and 12 here).
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        return .milliseconds((user + system) * 1000 / Int64(sysconf(Int32(_SC_CLK_TCK))))
    }

    @Test func aHangUpWhileCountingDetachesTheTimerWhichRingsAndIsAcknowledgedFromAnotherShell() throws {
        let folders = Folders()
        let pty = PseudoTerminal(["5", "--label", "tea", "-D", "null"], environment: folders.environment)
        #expect(pty.expect("Counting down 0:05."))
        pty.hangUp()
        let soon = ContinuousClock.now + .seconds(15)
        let counting = folders.status(until: "counting (detached)", deadline: soon)
        #expect(counting.contains("tea") && counting.contains("counting (detached)"), "\(counting)")
        let ringing = folders.status(until: "ringing (detached)", deadline: soon)
        #expect(ringing.contains("ringing (detached)"), "\(ringing)")
        let json = folders.command(["status", "--json"]).stdout
        #expect(json.contains(#""detached":true"#), "\(json)")
        // The hung-up terminal polls POLLHUP for ever: it left the poll set, nothing spins.
        let used = try #require(Self.cpu(of: pty.pid))
        #expect(used < .milliseconds(500), "cpu \(used)")
        let ack = folders.command(["ack", "tea"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(pty.waitForExit() == .exited(0))
    }

    @Test func aHungUpTimerLoggingToAFileRingsItsAlarmAndEndsAsDone() throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let capture = dir + "/capture.raw"
        let log = dir + "/out"
        // As `eggtimer 2 --json … > out` typed into the terminal: standard input and error on it.
        let pty = PseudoTerminal(
            [
                "-c", #"exec "$0" "$@" > "\#(log)""#, eggtimerPath, "2", "--json", "-D", "file:'\(capture)',raw",
                "--loops", "1",
            ], executable: SystemTool.sh.path)
        let giveUp = ContinuousClock.now + .seconds(15)
        func logged(_ event: String) -> Bool {
            String(decoding: readFile(log) ?? [], as: UTF8.self).contains(#""event":"\#(event)""#)
        }
        while !logged("started") && ContinuousClock.now < giveUp { _ = poll(nil, 0, 5) }
        #expect(logged("started"))
        pty.hangUp()
        #expect(pty.waitForExit(timeout: .seconds(15)) == .exited(0))
        #expect(logged("finished") && logged("sounding") && logged("acknowledged"))
        let sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
        let heard = readFile(capture) == sound.samples.withUnsafeBytes { Array($0) }
        #expect(heard, "one pass of the sound reached the device")
    }

    @Test func aHangUpInTheMenuStillExits129() {
        let pty = PseudoTerminal(["-D", "null"])
        #expect(pty.expect("How do you like your eggs?"))
        pty.hangUp()
        #expect(pty.waitForExit() == .exited(129))
    }

    @Test func aHangUpSignalWithTheTerminalOpenGivesItBackAndTheTimerGoesOn() {
        let folders = Folders()
        let pty = PseudoTerminal(["10m", "--label", "tea", "-D", "null"], environment: folders.environment)
        #expect(pty.expect("Counting down 10:00."))
        let mark = pty.output.count
        pty.send(SIGHUP)
        #expect(pty.expect("\u{1B}[?1049l", after: mark), "left the alternate screen")
        let status = folders.status(until: "counting (detached)", deadline: ContinuousClock.now + .seconds(15))
        #expect(status.contains("counting (detached)"), "\(status)")
        #expect(pty.settingsNow == pty.settingsBefore)
        #expect(folders.command(["cancel", "tea"]).termination == .exited(0))
        #expect(pty.waitForExit() == .exited(1))
    }
}
