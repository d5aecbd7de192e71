import KitchenWeb
import TestSupport
import Testing
import TextCoding
import TimerCore
import TimerModel

@testable import eggtimer

/// The man page's prose is the roff source dist/eggtimer.1.in, its lists filled from the tables
/// the parser reads (issue 38): no slot is left unfilled, no value fills nothing, every entry of
/// every table is on the printed page, and the binary prints the repository's file.
@Suite struct ManPageSourceTests {
    /// The repository's file, as text.
    private func file(_ path: String) throws -> String {
        String(decoding: try #require(readFile(repositoryRoot + "/" + path), "no \(path)"), as: UTF8.self)
    }

    @Test func theBinaryPrintsTheDistSourceFilled() throws {
        let source = try file("dist/eggtimer.1.in")
        #expect(try file("Sources/eggtimer/Man/eggtimer.1.in") == source, "the embedded link points elsewhere")
        let template = FileTemplate(Array(source.utf8))
        #expect(template.slots == Options.manTemplate.slots, "the binary embeds another eggtimer.1.in")
        #expect(template.filled(Options.manSlots(Preset.eggs)) == Options.manPage)
    }

    @Test(arguments: [Preset.eggs, [Preset(name: "Runny", duration: .seconds(200))]])
    func everySlotIsFilledAndEveryValueHasASlot(presets: [Preset]) {
        #expect(Set(Options.manSlots(presets).keys) == Set(Options.manTemplate.slots))
        let page = Options.manText(presets: presets)
        #expect(FileTemplate(Array(page.utf8)).slots.isEmpty, "a slot is left in the page")
        #expect(page.hasSuffix("\n") && !page.hasSuffix("\n\n"))
    }

    /// Every option group but the hidden one has its OPTIONS heading in the source.
    @Test func everyOptionGroupHasItsHeading() {
        let groups = Options.manOptionGroups.map(\.group)
        for spec in Options.optionSpecs where spec.group != .hidden {
            #expect(groups.contains(spec.group), "\(spec.names) is in a group the man page has no heading for")
        }
    }

    /// The long break is named as the screen and the log name it (issue 24: it was "Rest break.").
    @Test func theLongBreakIsNamedAsTheScreenAndTheLogNameIt() {
        #expect(Options.manPage.contains(#""Long break." (\fBlong break\fR)"#))
    }

    @Test func everyEntryOfTheTablesIsOnThePage() {
        let page = Options.manPage
        for spec in Options.optionSpecs where spec.group != .hidden {
            let head = spec.names.map { "\\fB" + Options.roff($0) + "\\fR" }.joined(separator: ", ")
            #expect(page.contains(".TP\n" + head), "no entry for \(spec.names)")
        }
        for subcommand in Options.Subcommand.table {
            #expect(page.contains(".br\n.B eggtimer \(subcommand.name)\n"), "no synopsis of \(subcommand.name)")
            #expect(page.contains(".TP\n\\fBeggtimer \(Options.roff(subcommand.name))\\fR"), "\(subcommand.name)")
        }
        for mode in Options.modes { #expect(page.contains(".br\n.B eggtimer \(mode.name)\n"), "\(mode.name)") }
        for state in TimerState.allCases { #expect(page.contains(".TP\n.B \(state.rawValue)\n"), "\(state)") }
        for entry in ExitStatus.table { #expect(page.contains(".TP\n.B \(entry.status.code)\n"), "\(entry.status)") }
        for key in Options.configSpecs.map({ "\\fB" + Options.roff($0.key) + "\\fR" }) {
            #expect(page.contains(key + ", ") || page.contains(key + ".\n"), "\(key)")
        }
        for key in Options.keyTable(Preset.eggs) {
            #expect(page.contains(".TP\n.B \(Options.roff(key.keys).replacing(" ", with: "\\ "))\n"), "\(key.keys)")
        }
        #expect(page.contains("\"eggtimer \(Version.current)\""))
        #expect(page.contains("(1 to \(KitchenAPI.startSecondsLimit))"))
    }
}
