import AlarmAudio
import Glibc
import SystemKit
import TestSupport
import Testing
import TimerCore
import TimerText

@testable import TerminalUI
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

    /// `-h`, `--help` and `--version` win wherever they stand as an option, over every usage error
    /// before or after them; the first of them wins.
    ///
    /// As an option's value or after `--` they are not options.
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
        (["--loops", "--help"], .help),  // an option where a value belongs is not taken as the value
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
        let dir = makePrivateDirectory()
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
        (
            ["abc"],
            "unknown mode 'abc': expected soft, medium, hard, pomodoro, a duration, or status, ack, cancel, snooze, pause, resume, add, recover, follow, kitchen, start"
        ),
        (["0"], "invalid duration '0': must be more than zero"),
        (["-5"], "invalid duration '-5': must be more than zero"),
        (["1:75"], "invalid duration '1:75': seconds must be below 60"),
        (["1h1h"], "invalid duration '1h1h': 'h' given twice"),
        (["5", "6"], "'6': give one duration; a label may not read as another"),
        (
            ["tea", "5m"],
            "unknown mode 'tea': expected soft, medium, hard, pomodoro, a duration, or status, ack, cancel, snooze, pause, resume, add, recover, follow, kitchen, start"
        ),
        (["soft", "5m"], "'5m': give a preset or a duration, not both"),
        (["5", "min", "min"], "'min': a unit needs its number before it; a label may not begin with it"),
        (["7m", "pasta", "--label", "x"], "'pasta' and --label 'x': give the label once"),
        (["pomodoro", "5m"], "unexpected argument '5m': 'pomodoro' takes no words"),
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
        (["--work", "5m"], "option '--work' does not work with the egg menu (only with 'pomodoro')"),
        (["soft", "--wait"], "option '--wait' does not work with 'soft' (only with 'pomodoro')"),
        (["pomodoro", "--sets", "0"], "option '--sets' needs a whole number from 1 to 1000000, got '0'"),
    ])
    func badInputNamesTheToken(arguments: [String], message: String) {
        #expect(throws: UsageError(description: message)) { try Options.parse(arguments) }
    }
}

@Suite struct TimerOptionTests {
    @Test func theNewTimerOptionsSetTheirFields() throws {
        let options = try Options.parse([
            "5m", "--label", "tea", "--ring-for", "2m", "--volume", "50%", "--ramp=30s", "--on-done", "notify-send tea",
        ])
        #expect(options.label == "tea" && options.timerLabel == "tea")
        #expect(options.ringFor == .seconds(120))
        #expect(options.volume == 50)
        #expect(options.ramp == .seconds(30))
        #expect(options.onDone == "notify-send tea")
        #expect(options.start == .timer(.plain, .seconds(300), label: "tea"))
    }

    @Test func defaultsLeaveTheAlarmAsItWas() throws {
        let options = try Options.parse(["soft"])
        #expect(options.label == nil && options.ringFor == nil && options.ramp == nil && options.onDone == nil)
        #expect(options.volume == 100)
        #expect(options.start == .timer(.egg(0), .seconds(300), label: "Soft"))
        #expect(
            try Options.parse(["--label", "egg-1", "hard"]).start == .timer(.egg(2), .seconds(720), label: "egg-1"))
        #expect(try Options.parse(["90"]).start == .timer(.plain, .seconds(90), label: "90"))
        #expect(try Options.parse(["pomodoro", "--label", "focus"]).timerLabel == "focus")
    }

    @Test(arguments: [("10", 10), ("10%", 10), ("100", 100), ("100%", 100), ("17", 17), ("050", 50)])
    func volumeIsAWholePercentage(value: String, volume: Int) throws {
        #expect(try Options.parse(["1m", "--volume", value]).volume == volume)
    }

    @Test(arguments: [
        "a", "Z", "9", "tea", "egg_2", "a.b", "a-", "x.", String(repeating: "l", count: 64),
        // Every default label is a valid --label (issue 24): a clock text, an alarm's time with its offset.
        "1:30", "a+b", "at-2026-12-24t18.00+01.00", "roast beef", "Küche", "3m Spätzle", "mum's stew",
    ])
    func validLabels(label: String) throws {
        #expect(LabelRule.isValid(label))
        #expect(try Options.parse(["pomodoro", "--label", label]).label == label)
    }

    /// A countdown's `--label` follows the start grammar (issue 41): it may not read as another
    /// duration than the timer's own (`eggtimer 1m --label 9`), which the timer's own text may.
    @Test func aCountdownsLabelMayNotReadAsAnotherDuration() throws {
        #expect(try Options.parse(["1m", "--label", "Spätzle mit Soße"]).label == "Spätzle mit Soße")
        #expect(throws: UsageError(description: "'3m': a label may not begin with a number or a duration")) {
            try Options.parse(["1m", "--label", "3m Spätzle"])
        }
        #expect(try Options.parse(["90", "--label", "1:30"]).label == "1:30")
        #expect(throws: UsageError(description: "'9': give one duration; a label may not read as another")) {
            try Options.parse(["1m", "--label", "9"])
        }
    }

    @Test(arguments: [
        "", ".", "..", ".hidden", "-x", "a  b", " a", "a/b", "#", "a*b", "a;b", "tea\n", "a%", "€", "a\u{0}",
        String(repeating: "l", count: 65),
    ])
    func invalidLabels(label: String) {
        #expect(!LabelRule.isValid(label))
    }

    @Test(arguments: [
        (["1m", "--label", "a  b"], "option '--label' needs \(Options.labelRule), got 'a  b'"),
        (["1m", "--label=a/b"], "option '--label' needs \(Options.labelRule), got 'a/b'"),
        (["1m", "--label", ".x"], "option '--label' needs \(Options.labelRule), got '.x'"),
        (["1m", "--label="], "option '--label' needs a value, got ''"),
        (["1m", "--ring-for", "soon"], "option '--ring-for': invalid duration 'soon': no number in it"),
        (["1m", "--ring-for", "0"], "option '--ring-for': invalid duration '0': must be more than zero"),
        (["1m", "--ramp"], "option '--ramp' needs a value"),
        (["1m", "--ramp", "x"], "option '--ramp': invalid duration 'x': no number in it"),
        (["1m", "-D", "hw:0\n"], "option '-D' needs an ALSA device name without control characters, got 'hw:0\\x0A'"),
        (["1m", "--fallback-device", ""], "option '--fallback-device' needs a value, got ''"),
        (
            ["1m", "--fallback-device", String(repeating: "d", count: 256)],
            "option '--fallback-device' takes at most 255 bytes, got 256"
        ),
        (["1m", "--volume", "101"], "option '--volume' needs a whole number from 10 to 100 (percent), got '101'"),
        (["1m", "--volume", "-1"], "option '--volume' needs a whole number from 10 to 100 (percent), got '-1'"),
        (["1m", "--volume", "50.5"], "option '--volume' needs a whole number from 10 to 100 (percent), got '50.5'"),
        (["1m", "--volume", "%"], "option '--volume' needs a whole number from 10 to 100 (percent), got '%'"),
        (["1m", "--volume", "5%%"], "option '--volume' needs a whole number from 10 to 100 (percent), got '5%%'"),
        (["1m", "--on-done="], "option '--on-done' needs a value, got ''"),
        (["1m", "--label", "a", "--label", "b"], "option '--label' given twice"),
        (["1m", "--for", "5m"], "option '--for' does not work with a timer of a given duration (only with 'snooze')"),
    ])
    func badTimerOptionsNameTheToken(arguments: [String], message: String) {
        #expect(throws: UsageError(description: message)) { try Options.parse(arguments) }
    }

    /// Issue 37, the audible floor: a volume below 10 % and a ramp longer than 60 s are refused
    /// with one line naming the token and the limit, for a timer, `at` and `follow` alike.
    @Test(arguments: [
        (["1m", "--volume", "0"], "option '--volume' \(Self.belowFloor("0"))"),
        (["1m", "--volume", "0%"], "option '--volume' \(Self.belowFloor("0%"))"),
        (["1m", "--volume", "1"], "option '--volume' \(Self.belowFloor("1"))"),
        (["1m", "--volume=9"], "option '--volume' \(Self.belowFloor("9"))"),
        (["at", "7:05", "--volume", "00"], "option '--volume' \(Self.belowFloor("00"))"),
        (["follow", "--mqtt", "mqtt://h", "--volume", "5"], "option '--volume' \(Self.belowFloor("5"))"),
        (["1m", "--ramp", "61s"], "option '--ramp' \(Self.rampTooLong("61s"))"),
        (["1m", "--ramp=60.001s"], "option '--ramp' \(Self.rampTooLong("60.001s"))"),
        (["1m", "--ramp", "10m"], "option '--ramp' \(Self.rampTooLong("10m"))"),
        (["follow", "--mqtt", "mqtt://h", "--ramp", "2 min"], "option '--ramp' \(Self.rampTooLong("2 min"))"),
    ])
    func aVolumeBelowTheFloorOrARampLongerThanAMinuteIsRefused(arguments: [String], message: String) {
        #expect(throws: UsageError(description: message)) { try Options.parse(arguments) }
    }

    static func belowFloor(_ value: String) -> String {
        "needs a whole number from 10 to 100 (percent), got '\(value)': below 10 the alarm may not be heard"
    }

    static func rampTooLong(_ value: String) -> String {
        "needs a duration of at most 60s (the alarm reaches its volume within a minute), got '\(value)'"
    }

    @Test func theFloorAndALongestRampAreAccepted() throws {
        let options = try Options.parse(["1m", "--volume", "10", "--ramp", "60s"])
        #expect(options.volume == 10 && options.ramp == .seconds(60))
        #expect(try Options.parse(["1m", "--ramp", "1 min"]).ramp == .seconds(60))
    }
}

@Suite struct SubcommandTests {
    @Test(arguments: [
        (["status"], ControlCommand.status(json: false)),
        (["list"], .status(json: false)),
        (["status", "--json"], .status(json: true)),
        (["--json", "list"], .status(json: true)),
        (["ack"], .acknowledge(label: nil)),
        (["ACK"], .acknowledge(label: nil)),
        (["ack", "tea"], .acknowledge(label: "tea")),
        (["ack", "--", "tea"], .acknowledge(label: "tea")),
        (["cancel"], .cancel(label: nil)),
        (["cancel", "soft"], .cancel(label: "soft")),
        (["ack", "--all"], .acknowledgeAll), (["--all", "ACK"], .acknowledgeAll), (["cancel", "--all"], .cancelAll),
        (["ack", "--all", "--mqtt", "mqtt://h"], .acknowledgeAll),
        (["snooze"], .snooze(label: nil, for: nil)),
        (["snooze", "tea"], .snooze(label: "tea", for: nil)),
        (["snooze", "tea", "--for", "5m"], .snooze(label: "tea", for: .seconds(300))),
        (["snooze", "--for=90s"], .snooze(label: nil, for: .seconds(90))),
        (["--for", "1:30", "snooze", "x.y"], .snooze(label: "x.y", for: .seconds(90))),
        (["snooze", "--for", "999h"], .snooze(label: nil, for: .seconds(999 * 3600))),
        (["pause"], .pause(label: nil)), (["pause", "tea"], .pause(label: "tea")),
        (["resume"], .resume(label: nil)), (["resume", "tea"], .resume(label: "tea")),
        (["add", "60"], .add(label: nil, by: .seconds(60))),
        (["add", "-60", "tea"], .add(label: "tea", by: .seconds(-60))),
        (["add", "86400"], .add(label: nil, by: .seconds(86_400))),
        (["add", "-86400"], .add(label: nil, by: .seconds(-86_400))),
    ])
    func subcommands(arguments: [String], command: ControlCommand) throws {
        #expect(try Options.parse(arguments).command == .control(command))
    }

    @Test(arguments: [["status", "--help"], ["ack", "a/b", "-h"], ["snooze", "--sound", "x", "--help"]])
    func helpWinsOverSubcommandsToo(arguments: [String]) throws {
        #expect(try Options.parse(arguments).command == .help)
    }

    @Test(arguments: [
        (["ack", "-D", "null"], "option '-D' does not work with 'ack' (only with a timer or 'follow')"),
        (["-Dnull", "status"], "option '-D' does not work with 'status' (only with a timer or 'follow')"),
        (
            ["status", "--sound", "x.mp3"],
            "option '--sound' does not work with 'status' (only with a timer or 'follow')"
        ),
        (["cancel", "--loops", "2"], "option '--loops' does not work with 'cancel' (only with a timer)"),
        (["snooze", "--label", "tea"], "option '--label' does not work with 'snooze' (only with a timer or 'start')"),
        (["ack", "--volume", "50"], "option '--volume' does not work with 'ack' (only with a timer or 'follow')"),
        (["ack", "--ring-for", "5s"], "option '--ring-for' does not work with 'ack' (only with a timer)"),
        (["ack", "--ramp", "5s"], "option '--ramp' does not work with 'ack' (only with a timer or 'follow')"),
        (["ack", "--on-done", "true"], "option '--on-done' does not work with 'ack' (only with a timer)"),
        (["status", "--soft", "3m"], "option '--soft' does not work with 'status' (only with the egg menu or 'soft')"),
        (["status", "--work", "3m"], "option '--work' does not work with 'status' (only with 'pomodoro')"),
        (["ack", "--wait"], "option '--wait' does not work with 'ack' (only with 'pomodoro')"),
        (["ack", "--json"], "option '--json' does not work with 'ack' (only with a timer or 'status')"),
        (["ack", "--for", "5m"], "option '--for' does not work with 'ack' (only with 'snooze')"),
        (["status", "--for", "5m"], "option '--for' does not work with 'status' (only with 'snooze')"),
        (["pomodoro", "--for", "5m"], "option '--for' does not work with 'pomodoro' (only with 'snooze')"),
        (["snooze", "--for", "soon"], "option '--for': invalid duration 'soon': no number in it"),
        (["snooze", "--for", "999h1s"], "option '--for' takes at most 999h, got '999h1s'"),
        (["snooze", "--for"], "option '--for' needs a value"),
        (["status", "tea"], "unexpected argument 'tea': 'status' takes no label"),
        (["status", "tea"], "unexpected argument 'tea': 'status' takes no label"),
        (["ack", "--all", "tea"], "unexpected label 'tea' with '--all': give a label or --all"),
        (["cancel", "tea", "--all"], "unexpected label 'tea' with '--all': give a label or --all"),
        (
            ["ack", "--all", "--mqtt", "mqtt://h", "k/tea"],
            "unexpected label 'k/tea' with '--all': give a label or --all"
        ),
        (["snooze", "--all"], "option '--all' does not work with 'snooze' (only with 'ack' or 'cancel')"),
        (["status", "--all"], "option '--all' does not work with 'status' (only with 'ack' or 'cancel')"),
        (
            ["5m", "--all"],
            "option '--all' does not work with a timer of a given duration (only with 'ack' or 'cancel')"
        ),
        (["ack", "--all=yes"], "option '--all' takes no value: '--all=yes'"),
        (["2", "-D", "--json"], "option '-D' needs a value, got the option '--json'"),
        (["ack", "a/b"], "invalid label 'a/b': give the label as 'eggtimer status' shows it"),
        (
            ["stop"],
            "unknown mode 'stop': expected soft, medium, hard, pomodoro, a duration, or status, ack, cancel, snooze, pause, resume, add, recover, follow, kitchen, start"
        ),
    ])
    func badSubcommandInputNamesTheToken(arguments: [String], message: String) {
        #expect(throws: UsageError(description: message)) { try Options.parse(arguments) }
    }

    /// The help is printed from the parser's tables: every option (but the hidden ones, for
    /// `make install`: InstalledDocumentTests) and subcommand is in it, and every line fits 80 columns.
    @Test func helpListsEveryOptionAndSubcommand() {
        for spec in Options.optionSpecs where spec.group != .hidden {
            for name in spec.names {
                // Internal options (what `eggtimer recover` passes) are accepted but not listed.
                #expect(Options.help.contains(" \(name)") == (spec.group != .hidden), "help and \(name)")
            }
            #expect(!spec.help.isEmpty)
        }
        for subcommand in Options.Subcommand.table {
            #expect(
                Options.help.contains("eggtimer \(subcommand.name) \(subcommand.usage)"),
                "help lacks \(subcommand.name)")
            for alias in subcommand.names.dropFirst() { #expect(Options.help.contains("alias: \(alias)")) }
        }
        for key in Options.keyTable { #expect(Options.help.contains("  \(key.keys)"), "help lacks \(key.keys)") }
        #expect(Options.help.contains("snooze the alarm"))
        #expect(Options.help.split(separator: "\n").allSatisfy { String($0).displayWidth <= Options.helpWidth })
    }

    @Test func helpRowsWrapLongTextsUnderTheirColumn() {
        let rows = Options.helpRows(
            [("  --a D", String(repeating: "word ", count: 30)), ("  --much-too-long-for-it X", "x")], column: 24)
        let lines = rows.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[0].hasPrefix("  --a D") && lines[0].dropFirst(24).hasPrefix("word"))
        #expect(lines[1].hasPrefix(String(repeating: " ", count: 24) + "word"))
        #expect(
            lines.suffix(2).map(String.init) == ["  --much-too-long-for-it X", String(repeating: " ", count: 24) + "x"])
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
