import Testing
import TimerModel

@testable import eggtimer

/// The man page's lists of commands say the words of the one vocabulary (`Command.verb`): every
/// command in the MQTT command topic's entry and in the control socket's protocol, and no other
/// word there (issue 22: the man page's words come from the same definitions).
@Suite struct CommandWordsTests {
    /// One command of each case.
    static let everyCommand: [Command] = [
        .status, .acknowledge, .cancel, .snooze(nil), .pause, .resume, .add(.seconds(60)),
    ]

    /// The man page's text from the line `start` to the next `.TP`.
    private func entry(after start: String) throws -> Substring {
        let page = Options.manPage
        let begin = try #require(page.firstRange(of: start))
        let rest = page[begin.upperBound...]
        return rest[..<(rest.firstRange(of: "\n.TP")?.lowerBound ?? rest.endIndex)]
    }

    @Test func theMQTTCommandEntryNamesEveryCommandsVerb() throws {
        let text = try entry(after: ".I P/NODE/LABEL/command")
        for command in Self.everyCommand { #expect(text.contains("\\fB\(command.verb)"), "\(command.verb)") }
    }

    @Test func theSocketProtocolNamesEveryCommandsVerbAndWatch() throws {
        let text = try entry(after: "The socket speaks a line protocol")
        for command in Self.everyCommand { #expect(text.contains("\\fB\(command.verb)\\fR"), "\(command.verb)") }
        #expect(text.contains("\\fBwatch\\fR"))
    }

    @Test func theVocabularyHasOneVerbPerCase() {
        let verbs = Self.everyCommand.map(\.verb)
        #expect(verbs == ["status", "ack", "cancel", "snooze", "pause", "resume", "add"])
        #expect(Set(verbs).count == verbs.count)
    }
}
