import AlarmAudio
import Glibc
import TestSupport
import Testing

/// eggtimer as a shell job on a pseudo-terminal: started with `&`, stopped with Ctrl-Z and put in
/// the background with `bg`, brought back with `fg`.
///
/// The shell is dash (`/bin/sh`) or bash with job control on (`set -m`), so the job gets its own
/// process group and the shell hands the terminal over exactly as an interactive shell does; the
/// test types to it. The two differ where it matters: dash's `fg` sends SIGCONT to a running job,
/// bash's sends nothing.
///
/// A background job that set terminal modes or wrote escape codes would be stopped by SIGTTOU
/// and never ring: the shell's `wait` would then hang, and the test fails on its timeout.
@Suite(.serialized) struct JobControlEndToEndTests {
    /// One pass of the shipped sound as the binary decodes it.
    let onePass: [UInt8]

    init() throws {
        let sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
        onePass = sound.samples.withUnsafeBytes { Array($0) }
    }

    /// The shells the jobs run under.
    static let shells = [SystemTool.sh.location, SystemTool.bash.location]

    /// `SHELL -c 'set -m; SCRIPT' eggtimer ARGS…`: in the script `"$0" "$@"` runs eggtimer.
    static func shell(_ shell: String, _ script: String, _ arguments: [String]) -> PseudoTerminal {
        Eggtimer(arguments, launcher: [shell, "-c", "set -m; " + script]).terminal()
    }

    @Test(arguments: shells)
    func startedInTheBackgroundItCountsAndRingsAndLeavesTheTerminalAlone(shell: String) throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let pty = Self.shell(
            shell,
            #""$0" "$@" > "\#(dir)/out" & wait %1; echo "status=$?""#,
            ["1", "--json", "-D", "file:'\(dir)/capture.raw',raw", "--loops", "1"])
        #expect(pty.expect("status=0", timeout: .seconds(15)))
        #expect(pty.waitForExit() == .exited(0))
        #expect(readFile(dir + "/capture.raw") == onePass)
        let json = String(decoding: readFile(dir + "/out") ?? [], as: UTF8.self)
        #expect(json.contains(#""event":"finished""#) && json.contains(#""event":"acknowledged""#))
        // Its standard input was the terminal, but it neither set modes nor drew on it.
        #expect(pty.settingsNow == pty.settingsBefore)
        #expect(!pty.text.contains("\u{1B}["))
    }

    @Test(arguments: shells)
    func broughtToTheForegroundItTakesTheKeyboardAndDraws(shell: String) {
        // Started in the background on the terminal: plain lines, no UI; `fg` (after the test
        // types a line for `read`) hands it the terminal, without a signal since it is running.
        let pty = Self.shell(shell, #""$0" "$@" & read line; fg"#, ["10m", "-D", "null"])
        #expect(pty.expect("10m timer: started, 10:00"))
        #expect(pty.settingsNow == pty.settingsBefore)
        #expect(!pty.text.contains("\u{1B}[?1049h"))
        var mark = pty.output.count
        pty.type("\n")
        #expect(pty.expect("space pause", after: mark))
        #expect(pty.settingsNow != pty.settingsBefore)  // cbreak mode is on
        mark = pty.output.count
        pty.type(" ")
        #expect(pty.expect("Paused.", after: mark))
        pty.type("q")
        #expect(pty.waitForExit() == .exited(1))  // fg returns the job's status: quit early
        #expect(pty.settingsNow == pty.settingsBefore)
        #expect(pty.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test(arguments: shells)
    func ctrlZThenBgKeepsCountingAndRingsWithoutTheTerminal(shell: String) throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let pty = Self.shell(
            shell,
            #""$0" "$@"; bg; wait %1; echo "status=$?""#, ["3", "-D", "file:'\(dir)/capture.raw',raw", "--loops", "1"])
        #expect(pty.expect("Counting down 0:03."))
        let mark = pty.output.count
        pty.type("\u{1A}")
        #expect(pty.expect("status=0", after: mark, timeout: .seconds(15)))
        #expect(pty.waitForExit() == .exited(0))
        #expect(readFile(dir + "/capture.raw") == onePass)
        #expect(pty.settingsNow == pty.settingsBefore)
        // Left the screen once on Ctrl-Z, never took it again in the background; plain lines instead.
        let after = String(decoding: pty.output[mark...], as: UTF8.self)
        #expect(!after.contains("\u{1B}[?1049h"))
        #expect(after.contains("3 timer: time is up"))
    }

    @Test(arguments: shells)
    func ctrlZBgThenFgTakesTheTerminalBack(shell: String) {
        let pty = Self.shell(shell, #""$0" "$@"; bg; read line; fg"#, ["10m", "-D", "null"])
        #expect(pty.expect("Counting down 10:00."))
        var mark = pty.output.count
        pty.type("\u{1A}")
        #expect(pty.expect("\u{1B}[?1049l", after: mark))  // gave the screen back
        #expect(pty.expect("[1]", after: mark))  // the shell's bg
        #expect(pty.settingsNow == pty.settingsBefore)
        mark = pty.output.count
        pty.type("\n")
        #expect(pty.expect("space pause", after: mark))
        pty.type("q")
        #expect(pty.waitForExit() == .exited(1))
        #expect(pty.settingsNow == pty.settingsBefore)
    }
}
