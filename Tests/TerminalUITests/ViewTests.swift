import Testing
import TimerCore
import TimerEngineTestSupport

@testable import TerminalUI
@testable import TimerEngine

private let t0 = ContinuousClock.now

@Suite struct ViewTests {
    let view = View(style: .init(unicode: true, color: true))

    @Test func menuShowsTheTitleThePresetsAndTheLegend() {
        let controller = Controller(configuration: .init(), start: .menu, at: t0)
        let lines = view.lines(controller, at: t0, columns: 80, rows: 24).map(visible)
        #expect(lines.contains("  How do you like your eggs?"))
        #expect(lines.contains("   1  Soft     5:00"))
        #expect(lines.contains("   2  Medium   7:00"))
        #expect(lines.contains("   3  Hard    12:00"))
        #expect(lines.contains { $0.contains("q quit") })
    }

    @Test(arguments: [24, 40, 80, 200])
    func countingFitsTheWidthAndShowsTitleBarAndTime(columns: Int) {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("1"), at: t0)
        let lines = view.lines(controller, at: t0 + .seconds(61), columns: columns, rows: 24).map(visible)
        #expect(lines.allSatisfy { $0.count <= columns })
        #expect(lines.contains { $0.hasPrefix("  So you like it Soft huh?".prefix(columns)) })
        let bar = lines.first { $0.contains("█") || $0.contains("░") }
        #expect(bar?.hasSuffix("3:59") == true)
    }

    @Test func aTinyPaneGetsOnePlainLine() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("2"), at: t0)
        let lines = view.lines(controller, at: t0 + .seconds(1), columns: 20, rows: 3)
        #expect(lines.count == 1)
        #expect(lines[0].count <= 20)
        #expect(!lines[0].contains("\u{1B}"))
    }

    @Test func legendOffersOnlyWorkingKeysWordedForTheState() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(90)), at: t0)
        #expect(view.legend(controller, at: t0).hasPrefix("space pause"))
        #expect(view.legend(controller, at: t0).contains("- minute"))
        #expect(!view.legend(controller, at: t0 + .seconds(31)).contains("- minute"))
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(1))
        #expect(view.legend(controller, at: t0 + .seconds(2)).hasPrefix("space resume"))
        #expect(view.title(controller, controller.currentRun!, at: t0) == "Paused.")
    }

    @Test func withoutAKeyboardTheLegendSaysWhatWorks() {
        var view = View()
        view.hasKeyboard = false
        view.processID = 4242
        var controller = Controller(configuration: .init(), start: .plain(.seconds(1)), at: t0)
        #expect(view.legend(controller, at: t0) == "no keyboard: Ctrl-C quits")
        _ = controller.tick(at: t0 + .seconds(1))
        #expect(view.legend(controller, at: t0 + .seconds(1)) == "no keyboard: kill -USR1 4242 stops the alarm")
    }

    @Test func theOneLineViewLeadsWithTheTimeLeft() {
        let controller = Controller(
            configuration: .init(), start: .timer(.egg(0), .seconds(300), label: "Soft"), at: t0)
        let line = view.lines(controller, at: t0 + .seconds(1), columns: 12, rows: 2)
        #expect(line.count == 1 && line[0].hasPrefix("4:59 "))
    }

    @Test func userTextOnScreenHasItsControlCharactersEscaped() {
        var view = View()
        view.messages = ["bad \u{1B}[2J name"]
        let controller = Controller(configuration: .init(), start: .menu, at: t0)
        let text = view.lines(controller, at: t0, columns: 80, rows: 24).map(visible).joined()
        #expect(text.contains("bad \\x1B[2J name"))
    }

    @Test func longProblemsWrapInsteadOfLosingTheirEnd() {
        var view = View()
        view.messages = ["alarm_sound.mp3 not found beside the program; using the built-in alarm tone"]
        let controller = Controller(configuration: .init(), start: .menu, at: t0)
        let lines = view.lines(controller, at: t0, columns: 40, rows: 40).map(visible)
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines.contains { $0.hasPrefix("  warning: alarm_sound.mp3") })
        #expect(lines.contains { $0.hasSuffix("built-in alarm tone") })
        #expect(wrap("a bb ccc", columns: 8, continuation: "  ") == ["a bb ccc"])
        #expect(wrap("aaaa bbbb cccc", columns: 9, continuation: "  ") == ["aaaa bbbb", "  cccc"])
    }

    @Test func aNarrowLegendDropsWholeEntriesNeverCutsOne() {
        let controller = Controller(configuration: .init(), start: .plain(.seconds(90)), at: t0)
        #expect(view.legend(controller, at: t0, columns: 30) == "space pause · r restart")
        #expect(view.legend(controller, at: t0, columns: 5) == "")
    }

    @Test func theSpinnerTurnsWhileRunningAndStopsWhilePaused() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(90)), at: t0)
        let run = { controller.currentRun! }
        #expect(view.spinner(run(), at: t0) != view.spinner(run(), at: t0 + View.spinnerStep))
        _ = controller.handle(key: .character(" "), at: t0 + .seconds(1))
        #expect(view.spinner(run(), at: t0 + .seconds(2)) == view.spinner(run(), at: t0 + .seconds(7)))
    }

    @Test func ringingTitleFlashes() {
        var controller = Controller(configuration: .init(), start: .timer(.egg(0), .seconds(1), label: "Soft"), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        let on = view.lines(controller, at: t0 + .milliseconds(1100), columns: 80, rows: 24)
        let off = view.lines(controller, at: t0 + .milliseconds(1600), columns: 80, rows: 24)
        #expect(on != off)
        #expect(on.map(visible) == off.map(visible))
        #expect(on.map(visible).contains("  Alright, don't choke on them!"))
    }

    @Test func noColorKeepsOnlyBoldAndReverse() {
        let plain = View(style: .init(unicode: false, color: false))
        let controller = Controller(configuration: .init(), start: .plain(.seconds(90)), at: t0)
        let text = plain.lines(controller, at: t0, columns: 80, rows: 24).joined()
        #expect(!text.contains("[32m") && !text.contains("[33m") && !text.contains("[2m"))
        #expect(text.allSatisfy { $0.isASCII })
    }
}

/// A pomodoro's breaks are named as the log names them (issue 24: the long break was "Rest
/// break."); ManPageSourceTests checks that the man page names them so too.
@Suite struct PomodoroTitleTests {
    let view = View(style: .init(unicode: true, color: true))

    @Test func theShortAndTheLongBreakSayWhichTheyAre() {
        let plan = Pomodoro.Plan(longBreakAfter: 1)
        var controller = Controller(configuration: .init(), start: .pomodoro(plan), at: t0)
        #expect(view.title(controller, controller.currentRun!, at: t0) == "Pomodoro!")
        _ = controller.handle(key: .character("n"), at: t0 + .seconds(60))  // skipped: a short break
        #expect(controller.pomodoro?.phase == .shortBreak)
        #expect(view.title(controller, controller.currentRun!, at: t0 + .seconds(61)) == "Short break.")
        _ = controller.handle(key: .character("n"), at: t0 + .seconds(62))
        #expect(controller.pomodoro?.phase == .work)
        let end = t0 + .seconds(62) + plan.work
        _ = controller.tick(at: end)  // the pomodoro done: ringing
        _ = controller.handle(key: .character(" "), at: end + .seconds(1))
        _ = controller.tick(at: end + .seconds(2))
        #expect(controller.pomodoro?.phase == .longBreak)
        #expect(view.title(controller, controller.currentRun!, at: end + .seconds(3)) == "Long break.")
        #expect(Pomodoro.Phase.longBreak.rawValue == "long break", "the log's phase")
    }
}
