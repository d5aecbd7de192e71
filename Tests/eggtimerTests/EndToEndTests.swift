import AlarmAudio
import Glibc
import TestSupport
import Testing

/// The built binary, run as a user or a script would run it.
///
/// These wait for real countdowns of
/// one or two seconds; everything timing-exact is tested on an injected clock elsewhere.
@Suite struct CommandLineTests {
    /// Every malformed argument gets one stderr line naming the token, nothing on stdout, exit 64.
    @Test(arguments: [
        (["abc"], "'abc'"), (["0"], "'0'"), (["-5"], "'-5'"), (["1:75"], "'1:75'"), (["0:90"], "'0:90'"),
        (["1h1h"], "'1h1h'"), (["1s1m"], "'1s1m'"), (["5x"], "'5x'"), (["1.2.3"], "'1.2.3'"),
        (["99999999999999999999"], "'99999999999999999999'"), (["1000h"], "'1000h'"), ([""], "''"),
        (["0.0001"], "'0.0001'"), (["12:00pm"], "'12:00pm'"), (["1:2:3:4"], "'1:2:3:4'"),
        (["5", "6"], "'6'"), (["soft", "hard"], "'hard'"), (["tea", "5m"], "'tea'"), (["5", "min", "min"], "'min'"),
        (["--frobnicate"], "'--frobnicate'"), (["-x"], "'-x'"),
        (["--loops"], "'--loops'"), (["--loops", "0"], "'0'"), (["--loops", "two"], "'two'"),
        (["--loops=-1"], "'-1'"), (["--loops", "99999999999"], "'99999999999'"), (["--soft", "soon"], "'soon'"),
        (["--hard", "0"], "'0'"), (["--medium=1:99"], "'1:99'"), (["--device="], "'--device'"), (["-D"], "'-D'"),
        (["--sound"], "'--sound'"), (["--json=yes"], "'--json=yes'"), (["--json", "--json"], "'--json'"),
        (["--work", "5m"], "'--work'"), (["soft", "--wait"], "'--wait'"), (["pomodoro", "--sets", "0"], "'0'"),
        (["pomodoro", "--long-break-after", "x"], "'x'"), (["pomodoro", "--short-break", "-1"], "'-1'"),
        (["pomodoro", "--work"], "'--work'"), (["--help=1"], "'--help=1'"), (["-hv"], "'-hv'"),
        (["5m", "--sound", "1s"], "'1s' looks like a duration"),
    ])
    func badInputIsOneLineNamingTheTokenAndExit64(arguments: [String], token: String) {
        let result = runEggtimer(arguments, timeout: .seconds(10))
        #expect(result.termination == .exited(64))
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("eggtimer: "))
        #expect(result.stderr.contains(token))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: ["\u{1B}[?1049h\u{1B}[?25l5x", "5\n", "\u{9B}31m"])
    func controlCharactersInArgumentsAreEscapedNeverPrinted(argument: String) {
        let result = runEggtimer([argument], timeout: .seconds(10))
        #expect(result.termination == .exited(64))
        #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!result.stderr.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(result.stderr.contains("\\x"))
    }

    @Test func theMenuWithoutAKeyboardIsAUsageErrorNotAHang() {
        let result = runEggtimer(["-D", "null"], stdin: .null, timeout: .seconds(10))
        #expect(result.termination == .exited(64))
        #expect(result.stderr.contains("needs a keyboard"))
    }

    @Test func helpAndVersionExitZero() {
        let help = runEggtimer(["--help"])
        #expect(help.termination == .exited(0))
        #expect(help.stdout.contains("999:59:59"))
        let version = runEggtimer(["--version"])
        #expect(version.termination == .exited(0))
        #expect(version.stdout.hasPrefix("eggtimer "))
        // The second line names the licence (LICENSE, the package's copyright file).
        let licence = version.stdout.split(separator: "\n").dropFirst().first
        #expect(licence == "License: Apache-2.0 (the Apache License, Version 2.0)")
    }

    /// `eggtimer soft --help` prints the help at once instead of boiling an egg.
    @Test(arguments: [["soft", "--help"], ["5x", "--loops", "0", "-h"]])
    func helpWinsWhereverItStands(arguments: [String]) {
        let result = runEggtimer(arguments + ["-D", "null"], timeout: .seconds(10))
        #expect(result.termination == .exited(0))
        #expect(result.stdout.hasPrefix("eggtimer - a kitchen timer"))
        #expect(result.stderr.isEmpty)
    }

    @Test func missingSoundFileIsExit66AndNotAudioIsExit65() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let missing = runEggtimer(["1", "--sound", dir + "/nope.mp3", "-D", "null"])
        #expect(missing.termination == .exited(66))
        #expect(missing.stderr.contains(dir + "/nope.mp3"))
        writeFile(dir + "/text.mp3", Array("this is not an mp3 file\n".utf8))
        let notAudio = runEggtimer(["1", "--sound", dir + "/text.mp3", "-D", "null"])
        #expect(notAudio.termination == .exited(65))
        #expect(notAudio.stderr.contains("text.mp3"))
        writeFile(dir + "/empty.mp3", [])
        #expect(runEggtimer(["1", "--sound", dir + "/empty.mp3", "-D", "null"]).termination == .exited(65))
    }
}

@Suite struct AudioEndToEndTests {
    /// The sound as the binary decodes it.
    let sound: AlarmSound

    init() throws {
        sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
    }

    @Test func threeLoopsThroughAFilePCMCaptureExactlyThreePasses() throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let capture = dir + "/capture.raw"
        let result = runEggtimer(["1", "-D", "file:'\(capture)',raw", "--loops", "3"])
        #expect(result.termination == .exited(0), "\(result.stderr)")
        let bytes = try #require(readFile(capture))
        let expected = sound.samples.withUnsafeBytes { Array($0) }
        #expect(bytes.count == expected.count * 3)
        #expect(bytes == expected + expected + expected)
    }

    /// A device ALSA defines but that is absent now (no card 9) may come back: count and ring anyway.
    @Test func aMissingDeviceStillCountsRingsTheFallbackAndExits69() {
        let result = runEggtimer(["1", "-D", "hw:9", "--loops", "1", "--json"])
        #expect(result.termination == .exited(69))
        #expect(result.stderr.contains("'hw:9'"))
        #expect(result.stderr.contains("aplay -L"))
        #expect(!result.stderr.contains("ALSA lib"))
        let events = result.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst(3).first.map(String.init)
        }
        #expect(events.first == "started")
        #expect(events.contains("device_unavailable"))
        #expect(events.contains("finished"))
        #expect(events.last == "acknowledged")
    }

    @Test func aDamagedInstallFallsBackToTheBuiltInTone() throws {
        // The binary alone in a folder: no Sounds/ anywhere above it.
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let copy = dir + "/eggtimer"
        try Eggtimer.copyBinary(to: copy)
        let capture = dir + "/capture.raw"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, dir + "/stderr", O_WRONLY | O_CREAT, 0o644)
        var run = Eggtimer(["1", "-D", "file:'\(capture)',raw", "--loops", "1"])
        run.executable = copy
        let pid = run.spawn(&actions)
        #expect(waitForExit(pid) == .exited(0))
        let stderr = String(decoding: readFile(dir + "/stderr") ?? [], as: UTF8.self)
        #expect(stderr.contains("built-in alarm tone"))
        let expected = AlarmSound.builtInTone().samples.withUnsafeBytes { Array($0) }
        #expect(readFile(capture) == expected)
    }

    @Test func pomodoroRunsWorkShortWorkLongAsJSONThenExits() {
        let result = runEggtimer([
            "pomodoro", "--work", "1s", "--short-break", "1s", "--long-break", "1s", "--long-break-after", "2",
            "--json", "-D", "null", "--loops", "1",
        ])
        #expect(result.termination == .exited(0), "\(result.stderr)")
        let intervals = result.stdout.split(separator: "\n").filter { $0.contains(#""event":"interval""#) }
        #expect(intervals.allSatisfy { $0.contains(#""label":"pomodoro""#) })
        let phases = intervals.map { line in line.split(separator: #""phase":""#).last?.split(separator: "\"").first }
        #expect(phases == ["work", "short break", "work", "long break"])
    }

    @Test(arguments: [Eggtimer.StandardInput.null, .closed])
    func headlessCountdownDoesNotSpin(stdin: Eggtimer.StandardInput) {
        let result = runEggtimer(["2", "--json", "-D", "null", "--loops", "1"], stdin: stdin)
        #expect(result.termination == .exited(0))
        // A loop that kept polling a dead stdin would burn the whole 2 s.
        #expect(result.cpu < .milliseconds(250), "cpu \(result.cpu)")
    }

    /// The arguments of a one-second timer whose three alarm passes go to `capture`.
    private func threePasses(into capture: String, json: Bool = true) -> [String] {
        ["1", "-D", "file:'\(capture)',raw", "--loops", "3"] + (json ? ["--json"] : [])
    }

    /// Whether `capture` holds exactly three passes of the sound.
    private func holdsThreePasses(_ capture: String) -> Bool {
        let expected = sound.samples.withUnsafeBytes { Array($0) }
        return readFile(capture) == expected + expected + expected
    }

    /// `>&-`: descriptor 1 is reopened on /dev/null, so the log goes nowhere and the alarm plays.
    ///
    /// Were it left closed, the next descriptor opened (the signalfd) would land on 1 and the JSON
    /// writes would fail there with EINVAL, which says so on standard error.
    @Test func closedStandardOutputStillRingsEveryPassAndExits0() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let result = runEggtimer(threePasses(into: dir + "/capture.raw"), stdoutClosed: true)
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(holdsThreePasses(dir + "/capture.raw"))
    }

    /// `>/dev/full`: one line on standard error, then the timer runs to its alarm as if nothing happened.
    @Test(arguments: [true, false])
    func aFullStandardOutputStopsTheLogNotTheAlarm(json: Bool) {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let result = runEggtimer(threePasses(into: dir + "/capture.raw", json: json), stdoutFile: "/dev/full")
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(result.stderr == "eggtimer: standard output: No space left on device; no more log lines\n")
        #expect(holdsThreePasses(dir + "/capture.raw"))
    }

    @Test func helpToAFullStandardOutputSaysSoAndExits0() {
        let result = runEggtimer(["--help"], stdoutFile: "/dev/full")
        #expect(result.termination == .exited(0))
        #expect(result.stderr == "eggtimer: cannot write to standard output: No space left on device\n")
    }

    @Test func helpIntoAPipeWhoseReaderQuitExits0() {
        // The reader is gone before eggtimer starts: its first write finds the pipe broken.
        let ends = makePipe()
        close(ends.read)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends.write, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let pid = Eggtimer(["--help"]).spawn(&actions)
        close(ends.write)
        #expect(waitForExit(pid) == .exited(0))
    }

    @Test func aBrokenPipeOnStandardOutputStillRingsEveryPass() {
        // `eggtimer 1 --json … | head -0`: the reader is gone before the first event.
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let (pid, reader) = Eggtimer(threePasses(into: dir + "/capture.raw")).intoPipe()
        close(reader)
        #expect(waitForExit(pid) == .exited(0))
        #expect(holdsThreePasses(dir + "/capture.raw"))
    }

    @Test func aReaderThatQuitsMidCountdownLeavesTheAlarmAlone() {
        // `eggtimer 1 -D … --loops 3 | head -n 1`: the next line (`finished`) finds the pipe broken.
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let (pid, reader) = Eggtimer(threePasses(into: dir + "/capture.raw")).intoPipe()
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(reader, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { line.append(byte) }  // the first line
        close(reader)
        #expect(String(decoding: line, as: UTF8.self).hasPrefix(#"{"event":"started""#))
        #expect(waitForExit(pid) == .exited(0))
        #expect(holdsThreePasses(dir + "/capture.raw"))
    }

    @Test func sigusr1AcknowledgesWithoutAKeyboard() {
        // Once the countdown has finished and the alarm is sounding, acknowledge it.
        let ringing = Eggtimer.Trigger(stdoutContains: #""event":"sounding""#) { pid in kill(pid, SIGUSR1) }
        let result = runEggtimer(["1", "--json", "-D", "null"], timeout: .seconds(15), trigger: ringing)
        #expect(result.termination == .exited(0))
        #expect(result.stdout.contains(#""event":"acknowledged""#) && result.stdout.contains(#""by":"signal""#))
    }
}

@Suite(.serialized) struct TerminalEndToEndTests {
    @Test func eggMenuFlowPickCountdownAlarmKeyAndBackToTheMenu() throws {
        let pty = PseudoTerminal(["--soft", "1s", "-D", "null"])
        #expect(pty.expect("How do you like your eggs?"))
        #expect(pty.expect("Soft     0:01"))
        let mark = pty.output.count
        pty.type("1")
        #expect(pty.expect("So you like it Soft huh?", after: mark))
        #expect(pty.expect("Alright, don't choke on them!", after: mark))
        let ringing = pty.output.count
        pty.type("x")
        #expect(pty.expect("How do you like your eggs?", after: ringing))
        pty.type("q")
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.settingsNow == pty.settingsBefore)
        #expect(pty.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test func ctrlCRestoresTheTerminalByteForByteAndExits130() {
        let pty = PseudoTerminal(["5m", "-D", "null"])
        #expect(pty.expect("Counting down 5:00."))
        #expect(pty.settingsNow != pty.settingsBefore)  // cbreak mode is on
        pty.type("\u{3}")
        #expect(pty.waitForExit() == .exited(130))
        #expect(pty.settingsNow == pty.settingsBefore)
    }

    /// SIGHUP while ringing detaches the timer instead (HangUpEndToEndTests).
    @Test(arguments: [(SIGTERM, 143), (SIGINT, 130)] as [(Int32, Int32)])
    func signalsWhileRingingStopAndRestore(signal: Int32, status: Int32) {
        let pty = PseudoTerminal(["1", "-D", "null"])
        #expect(pty.expect("Time's up!"))
        pty.send(signal)
        #expect(pty.waitForExit() == .exited(status))
        #expect(pty.settingsNow == pty.settingsBefore)
    }

    /// Every state, every terminating signal: the right status and the terminal as it was.
    @Test(
        arguments: ["menu", "counting", "paused", "typing"],
        [(SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130)] as [(Int32, Int32)])
    func signalsInEveryStateRestoreTheTerminal(state: String, signal: (number: Int32, status: Int32)) {
        let pty = PseudoTerminal(state == "menu" || state == "typing" ? ["-D", "null"] : ["10m", "-D", "null"])
        #expect(pty.expect(state == "menu" || state == "typing" ? "How do you like your eggs?" : "space pause"))
        let mark = pty.output.count
        if state == "paused" {
            pty.type(" ")
            #expect(pty.expect("Paused.", after: mark))
        } else if state == "typing" {
            pty.type("t7m")
            #expect(pty.expect("Time: 7m_", after: mark))
        }
        let running = state == "counting" || state == "paused"
        pty.send(signal.number)
        if running && signal.number == SIGHUP {
            // A hang-up detaches a running timer: the terminal is given back, the timer goes on.
            #expect(pty.expect("\u{1B}[?1049l", after: mark))
            #expect(pty.waitForExit(timeout: .milliseconds(300)) == nil)
            #expect(pty.settingsNow == pty.settingsBefore)
            pty.send(SIGTERM)
            #expect(pty.waitForExit() == .exited(143))
            return
        }
        #expect(pty.waitForExit() == .exited(signal.status))
        #expect(pty.settingsNow == pty.settingsBefore)
        // A running timer ended by SIGTERM says, after the screen is gone, that its record is
        // kept for `eggtimer recover`.
        let kept = running && signal.number == SIGTERM
        let name = "SIGTERM"
        let line = "eggtimer: 10m: ended by \(name); its record is kept: `eggtimer recover` starts it again\r\n"
        #expect(pty.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l" + (kept ? line : "")), "\(pty.text.suffix(120))")
    }

    @Test func pausedTimerShowsPausedAndResumes() {
        let pty = PseudoTerminal(["10m", "-D", "null"])
        #expect(pty.expect("space pause"))
        let mark = pty.output.count
        pty.type(" ")
        #expect(pty.expect("Paused.", after: mark))
        #expect(pty.expect("space resume", after: mark))
        pty.type("q")
        #expect(pty.waitForExit() == .exited(1))  // quit before the timer was done
        #expect(pty.settingsNow == pty.settingsBefore)
    }

    @Test func keysWorkWithStandardOutputRedirectedAndJSONFlows() {
        // --json on a terminal prints the JSON alone; the keys still work.
        let pty = PseudoTerminal(["10m", "--json", "-D", "null"])
        #expect(pty.expect(#""event":"started""#))
        pty.type(" ")
        #expect(pty.expect(#""event":"paused""#))
        pty.type("q")
        #expect(pty.waitForExit() == .exited(1))
    }

    @Test func ctrlZRestoresTheTerminalAndFgRedrawsWithTheTimeStillCounting() {
        let pty = PseudoTerminal(["3s", "-D", "null", "--loops", "1"])
        #expect(pty.expect("Counting down 0:03."))
        // The program started counting before it printed that, so its deadline is before this + 3 s
        // (both read the boot clock).
        let deadlinePassed = ContinuousClock.now + .seconds(3) + .milliseconds(200)
        pty.type("\u{1A}")
        #expect(pty.waitForStop())
        #expect(pty.settingsNow == pty.settingsBefore)
        // This test is about time passing while the program is stopped, so there is no event to wait
        // for: stay stopped until its deadline is certainly past (200 ms beyond it), then continue.
        pty.readOutput(until: deadlinePassed)
        let mark = pty.output.count
        pty.send(SIGCONT)
        // The deadline passed while it was stopped: it rings at once, not after counting again.
        #expect(pty.expect("Time's up!", after: mark, timeout: .milliseconds(1500)))
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.settingsNow == pty.settingsBefore)
    }

    @Test func resizingToATinyPaneFallsBackToOneLineAndBack() {
        let pty = PseudoTerminal(["10m", "-D", "null"])
        #expect(pty.expect("Counting down 10:00."))
        var mark = pty.output.count
        pty.resize(columns: 30, rows: 2)
        // One line, the time left first so a cut keeps it.
        #expect(pty.expect("\u{1B}[H9:5", after: mark))
        mark = pty.output.count
        pty.resize(columns: 100, rows: 30)
        #expect(pty.expect("space pause", after: mark))
        pty.type("q")
        #expect(pty.waitForExit() == .exited(1))
    }
}
