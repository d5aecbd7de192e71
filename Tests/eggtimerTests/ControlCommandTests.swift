import ControlChannel
import Glibc
import Testing
import TimerModel

@testable import TerminalUI
@testable import TimerEngine
@testable import eggtimer

/// A time zone one hour east of UTC, whatever TZ the test runs in.
let utcPlusOne = LocalTime { seconds in
    var shifted = seconds + 3600
    var parts = tm()
    gmtime_r(&shifted, &parts)
    parts.tm_gmtoff = 3600
    return parts
}

/// 2026-11-30T08:12:03Z, in milliseconds since the epoch (09:12:03 at UTC+1).
private let nineTwelve: Int64 = 1_796_026_323_000

/// A timer's status with the fields the tests vary.
func timer(_ label: String, _ state: TimerState, pid: Int32 = 100, remaining: Duration = .seconds(60)) -> TimerStatus {
    TimerStatus(label: label, pid: pid, state: state, remaining: remaining, deadlineUnixMilliseconds: nil)
}

@Suite struct TimerSelectionTests {
    @Test(arguments: [
        ([timer("soft", .counting)], "soft"),
        ([timer("soft", .paused)], "soft"),  // the only one, whatever its state
        ([timer("soft", .counting), timer("tea", .ringing)], "tea"),
        ([timer("soft", .silent), timer("tea", .counting)], "soft"),
        ([timer("a", .snoozed), timer("b", .ringing), timer("c", .paused)], "b"),
    ])
    func withoutALabelTheOnlyTimerElseTheOnlyRingingOne(timers: [TimerStatus], chosen: String) throws {
        #expect(try TimerSelection.target(among: timers, label: nil, verb: "ack").label == chosen)
    }

    @Test(arguments: [
        ("soft", ["soft", "tea"], "soft"), ("Soft", ["soft", "tea"], "soft"), ("KÜCHE", ["küche"], "küche"),
        ("Roast Beef", ["roast beef", "roast_beef"], "roast beef"), ("tea", ["soft"], "tea"), ("x", [], "x"),
    ])
    func aLabelMeansTheSocketOfItsKey(label: String, labels: [String], meant: String) {
        #expect(TimerSelection.socketLabel(for: label, among: labels) == meant)
    }

    @Test func aLabelPicksThatTimerWhateverTheOthersDo() throws {
        let timers = [timer("soft", .ringing), timer("tea", .counting), timer("x", .ringing)]
        #expect(try TimerSelection.target(among: timers, label: "tea", verb: "cancel").label == "tea")
    }

    @Test(arguments: [
        ([TimerStatus](), String?.none, "ack", ExitStatus.noTimer, "no timers running"),
        ([], "tea", "ack", .noTimer, "no timer labelled 'tea' is running"),
        ([timer("soft", .ringing)], "tea", "snooze", .noTimer, "no timer labelled 'tea' is running"),
        (
            [timer("soft", .ringing), timer("tea", .ringing)], nil, "ack", .usage,
            "2 timers are running: soft (ringing), tea (ringing); name one: eggtimer ack LABEL"
        ),
        (
            [timer("a", .counting), timer("b", .paused), timer("c", .snoozed)], nil, "cancel", .usage,
            "3 timers are running: a (counting), b (paused), c (snoozed); name one: eggtimer cancel LABEL"
        ),
    ])
    func nothingOrTooMuchToActOn(
        timers: [TimerStatus], label: String?, verb: String, status: ExitStatus, message: String
    ) {
        #expect(throws: ControlFailure(status: status, message: message)) {
            try TimerSelection.target(among: timers, label: label, verb: verb)
        }
    }
}

/// `ack --all` and `cancel --all` (issue 24): which timers each acts on, and the failure when none fits.
@Suite struct AllTimersSelectionTests {
    private let kitchen = [
        timer("a", .counting), timer("b", .ringing), timer("c", .paused), timer("d", .snoozed),
        timer("e", .silent), timer("f", .menu), timer("g", .done),
    ]

    @Test func ackAllTakesEveryRingingSilentOrSnoozedTimer() throws {
        #expect(try TimerSelection.all(among: kitchen, for: .acknowledge).map(\.label) == ["b", "d", "e"])
    }

    @Test func cancelAllTakesEveryTimerNotOverYet() throws {
        #expect(try TimerSelection.all(among: kitchen, for: .cancel).map(\.label) == ["a", "b", "c", "d", "e", "f"])
    }

    @Test(arguments: [
        ([TimerStatus](), Command.acknowledge, "no timer is ringing or snoozed"),
        ([timer("a", .counting), timer("b", .paused)], .acknowledge, "no timer is ringing or snoozed"),
        ([], .cancel, "no timers running"), ([timer("g", .done)], .cancel, "no timers running"),
        ([timer("b", .ringing)], .snooze(nil), "no timers running"),
    ])
    func noneFittingIsTheNoTimerStatus(timers: [TimerStatus], command: Command, message: String) {
        #expect(throws: ControlFailure(status: .noTimer, message: message)) {
            try TimerSelection.all(among: timers, for: command)
        }
    }
}

@Suite struct ControlOutcomeTests {
    private func outcome(_ reply: String, _ command: Command) -> Result<String, ControlFailure> {
        ControlAnswer.outcome(of: reply, command: command, label: "soft", time: utcPlusOne)
    }

    @Test func successSaysWhatHappenedInOneLine() {
        let snoozed = TimerStatus(
            label: "soft", pid: 1, state: .snoozed, remaining: .seconds(600),
            deadlineUnixMilliseconds: 1_796_026_923_456)
        #expect(
            outcome("ok\tlabel=soft\tpid=1\tstate=done\tremaining_ns=0", .acknowledge)
                == .success("soft: alarm stopped"))
        #expect(outcome("ok", .cancel) == .success("soft: cancelled"))
        #expect(outcome(snoozed.line, .snooze(nil)) == .success("soft: snoozed until 09:22:03"))
        #expect(outcome("ok", .snooze(.seconds(60))) == .success("soft: snoozed"))
    }

    @Test func aRefusalIsTheTimersTextWithTheNothingToActOnStatus() {
        #expect(
            outcome("error\tsoft is counting, not ringing", .acknowledge)
                == .failure(ControlFailure(status: .noTimer, message: "soft is counting, not ringing")))
        #expect(outcome("error\t", .cancel) == .failure(ControlFailure(status: .noTimer, message: "soft refused")))
    }

    @Test(arguments: ["", "okay", "OK", "HTTP/1.1 400 Bad Request", "error"])
    func anAnswerOutsideTheProtocolIsAnInternalError(reply: String) {
        #expect(
            outcome(reply, .acknowledge)
                == .failure(
                    ControlFailure(status: .software, message: "soft answered something that is not eggtimer's")))
    }
}

@Suite struct StatusReportTests {
    @Test func noTimersIsOneLine() {
        #expect(StatusReport.table([], time: utcPlusOne, now: nineTwelve) == "no timers running\n")
        #expect(StatusReport.json([], time: utcPlusOne) == "[]\n")
    }

    /// Timers that did not answer run: they are counted, never "no timers running" (issue 24).
    @Test func timersThatDoNotAnswerAreCountedAsRunning() {
        let stopped = "jc: stopped (SIGSTOP or Ctrl-Z), not answering (pid 9)"
        #expect(
            StatusReport.table([], unanswered: [stopped], time: utcPlusOne, now: nineTwelve)
                == "1 timer running, not answering:\n  \(stopped)\n")
        let both = StatusReport.table(
            [timer("tea", .counting)], unanswered: [stopped, "x\u{1B}: no answer within 1 s"], time: utcPlusOne,
            now: nineTwelve)
        #expect(both.hasPrefix("LABEL "))
        #expect(
            both.hasSuffix("\n2 timers more running, not answering:\n  \(stopped)\n  x\\x1B: no answer within 1 s\n"))
        #expect(!both.contains(StatusReport.noneRunning))
    }

    @Test(arguments: [
        (
            ControlFailure(status: .noTimer, message: "no timers running"), 2,
            "no timer answering (2 running, not answering)"
        ),
        (ControlFailure(status: .noTimer, message: "no timers running"), 0, "no timers running"),
        (
            ControlFailure(status: .noTimer, message: "no timer labelled 'x' is running"), 1,
            "no timer labelled 'x' is running"
        ),
    ])
    func nothingChosenSaysTimersThatDoNotAnswerRun(failure: ControlFailure, count: Int, message: String) {
        #expect(TimerSelection.unanswered(failure, count: count).message == message)
    }

    /// Issue 41: a `snooze 5m` without `--for` that finds no timer `5m` says how to give a length.
    ///
    /// A label that is no duration, another command, or another failure: as it was.
    @Test(arguments: [
        (Command.snooze(nil), "5m", "no timer labelled '5m' is running (to snooze for 5m, give --for 5m)"),
        (.snooze(nil), "1:30", "no timer labelled '1:30' is running (to snooze for 1:30, give --for 1:30)"),
        (
            .snooze(nil), "spätzle 2s",
            "no timer labelled 'spätzle 2s' is running (to snooze spätzle for 2s, give: snooze spätzle --for 2s)"
        ),
        (
            .snooze(nil), "roast beef 5 min",
            "no timer labelled 'roast beef 5 min' is running "
                + "(to snooze roast beef for 5 min, give: snooze roast beef --for '5 min')"
        ),
        (.snooze(nil), "tea", "no timer labelled 'tea' is running"),
        (.acknowledge, "5m", "no timer labelled '5m' is running"),
    ])
    func aSnoozeOfALabelThatReadsAsADurationSaysHowToGiveOne(command: Command, label: String, message: String) {
        let failure = ControlFailure(status: .noTimer, message: "no timer labelled '\(label)' is running")
        #expect(ControlCommands.snoozeHint(failure, command: command, label: label).message == message)
        let several = ControlFailure(status: .usage, message: "2 timers are running")
        #expect(ControlCommands.snoozeHint(several, command: command, label: label) == several)
    }

    @Test func theTableHasAHeaderAndAlignedRows() {
        var soft = timer("soft", .counting, pid: 4242, remaining: .milliseconds(298_500))
        // A time of day is cut to its second (09:12:03.999 is 09:12:03, when the log says the time
        // is up); the time left is rounded up (298.5 s is 4:59): WholeSeconds.
        soft.deadlineUnixMilliseconds = nineTwelve + 999
        let tea = timer("tea", .paused, pid: 17, remaining: .seconds(3723))
        #expect(
            StatusReport.table([soft, tea], time: utcPlusOne, now: nineTwelve) == """
                LABEL   PID  STATE     REMAINING  RINGS AT
                soft   4242  counting       4:59  09:12:03
                tea      17  paused      1:02:03  -

                """)
    }

    /// Columns are aligned by terminal columns, not characters: a wide label takes two each.
    @Test func columnsAreAlignedByDisplayWidth() {
        let lines = StatusReport.table(
            [timer("日本", .ringing), timer("abcde", .ringing)], time: utcPlusOne, now: nineTwelve
        )
        .split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let pidEnds = lines.map { line in line.prefix { $0 != "r" && $0 != "S" }.description.displayWidth }
        #expect(Set(pidEnds).count == 1, "\(lines)")
    }

    @Test func controlCharactersFromATimerAreEscaped() {
        // A state word is one of the vocabulary's or the line is not read at all; a label is escaped.
        #expect(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=ring\u{1B}[2J\tremaining_ns=0") == nil)
        let table = StatusReport.table([timer("x\u{1B}[2J", .ringing)], time: utcPlusOne, now: nineTwelve)
        #expect(!table.contains("\u{1B}") && table.contains("x\\x1B[2J"))
    }

    @Test func jsonIsAnArrayOfObjectsWithLocalDeadlines() {
        var soft = timer("soft", .ringing, pid: 42, remaining: .zero)
        soft.deadlineUnixMilliseconds = nineTwelve
        let tea = timer("tea", .paused, pid: 7, remaining: .milliseconds(299_500))
        #expect(
            StatusReport.json([soft, tea], time: utcPlusOne)
                == "[{\"label\":\"soft\",\"pid\":42,\"state\":\"ringing\",\"remaining_s\":0,"
                + "\"deadline\":\"2026-11-30T09:12:03+01:00\"},"
                + "{\"label\":\"tea\",\"pid\":7,\"state\":\"paused\",\"remaining_s\":299.5,\"deadline\":null}]\n")
    }

    @Test(arguments: [(Int(0), "+00:00"), (3600, "+01:00"), (-(9 * 3600 + 30 * 60), "-09:30"), (20700, "+05:45")])
    func isoTimesCarryTheUTCOffset(offset: Int, text: String) {
        let zone = LocalTime { seconds in
            var shifted = seconds + offset
            var parts = tm()
            gmtime_r(&shifted, &parts)
            parts.tm_gmtoff = offset
            return parts
        }
        #expect(zone.isoText(unixMilliseconds: 0).hasSuffix(text))
        #expect(utcPlusOne.isoText(unixMilliseconds: -1001) == "1970-01-01T00:59:58+01:00")
        #expect(utcPlusOne.isoText(unixMilliseconds: -1000) == "1970-01-01T00:59:59+01:00")
        // Cut to the second, also before 1970 (WholeSeconds).
        #expect(utcPlusOne.isoText(unixMilliseconds: -1) == "1970-01-01T00:59:59+01:00", "truncated")
        #expect(utcPlusOne.clockText(unixMilliseconds: nineTwelve) == "09:12:03")
        #expect(utcPlusOne.clockText(unixMilliseconds: nineTwelve - 1) == "09:12:02")
        #expect(utcPlusOne.clockText(unixMilliseconds: nineTwelve + 999) == "09:12:03")
    }
}

/// The CLI's subcommands speak the one vocabulary: each maps to a ``Command``, whose socket line
/// (and MQTT payload) is what goes out.
@Suite struct ControlCommandVocabularyTests {
    @Test(
        arguments: [
            (ControlCommand.acknowledge(label: nil), Command?.some(.acknowledge), "eggtimer/1\tack", "ack"),
            (.acknowledge(label: "tea"), .acknowledge, "eggtimer/1\tack", "ack"),
            (.cancel(label: nil), .cancel, "eggtimer/1\tcancel", "cancel"),
            (.acknowledgeAll, .acknowledge, "eggtimer/1\tack", "ack"),
            (.cancelAll, .cancel, "eggtimer/1\tcancel", "cancel"),
            (.snooze(label: nil, for: nil), .snooze(nil), "eggtimer/1\tsnooze", "snooze"),
            (.snooze(label: "tea", for: .seconds(90)), .snooze(.seconds(90)), "eggtimer/1\tsnooze\t90", "snooze 90"),
            // Whole seconds, at least one: rounded up.
            (
                .snooze(label: nil, for: .milliseconds(90_500)), .snooze(.seconds(91)), "eggtimer/1\tsnooze\t91",
                "snooze 91"
            ),
            (.snooze(label: nil, for: .milliseconds(1)), .snooze(.seconds(1)), "eggtimer/1\tsnooze\t1", "snooze 1"),
            (.pause(label: nil), .pause, "eggtimer/2\tpause", "pause"),
            (.resume(label: "tea"), .resume, "eggtimer/2\tresume", "resume"),
            (.add(label: nil, by: .seconds(90)), .add(.seconds(90)), "eggtimer/2\tadd\t90", "add 90"),
            (.add(label: "tea", by: .seconds(-60)), .add(.seconds(-60)), "eggtimer/2\tadd\t-60", "add -60"),
        ] as [(ControlCommand, Command?, String, String)])
    func subcommandsMapToTheVocabularyAndItsLine(
        subcommand: ControlCommand, command: Command?, line: String, payload: String
    ) throws {
        #expect(subcommand.vocabulary == command)
        let vocabulary = try #require(subcommand.vocabulary)
        #expect(ControlRequest.command(vocabulary).line == line)
        #expect(vocabulary.text == payload)
    }

    @Test(arguments: [ControlCommand.status(json: false), .status(json: true), .recover(bootOnly: true), .follow])
    func subcommandsThatAskNoTimerAreNoCommand(subcommand: ControlCommand) {
        #expect(subcommand.vocabulary == nil)
    }
}
