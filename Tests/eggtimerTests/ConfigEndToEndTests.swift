import AlarmAudio
import Glibc
import TestSupport
import Testing

/// The real binary with a config file from `EGGTIMER_CONFIG` or `XDG_CONFIG_HOME`.
@Suite struct ConfigEndToEndTests {
    /// The shipped sound's samples as the binary plays them, as bytes.
    let onePass: [UInt8]

    init() throws {
        onePass = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3").samples.withUnsafeBytes {
            Array($0)
        }
    }

    /// The events' names, in order, from `--json` lines.
    private func events(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { $0.split(separator: "\"").dropFirst(3).first.map(String.init) }
    }

    @Test func theFilesDeviceRingsTheTimer() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/config", Array("# kitchen\ndevice = null\n".utf8))
        let result = runEggtimer(["1", "--loops", "1", "--json"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(events(result.stdout) == ["started", "finished", "sounding", "acknowledged"])
    }

    @Test func theFilesDeviceAndRelativeSoundArePlayed() throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/bell.mp3", try #require(readFile(repositoryRoot + "/Sounds/alarm_sound.mp3")))
        let capture = dir + "/capture.raw"
        writeFile(dir + "/config", Array("device = file:'\(capture)',raw\nsound = bell.mp3\n".utf8))
        let result = runEggtimer(["1", "--loops", "2"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(readFile(capture) == onePass + onePass)
    }

    @Test func theCommandLinesDeviceWinsOverTheFiles() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let capture = dir + "/capture.raw"
        writeFile(dir + "/config", Array("device = null\n".utf8))
        let result = runEggtimer(
            ["1", "-D", "file:'\(capture)',raw", "--loops", "1"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(readFile(capture) == onePass)
    }

    @Test func theFileIsFoundUnderXDGConfigHome() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let capture = dir + "/capture.raw"
        #expect(mkdir(dir + "/eggtimer", 0o700) == 0)
        writeFile(dir + "/eggtimer/config", Array("device = \"file:'\(capture)',raw\"\n".utf8))
        let result = runEggtimer(
            ["1", "--loops", "1"], environment: ["XDG_CONFIG_HOME": dir, "HOME": "/nonexistent"])
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(readFile(capture) == onePass)
    }

    @Test func aBadValueExits78WithOneLineNamingFileLineAndKey() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/config", Array("device = null\n\nvolume = 200\n".utf8))
        let result = runEggtimer(["1", "--loops", "1", "--json"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(result.termination == .exited(78))
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "eggtimer: \(dir)/config:3: volume: needs a whole number from 10 to 100 (percent), got '200'\n")
        // The command line does not mend the file: it is read whole, and the line is still bad.
        let overridden = runEggtimer(
            ["1", "--volume", "50", "--loops", "1"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(overridden.termination == .exited(78))
    }

    @Test(arguments: [
        ("frob = 1\n", ":1: frob: unknown key"),
        ("volume = 50\nvolume = 60\n", ":2: volume: given twice (first on line 1)"),
        ("device\n", ":1: expected 'key = value', got 'device'"),
        ("device = \u{1B}[31mred\n", ":1: device: has a control character in its value"),
        ("volume = 5\n", ":1: volume: needs a whole number from 10 to 100 (percent), got '5'"),
        ("device = null\nramp = 90s\n", ":2: ramp: needs a duration of at most 60s"),
        ("key-guard = 9s\n", ":1: key-guard: needs 0 (off) or a duration up to 5s, such as 1s or 800ms, got '9s'"),
        ("\nkey-debounce = 1s\n", ":2: key-debounce: needs 0 (off) or a duration up to 50ms, such as 10ms, got '1s'"),
    ])
    func aBadLineExits78(text: String, expected: String) {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/config", Array(text.utf8))
        let result = runEggtimer(["1", "-D", "null"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(result.termination == .exited(78))
        #expect(result.stderr.hasPrefix("eggtimer: \(dir)/config\(expected)"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func aNamedFileMissingOrAFolderExits78AndTheDefaultOneMayBeMissing() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let missing = runEggtimer(["1", "-D", "null"], environment: ["EGGTIMER_CONFIG": dir + "/nope"])
        #expect(missing.termination == .exited(78))
        #expect(missing.stderr == "eggtimer: \(dir)/nope: cannot open it: No such file or directory\n")
        let folder = runEggtimer(["1", "-D", "null"], environment: ["EGGTIMER_CONFIG": dir])
        #expect(folder.termination == .exited(78))
        #expect(folder.stderr == "eggtimer: \(dir): is a directory, not a config file\n")
        let absent = runEggtimer(
            ["1", "-D", "null", "--loops", "1"], environment: ["XDG_CONFIG_HOME": dir, "HOME": dir])
        #expect(absent.termination == .exited(0))
        #expect(absent.stderr.isEmpty)
    }

    @Test func aRelativeSoundMissingNamesThePathFromTheFilesFolder() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/config", Array("sound = nope.mp3\n".utf8))
        let result = runEggtimer(["1", "-D", "null"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(result.termination == .exited(66))
        #expect(result.stderr.contains("'\(dir)/nope.mp3'"))
    }

    /// Help, version and the subcommands do not read the file; a bad command line is said first.
    @Test(
        arguments: [
            (["--help"], 0), (["--version"], 0), (["1", "--help"], 0), (["status"], 0), (["ack"], 3),
            (["1", "--frobnicate"], 64),
        ] as [([String], Int32)])
    func onlyATimerReadsTheFile(arguments: [String], status: Int32) {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/config", Array("volume = 200\n".utf8))
        let result = runEggtimer(arguments, environment: ["EGGTIMER_CONFIG": dir + "/config"], timeout: .seconds(10))
        #expect(result.termination == .exited(status))
        #expect(!result.stderr.contains("config"))
    }
}
