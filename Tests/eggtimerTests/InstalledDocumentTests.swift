import TestSupport
import Testing
import TimerCore
import TimerText

@testable import TimerEngine
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
                "--mqtt-keepalive", "--http-keepalive", "--print-man", "--print-completion", "--resume-record",
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
        let requests: Set<Substring> = [".\\\"", ".TH", ".nh", ".SH", ".SS", ".TP", ".PP", ".B", ".I", ".BR", ".br"]
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

    /// The README is for a user (issue 24): at most 150 lines, the reference lives in the man page.
    @Test func theReadmeIsAtMost150Lines() throws {
        let readme = try #require(readFile(repositoryRoot + "/README.md"))
        let lines = readme.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count - 1
        #expect(
            lines > 0 && lines <= 150, "README.md has \(lines) lines; move the detail to the man page or docs/DESIGN.md"
        )
    }

    /// Its first 40 lines get a person from nothing to a labelled timer acknowledged from another shell.
    @Test func theReadmesFirst40LinesReachALabelledTimerAcknowledged() throws {
        let readme = String(decoding: try #require(readFile(repositoryRoot + "/README.md")), as: UTF8.self)
        let head = readme.split(separator: "\n", omittingEmptySubsequences: false).prefix(40).joined(separator: "\n")
        for needed in ["make run", "make test", "make install", ".build/release/eggtimer", "-D null", "--label", "ack"]
        {
            #expect(head.contains(needed), "README's first 40 lines lack \(needed)")
        }
    }

    /// The targets `Package.swift` declares (`.target`, `.executableTarget`, `.testTarget`, `.systemLibrary`).
    static func packageTargets() throws -> [String] {
        let manifest = String(decoding: try #require(readFile(repositoryRoot + "/Package.swift")), as: UTF8.self)
        var names: [String] = []
        var rest = manifest[...]
        while let found = rest.firstRange(of: "name: \"") {
            let before = manifest[..<found.lowerBound].reversed().drop { $0 == " " || $0 == "\n" }
            let opener = String(before.prefix { $0 != "." && $0 != " " && $0 != "\n" }.reversed())
            let name = rest[found.upperBound...].prefix { $0 != "\"" }
            if ["target(", "executableTarget(", "testTarget(", "systemLibrary("].contains(opener) {
                names.append(String(name))
            }
            rest = rest[found.upperBound...]
        }
        return names
    }

    /// docs/DESIGN.md, for people changing the code, names every target of the package.
    @Test func theDesignNotesNameEveryTarget() throws {
        let design = String(decoding: try #require(readFile(repositoryRoot + "/docs/DESIGN.md")), as: UTF8.self)
        let targets = try Self.packageTargets()
        #expect(targets.count >= 10 && targets.contains("TimerCore") && targets.contains("CSystem"))
        for target in targets { #expect(design.contains("`\(target)`"), "docs/DESIGN.md does not name \(target)") }
    }

    /// The man page is the full reference (issue 24): the sections moved from the README are there,
    /// and CONFIGURATION names every config-file key.
    @Test func theManPageCarriesTheReferenceTheReadmeUsedTo() throws {
        let page = Options.manPage
        for section in ["EGGS", "FROM ANOTHER SHELL", "ALARMS AT A TIME", "LOG", "CONFIGURATION", "NEVER SILENT"] {
            #expect(page.contains("\n.SH \(section)\n"), "man page lacks \(section)")
        }
        let configuration = try #require(page.firstRange(of: "\n.SH CONFIGURATION\n"))
        let section = page[configuration.upperBound...].split(separator: "\n.SH ").first ?? ""
        for key in Options.configSpecs.map(\.key) {
            #expect(section.contains("\\fB\(Options.roff(key))\\fR"), "CONFIGURATION lacks \(key)")
        }
        for fact in ["0.451", "audio_stopped_t_mono_ns", "overdue_s", "QoS 1", "byte\\-order mark", "500 ms"] {
            #expect(page.contains(fact), "man page lacks \(fact)")
        }
    }

    /// groff reads the page as Latin-1 and warns on UTF-8 bytes (scripts/test-install.sh renders it
    /// with `groff -ww`): the page is plain ASCII, other characters written as troff escapes.
    @Test func theManPageIsPlainASCII() {
        let other = Options.manPage.unicodeScalars.filter { !$0.isASCII }
        #expect(other.isEmpty, "man page has non-ASCII characters: \(String(String.UnicodeScalarView(other)))")
    }
}
