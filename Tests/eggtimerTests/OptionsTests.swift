import AlarmAudio
import Glibc
import Testing
import TimerCore

@testable import eggtimer

@Suite struct OptionsTests {
    @Test func noArgumentsIsTheEggMenu() throws {
        let options = try Options.parse([])
        #expect(options.command == .menu)
        #expect(options.device == "default")
    }

    @Test(arguments: [
        (["soft"], Options.Command.preset(0)),
        (["Medium"], .preset(1)),
        (["hard"], .preset(2)),
        (["90"], .countdown(.seconds(90), text: "90")),
        (["1:30"], .countdown(.seconds(90), text: "1:30")),
        (["7m30s"], .countdown(.seconds(450), text: "7m30s")),
        (["pomodoro"], .pomodoro),
        (["--help"], .help),
        (["-h"], .help),
        (["--version"], .version),
        (["--", "5m"], .countdown(.seconds(300), text: "5m")),
    ])
    func commands(arguments: [String], command: Options.Command) throws {
        #expect(try Options.parse(arguments).command == command)
    }

    /// `-h`, `--help` and `--version` win wherever they stand as an option, over every usage
    /// error before or after them; the first of them wins. As an option's value or after `--`
    /// they are not options.
    @Test(arguments: [
        (["soft", "--help"], Options.Command?.some(.help)),
        (["--help", "soft"], .help),
        (["5m", "-D", "null", "-h"], .help),
        (["5x", "--help"], .help),
        (["--help", "5x"], .help),
        (["soft", "hard", "--help"], .help),
        (["--loops", "0", "--help"], .help),
        (["--help", "--loops", "0"], .help),
        (["--frobnicate", "-h"], .help),
        (["--json", "--json", "--version"], .version),
        (["--work", "5m", "--help"], .help),
        (["--help", "--help"], .help),
        (["--version", "--help"], .version),
        (["-h", "--version"], .help),
        (["--loops", "--help"], nil),  // `--help` is the value of --loops: not a number
        (["--", "--help"], nil),  // a positional after `--`
        (["--help=1"], nil),
        (["-hv"], nil),
    ])
    func helpAndVersionWinWhereverTheyStand(arguments: [String], command: Options.Command?) {
        let parsed = try? Options.parse(arguments)
        #expect(parsed?.command == command)
    }

    @Test(arguments: ["1s", "90", "1:30", "5min"])
    func aDurationWhereTheSoundFileBelongsIsAUsageError(value: String) {
        #expect(throws: UsageError(description: "option '--sound' takes a file; '\(value)' looks like a duration")) {
            try Options.parse(["5m", "--sound", value])
        }
        #expect(throws: UsageError.self) { try Options.parse(["--sound=\(value)", "5m"]) }
    }

    @Test func aFileNamedLikeADurationIsStillASoundFile() throws {
        let dir = temporaryDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/90", [])
        #expect(try Options.parse(["--sound", dir + "/90"]).soundPath == SoundFilePath(dir + "/90"))
    }

    @Test func optionsTakeValuesInEverySpelling() throws {
        let options = try Options.parse([
            "-Dnull", "--sound=x.mp3", "--loops", "3", "--json", "--soft", "3s", "--medium=4s", "--hard", "7s",
        ])
        #expect(options.device == "null")
        #expect(options.soundPath == SoundFilePath("x.mp3"))
        #expect(options.loops == 3)
        #expect(options.json)
        #expect(options.presets.map(\.duration) == [.seconds(3), .seconds(4), .seconds(7)])
        #expect(try Options.parse(["-D", "plughw:CARD=Headphones"]).device == "plughw:CARD=Headphones")
    }

    @Test func pomodoroOptions() throws {
        let options = try Options.parse([
            "pomodoro", "--work", "1s", "--short-break", "2s", "--long-break", "3s", "--long-break-after", "2",
            "--sets", "2", "--wait",
        ])
        #expect(
            options.plan
                == Pomodoro.Plan(
                    work: .seconds(1), shortBreak: .seconds(2), longBreak: .seconds(3), longBreakAfter: 2, sets: 2))
        #expect(options.wait)
    }

    @Test(arguments: [
        (["abc"], "unknown mode 'abc': expected soft, medium, hard, pomodoro or a duration"),
        (["0"], "invalid duration '0': must be more than zero"),
        (["-5"], "invalid duration '-5': must be more than zero"),
        (["1:75"], "invalid duration '1:75': seconds must be below 60"),
        (["1h1h"], "invalid duration '1h1h': 'h' given twice"),
        (["5", "6"], "unexpected argument '6': give one duration or mode"),
        (["--frobnicate"], "unknown option '--frobnicate' (see --help)"),
        (["-x"], "unknown option '-x' (see --help)"),
        (["--loops"], "option '--loops' needs a value"),
        (["--loops", "0"], "option '--loops' needs a whole number from 1 to 1000000, got '0'"),
        (["--loops", "two"], "option '--loops' needs a whole number from 1 to 1000000, got 'two'"),
        (["--loops=-1"], "option '--loops' needs a whole number from 1 to 1000000, got '-1'"),
        (["--soft", "soon"], "option '--soft': invalid duration 'soon': no number in it"),
        (["--device="], "option '--device' needs a value, got ''"),
        (["--json=yes"], "option '--json' takes no value: '--json=yes'"),
        (["--json", "--json"], "option '--json' given twice"),
        (["-D", "a", "--device", "b"], "option '--device' given twice"),
        (["--work", "5m"], "option '--work' only works with 'pomodoro'"),
        (["soft", "--wait"], "option '--wait' only works with 'pomodoro'"),
        (["pomodoro", "--sets", "0"], "option '--sets' needs a whole number from 1 to 1000000, got '0'"),
    ])
    func badInputNamesTheToken(arguments: [String], message: String) {
        #expect(throws: UsageError(description: message)) { try Options.parse(arguments) }
    }
}

@Suite struct SoundPathBytesTests {
    /// `--sound "$(printf 'R\xe9veil.mp3')"`: the name is Latin-1, not UTF-8; it is opened as given.
    @Test(arguments: [["--sound", "R\u{FFFD}veil.mp3"], ["--sound=R\u{FFFD}veil.mp3"]])
    func aSoundPathIsKeptAsTheBytesGiven(arguments: [String]) throws {
        let name: [UInt8] = Array("R".utf8) + [0xE9] + Array("veil.mp3".utf8)
        let raw: [[UInt8]] = arguments.count == 2 ? [Array("--sound".utf8), name] : [Array("--sound=".utf8) + name]
        let options = try Options.parse(arguments + ["1"], raw: raw + [Array("1".utf8)])
        #expect(options.soundPath?.bytes == name)
        #expect(options.soundPath?.description.contains("R\\xE9veil.mp3") == true)
    }
}
