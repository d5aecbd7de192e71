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
    /// Runs `eggtimer status` in `house` until its output contains `text` (a status line has no
    /// event to wait for: ``eventually(_:deadline:every:meanwhile:_:)`` looks every 20 ms).
    /// - Returns: The last output.
    private func status(in house: House, until text: String, deadline: ContinuousClock.Instant) throws -> String {
        var output = ""
        try eventually("status says \(text)", deadline: deadline, every: .milliseconds(20)) {
            output = house.command(["status"]).stdout
            return output.contains(text)
        }
        return output
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
        let house = House()
        let pty = PseudoTerminal(["5", "--label", "tea", "-D", "null"], environment: house.environment)
        #expect(pty.expect("Counting down 0:05."))
        pty.hangUp()
        let soon = ContinuousClock.now + .seconds(15)
        let counting = try status(in: house, until: "counting (detached)", deadline: soon)
        #expect(counting.contains("tea") && counting.contains("counting (detached)"), "\(counting)")
        let ringing = try status(in: house, until: "ringing (detached)", deadline: soon)
        #expect(ringing.contains("ringing (detached)"), "\(ringing)")
        let json = house.command(["status", "--json"]).stdout
        #expect(json.contains(#""detached":true"#), "\(json)")
        // The hung-up terminal polls POLLHUP for ever: it left the poll set, nothing spins.
        let used = try #require(Self.cpu(of: pty.pid))
        #expect(used < .milliseconds(500), "cpu \(used)")
        let ack = house.command(["ack", "tea"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(pty.waitForExit() == .exited(0))
    }

    @Test func aHungUpTimerLoggingToAFileRingsItsAlarmAndEndsAsDone() throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let capture = dir + "/capture.raw"
        let log = dir + "/out"
        // As `eggtimer 2 --json … > out` typed into the terminal: standard input and error on it.
        let pty = Eggtimer(
            ["2", "--json", "-D", "file:'\(capture)',raw", "--loops", "1"],
            launcher: [SystemTool.sh.path, "-c", #"exec "$0" "$@" > "\#(log)""#]
        ).terminal()
        func logged(_ event: String) -> Bool {
            String(decoding: readFile(log) ?? [], as: UTF8.self).contains(#""event":"\#(event)""#)
        }
        try eventually("the timer logged its start", deadline: .now + .seconds(15), every: .milliseconds(5)) {
            logged("started")
        }
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

    @Test func aHangUpSignalWithTheTerminalOpenGivesItBackAndTheTimerGoesOn() throws {
        let house = House()
        let pty = PseudoTerminal(["10m", "--label", "tea", "-D", "null"], environment: house.environment)
        #expect(pty.expect("Counting down 10:00."))
        let mark = pty.output.count
        pty.send(SIGHUP)
        #expect(pty.expect("\u{1B}[?1049l", after: mark), "left the alternate screen")
        let status = try status(in: house, until: "counting (detached)", deadline: ContinuousClock.now + .seconds(15))
        #expect(status.contains("counting (detached)"), "\(status)")
        #expect(pty.settingsNow == pty.settingsBefore)
        #expect(house.command(["cancel", "tea"]).termination == .exited(0))
        #expect(pty.waitForExit() == .exited(1))
    }
}
