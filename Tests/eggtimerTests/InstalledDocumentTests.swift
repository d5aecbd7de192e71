import Testing
import TimerCore
import TimerText

@testable import eggtimer

/// The man page and the bash completion that `make install` writes are generated from the option
/// tables: every visible option and subcommand is in both, the hidden ones in neither, and the
/// binary prints them. (Rendering, sourcing and the units are checked on an installed tree by
/// scripts/test-install.sh, which `make test` runs after `swift test`.)
@Suite struct InstalledDocumentTests {
    /// The options `--help` lists, and the hidden ones.
    static let visible = Options.optionSpecs.filter { $0.group != .hidden }
    static let hidden = Options.optionSpecs.filter { $0.group == .hidden }
    /// The completion script without its comment lines (the first names `--print-completion`).
    static let completionCode = Options.bashCompletion.split(separator: "\n")
        .filter { !$0.trimmingPrefix(while: { $0 == " " }).hasPrefix("#") }.joined(separator: "\n")

    @Test func everyOptionIsInTheManPageAndTheCompletion() {
        #expect(!Self.visible.isEmpty)
        for name in Self.visible.flatMap(\.names) {
            #expect(Options.manPage.contains("\\fB\(Options.roff(name))\\fR"), "man page lacks \(name)")
            #expect(
                Options.bashCompletion.contains(" \(name) ") || Options.bashCompletion.contains(" \(name)\""),
                "completion lacks \(name)")
            #expect(Options.help.contains(name), "--help lacks \(name)")
        }
    }

    @Test func everySubcommandIsInTheManPageAndTheCompletion() {
        for subcommand in Options.Subcommand.table {
            #expect(Options.manPage.contains("\\fBeggtimer \(Options.roff(subcommand.name))\\fR"))
            // One `case` arm per subcommand, its aliases with it; and offered as a first word.
            #expect(Options.bashCompletion.contains("        \(subcommand.names.joined(separator: " | ")))\n"))
        }
        let modes = Options.bashCompletion.split(separator: "\n").first { $0.contains("local modes=") }
        let words = modes.map { $0.split(separator: "\"")[1].split(separator: " ").map(String.init) } ?? []
        #expect(words == Options.Subcommand.table.flatMap(\.names) + ["soft", "medium", "hard", "pomodoro", "at"])
    }

    @Test func everyExitStatusIsInTheManPage() {
        for entry in ExitStatus.table {
            #expect(
                Options.manPage.contains(".TP\n.B \(entry.status.code)\n"), "man page lacks status \(entry.status.code)"
            )
        }
    }

    @Test func hiddenOptionsAreListedNowhere() {
        #expect(
            Self.hidden.flatMap(\.names) == [
                "--mqtt-keepalive", "--print-man", "--print-completion", "--resume-record",
            ])
        for name in Self.hidden.flatMap(\.names) {
            #expect(!Options.help.contains(name))
            #expect(!Options.manPage.contains(Options.roff(name)))
            #expect(!Self.completionCode.contains(name))
        }
    }

    @Test func theManPageHasEverySectionAndNoBlankOrRequestLookingLine() {
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SUBCOMMANDS", "KEYS", "FILES", "ENVIRONMENT",
            "EXIT STATUS", "EXAMPLES",
        ] {
            #expect(Options.manPage.contains("\n.SH \(section)\n"), "no \(section)")
        }
        for variable in ["EGGTIMER_CONFIG", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "NO_COLOR", "TERM"]
        {
            #expect(Options.manPage.contains(variable))
        }
        let lines = Options.manPage.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { !$0.isEmpty && !$0.hasPrefix("'") })
        let requests: Set<Substring> = [".TH", ".nh", ".SH", ".SS", ".TP", ".PP", ".B", ".I", ".BR", ".br"]
        #expect(lines.allSatisfy { !$0.hasPrefix(".") || requests.contains($0.prefix { $0 != " " }) })
    }

    @Test(arguments: [
        ("--device", "\\-\\-device"), (".dot", "\\&.dot"), ("a\\b", "a\\eb"), ("'quote", "\\&'quote"),
    ])
    func roffEscapesWhatTroffWouldRead(text: String, escaped: String) {
        #expect(Options.roff(text) == escaped)
    }

    @Test func usageStringsAreSetInBoldAndItalic() {
        #expect(Options.roffUsage("[LABEL] [--for D]") == "[\\fILABEL\\fR] [\\fB\\-\\-for\\fR \\fID\\fR]")
    }

    @Test(arguments: [
        (["--print-man"], Options.Command.print(.manPage)),
        (["--print-completion", "bash"], .print(.bashCompletion)),
        (["--print-completion=bash"], .print(.bashCompletion)),
    ])
    func hiddenOptionsParse(arguments: [String], command: Options.Command) throws {
        #expect(try Options.parse(arguments).command == command)
    }

    @Test func aCompletionForAnotherShellIsAUsageError() {
        #expect(throws: UsageError.self) { try Options.parse(["--print-completion", "zsh"]) }
    }

    @Test func theBinaryPrintsBothDocuments() {
        let man = runEggtimer(["--print-man"])
        #expect(man.termination == .exited(0))
        #expect(man.stdout == Options.manPage)
        let completion = runEggtimer(["--print-completion", "bash"])
        #expect(completion.termination == .exited(0))
        #expect(completion.stdout == Options.bashCompletion)
        #expect(completion.stderr.isEmpty)
    }
}
