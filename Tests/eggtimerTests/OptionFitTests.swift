import Glibc
import TestSupport
import Testing
import TimerText

@testable import eggtimer

/// Which options fit which mode (issue 24).
///
/// An option given where it does nothing is refused with
/// one line naming it and the mode; every combination that does something is accepted. The rows
/// are written by hand, not derived from the option table, so a wrong row in the table fails them.
@Suite struct OptionFitTests {
    /// Command lines whose every option does something: accepted.
    @Test(arguments: [
        ["--soft", "3m", "soft"], ["soft", "--soft", "3m"], ["--size", "L"], ["--soft", "3m", "--medium", "4m"],
        ["hard", "--size", "L", "--altitude", "1500m"], ["medium", "--water", "95C", "--from", "room"],
        ["soft", "--fridge-temperature", "6C"], ["pomodoro", "--wait", "--loops", "2", "--work", "5m"],
        ["pomodoro", "--ring-for", "1m", "--on-done", "true", "--label", "focus", "--json"],
        ["at", "7:05", "--every", "day", "--label", "wake"],
        ["at", "7:05", "-D", "null", "--ramp", "5s", "--volume", "15"],
        ["5m", "--json", "--ring-for", "1m", "--sound", "x.mp3"],
        ["-D", "null", "--label", "tea", "--on-done", "true"],
        ["5m", "--mqtt", "mqtt://h", "--mqtt-keepalive", "5s", "--node", "kitchen", "--mqtt-prefix", "home"],
        ["status", "--json"], ["status", "--mqtt", "mqtt://h", "--mqtt-prefix", "home"],
        ["follow", "--mqtt", "mqtt://h", "-D", "null", "--volume", "15", "--ramp", "1s", "--node", "kitchen"],
        ["follow", "--mqtt", "mqtt://h", "--sound", "x.mp3"], ["ack", "--mqtt", "mqtt://h", "tea"],
        ["kitchen", "--mqtt", "mqtt://h", "--node", "kitchen", "--mqtt-prefix", "home", "--mqtt-keepalive", "5s"],
        ["snooze", "--for", "5m", "tea"], ["cancel", "--mqtt", "mqtt://h", "--mqtt-cafile", "ca.pem"],
        ["pause", "--mqtt", "mqtt://h", "tea"], ["add", "--mqtt", "mqtt://h", "60"], ["resume", "--mqtt", "mqtt://h"],
        ["recover", "--boot"], ["--resume-record", "/x.timer", "--json"], ["--print-man"],
        ["--print-completion", "bash"],
    ])
    func optionsThatDoSomethingAreAccepted(arguments: [String]) {
        #expect(throws: Never.self) { try Options.parse(arguments) }
    }

    /// Command lines with an option that does nothing there: the message names the option, the
    /// mode, and where the option does fit.
    @Test(arguments: [
        (
            ["10m", "--soft", "3m"],
            "option '--soft' does not work with a timer of a given duration (only with the egg menu or 'soft')"
        ),
        (
            ["10m", "--weight", "62g"],
            "option '--weight' does not work with a timer of a given duration (only with the egg menu or an egg)"
        ),
        (
            ["pomodoro", "--size", "L"],
            "option '--size' does not work with 'pomodoro' (only with the egg menu or an egg)"
        ),
        (["at", "7:05", "--hard", "3m"], "option '--hard' does not work with 'at' (only with the egg menu or 'hard')"),
        (["hard", "--soft", "3m"], "option '--soft' does not work with 'hard' (only with the egg menu or 'soft')"),
        (
            ["at", "7:05", "--from", "room"],
            "option '--from' does not work with 'at' (only with the egg menu or an egg)"
        ),
        (["10m", "--wait"], "option '--wait' does not work with a timer of a given duration (only with 'pomodoro')"),
        (
            ["5m", "--sets", "2"],
            "option '--sets' does not work with a timer of a given duration (only with 'pomodoro')"
        ),
        (["--work", "5m"], "option '--work' does not work with the egg menu (only with 'pomodoro')"),
        (["soft", "--every", "day"], "option '--every' does not work with 'soft' (only with 'at')"),
        (["status", "--loops", "2"], "option '--loops' does not work with 'status' (only with a timer)"),
        (["follow", "--json"], "option '--json' does not work with 'follow' (only with a timer or 'status')"),
        (["recover", "-D", "null"], "option '-D' does not work with 'recover' (only with a timer or 'follow')"),
        (
            ["ack", "--node", "k"],
            "option '--node' does not work with 'ack' (only with a timer, 'follow' or 'kitchen')"
        ),
        (["snooze", "--boot"], "option '--boot' does not work with 'snooze' (only with 'recover')"),
        (
            ["--resume-record", "/x.timer", "-D", "null"],
            "option '-D' does not work with --resume-record (only with a timer or 'follow')"
        ),
        (
            ["--resume-record", "/x.timer", "5m"],
            "option '--resume-record' does not work with a timer of a given duration (only with no mode word)"
        ),
        (
            ["--print-man", "5m"],
            "option '--print-man' does not work with a timer of a given duration (only with the egg menu)"
        ),
    ])
    func optionsThatDoNothingAreRefused(arguments: [String], message: String) {
        #expect(throws: UsageError(description: message)) { try Options.parse(arguments) }
    }

    /// The config file is shared by every mode: its keys apply where they fit and are left unused
    /// elsewhere, never refused.
    @Test func configKeysNeverMakeAModeFail() throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let text = "soft = 3m\nsize = L\nfrom = room\nring-for = 1m\nvolume = 50\nramp = 1s\ndevice = null\n"
        writeFile(dir + "/config", Array(text.utf8))
        let base = try Options.settings(
            from: ConfigFile(
                location: .init(path: Array((dir + "/config").utf8), required: true), contents: Array(text.utf8)))
        for arguments in [["5m"], ["pomodoro"], ["at", "7:05"], ["hard"], []] {
            #expect(throws: Never.self, "\(arguments)") { try Options.parse(arguments, base: base) }
        }
        let run = runEggtimer(["1", "--loops", "1"], environment: ["EGGTIMER_CONFIG": dir + "/config"])
        #expect(run.termination == .exited(0), "\(run.stderr)")
    }
}

/// The same through the built binary: the exit status, and for a refusal its one line.
@Suite struct OptionFitEndToEndTests {
    /// One command line: the status it ends with, and for a refusal its message (nil: accepted,
    /// it ran or stopped for a reason of its own).
    struct Row: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: Int32
        var message: String?
        var testDescription: String { arguments.joined(separator: " ") }
        init(_ arguments: [String], _ status: Int32, _ message: String?) {
            (self.arguments, self.status, self.message) = (arguments, status, message)
        }
    }

    static let rows: [Row] = [
        Row(["1", "-D", "null", "--loops", "1"], 0, nil),
        Row(["soft", "--soft", "1s", "-D", "null", "--loops", "1"], 0, nil),
        Row(["hard", "--size", "L", "--hard", "1s", "-D", "null", "--loops", "1"], 0, nil),
        Row(
            [
                "1", "--label", "tea", "--ring-for", "5s", "--volume", "50", "--ramp", "1s", "--on-done", "true", "-D",
                "null", "--loops", "1",
            ], 0, nil
        ),
        Row(
            [
                "pomodoro", "--work", "1s", "--short-break", "1s", "--long-break", "1s", "--long-break-after", "1",
                "-D", "null", "--loops", "1",
            ], 0, nil
        ),
        Row(["--soft", "3m", "--size", "L", "-D", "null"], 64, "needs a keyboard"),
        Row(["status", "--json"], 0, nil),
        Row(["ack"], 3, nil),
        Row(["snooze", "--for", "5m"], 3, nil),
        Row(["recover", "--boot"], 3, nil),
        Row(["recover", "--quiet"], 3, nil),
        Row(["snooze", "--for", "5", "min"], 64, "'min': a unit needs its number before it"),
        Row(["add", "5", "min", "tea"], 64, "'min': a unit needs its number before it"),
        Row(["status", "--quiet"], 64, "option '--quiet' does not work with 'status' (only with 'recover')"),
        Row(["--resume-record", "/nonexistent/x.timer", "--json"], 66, nil),
        Row(["10m", "--soft", "3m"], 64, "option '--soft' does not work with a timer of a given duration"),
        Row(["10m", "--weight", "62g"], 64, "option '--weight' does not work with a timer of a given duration"),
        Row(["pomodoro", "--size", "L"], 64, "option '--size' does not work with 'pomodoro'"),
        Row(["at", "7:05", "--hard", "3m"], 64, "option '--hard' does not work with 'at'"),
        Row(["hard", "--medium", "3m"], 64, "option '--medium' does not work with 'hard'"),
        Row(["10m", "--wait"], 64, "option '--wait' does not work with a timer"),
        Row(["5m", "--sets", "2"], 64, "option '--sets' does not work with a timer"),
        Row(["soft", "--every", "day"], 64, "option '--every' does not work with 'soft'"),
        Row(["at", "7:05", "--work", "5m"], 64, "option '--work' does not work with 'at'"),
        Row(["pomodoro", "--for", "5m"], 64, "option '--for' does not work with 'pomodoro'"),
        Row(["status", "-D", "null"], 64, "option '-D' does not work with 'status'"),
        Row(["ack", "--json"], 64, "option '--json' does not work with 'ack'"),
        Row(["recover", "--mqtt", "mqtt://h"], 64, "option '--mqtt' does not work with 'recover'"),
        Row(["follow", "--loops", "3"], 64, "option '--loops' does not work with 'follow'"),
        Row(["--resume-record", "/x.timer", "-D", "null"], 64, "option '-D' does not work with --resume-record"),
        Row(["--print-man", "5m"], 64, "option '--print-man' does not work with a timer"),
    ]

    @Test(arguments: rows)
    func theBinaryRefusesOnlyOptionsThatDoNothing(row: Row) {
        let result = runEggtimer(row.arguments, timeout: .seconds(20))
        #expect(result.termination == .exited(row.status), "\(row.arguments): \(result.stderr)")
        if let message = row.message {
            #expect(result.stderr.hasPrefix("eggtimer: ") && result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        } else {
            #expect(!result.stderr.contains("does not work with"), "\(result.stderr)")
        }
    }
}

/// The completion offers, after a mode word, only the options that fit it.
@Suite struct OptionFitCompletionTests {
    /// The options the completion's `case` arm for `word` offers.
    static func offered(after word: String) -> [String] {
        let lines = Options.bashCompletion.split(separator: "\n")
        guard let arm = lines.firstIndex(where: { $0.hasPrefix("        \(word))") }) else { return [] }
        let line = lines[arm...].first { $0.contains("options=\"") }
        return line.map { $0.split(separator: "\"")[1].split(separator: " ").map(String.init) } ?? []
    }

    @Test func eachModeIsOfferedWhatFitsIt() {
        #expect(Self.offered(after: "soft").contains("--soft") && !Self.offered(after: "soft").contains("--medium"))
        #expect(Self.offered(after: "hard").contains("--size") && Self.offered(after: "hard").contains("--label"))
        #expect(
            Self.offered(after: "pomodoro").contains("--work") && !Self.offered(after: "pomodoro").contains("--size"))
        #expect(Self.offered(after: "at").contains("--every") && !Self.offered(after: "at").contains("--hard"))
        let duration = Self.offered(after: "*")
        #expect(duration.contains("--loops") && !duration.contains("--soft") && !duration.contains("--wait"))
        #expect(!Self.offered(after: "follow").contains("--loops") && Self.offered(after: "follow").contains("-D"))
    }
}
