import Testing
import TimerCore

@testable import eggtimer

/// `--help` and the man page print the same prose (Options+Prose.swift) and the presets' own
/// times, and `--help` follows one layout rule.
@Suite struct HelpTextTests {
    /// `text`'s words, one space between them: what stays of a text however it is wrapped.
    static func words(_ text: some StringProtocol) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// The man page's words with its escapes undone (`\-` is `-`) and its font changes dropped.
    static func manWords(_ page: String) -> String {
        var text = page
        for font in ["\\fB", "\\fI", "\\fR"] { text = text.replacing(font, with: "") }
        text = text.replacing("\\-", with: "-").replacing("\\&", with: "")
        return words(text)
    }

    @Test func helpAndManPageCarryTheSameProse() {
        #expect(Options.prose.map(\.title) == ["DURATION", "TIME"])
        for section in Options.prose {
            #expect(
                Self.words(Options.help).contains("\(section.title): " + Self.words(section.text)), "\(section.title)")
            #expect(Self.manWords(Options.manPage).contains(Self.words(section.text)), "\(section.title)")
        }
        // The words the two texts once disagreed on.
        #expect(Options.help.contains("midnight") && Options.manPage.contains("midnight"))
        for key in Options.keyTable {
            #expect(Self.words(Options.help).contains(Self.words("\(key.keys) \(key.action)")), "\(key.keys)")
            #expect(
                Options.manPage.contains(".B \(Options.roff(key.keys).replacing(" ", with: "\\ "))\n"))
        }
        #expect(Self.words(Options.help).contains(Self.words(Options.keyboardlessText)))
        #expect(Self.manWords(Options.manPage).contains(Self.words(Options.keyboardlessText)))
    }

    @Test func theEggTimesComeFromThePresets() {
        #expect(Options.help.contains("the egg menu: Soft 5:00, Medium 7:00, Hard 12:00"))
        var presets = Preset.eggs
        presets[0].duration = .seconds(4 * 60 + 10)
        presets[2].name = "Rubber"
        let help = Options.helpText(presets: presets)
        let man = Options.manText(presets: presets)
        #expect(help.contains("the egg menu: Soft 4:10, Medium 7:00, Rubber 12:00"))
        #expect(Self.manWords(man).contains("the egg menu: Soft 4:10, Medium 7:00, Rubber 12:00"))
        #expect(!help.contains("Soft 5:00") && !man.contains("Soft 5:00"))
        // The keys pick the eggs by their names, in both.
        #expect(Self.words(help).contains("pick Soft, Medium or Rubber") && man.contains("pick Soft, Medium or Rubber"))
        #expect(help.contains("eggtimer soft|medium|rubber") && man.contains("\\fBrubber\\fR"))
    }

    /// Every option's description starts in the one column (on its own line when the option's
    /// names are too wide), as do the usage, subcommand and key rows; every line at column 0 but
    /// the first is a heading ending in `:` after a blank line.
    @Test func theHelpHasOneLayout() throws {
        let lines = Options.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let column = Options.helpColumn
        #expect(column == 30)
        for spec in Options.optionSpecs where spec.group != .hidden {
            let long = try #require(spec.names.last)
            let index = try #require(
                lines.firstIndex { $0.hasPrefix("  ") && $0.contains(" \(long)") && $0.prefix(column).contains(long) },
                "no line for \(long)")
            let line = lines[index]
            let row =
                line.count > column && line.dropLast(line.count - column).hasSuffix("  ") ? line : lines[index + 1]
            #expect(row.prefix(column).hasSuffix("  "), "\(long): \(row)")
            #expect(Array(row)[column] != " ", "\(long): the description does not start at column \(column)")
            #expect(Self.words(Options.help).contains(Self.words(spec.help)), "\(long)")
        }
        for (index, line) in lines.enumerated().dropFirst() where line.first.map({ $0 != " " }) == true {
            #expect(line.hasSuffix(":"), "not a heading: \(line)")
            #expect(lines[index - 1].isEmpty, "no blank line before \(line)")
        }
        for row in ["  eggtimer DURATION", "  eggtimer ack [LABEL]", "  space", "  any other key"] {
            let line = try #require(lines.first { $0.hasPrefix(row + " ") }, "\(row)")
            #expect(line.prefix(column).allSatisfy { $0 != " " } == false && Array(line)[column] != " ", "\(row)")
            #expect(line.dropFirst(row.count).prefix(column - row.count).allSatisfy { $0 == " " }, "\(row)")
        }
    }
}

/// troff reads the man page as ASCII: any other character (an ellipsis, an arrow, a dash typed in
/// prose) is "invalid input character" at install and renders as garbage.
@Suite struct ManPageCharacterTests {
    @Test func theManPageIsASCIIOnly() {
        let page = Options.manPage
        let offending = page.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.unicodeScalars.contains { !$0.isASCII } }
            .map { "line \($0.offset + 1): \($0.element.prefix(80))" }
        #expect(offending.isEmpty, "\(offending)")
    }
}
