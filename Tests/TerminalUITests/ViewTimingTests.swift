import Testing
import TimerEngineTestSupport

@testable import TerminalUI
@testable import TimerEngine

/// Any instant will do: the controller and the view never read a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now

@Suite struct ViewTimingTests {
    @Test func theClockStepsOnWholeSecondsBeforeTheDeadline() {
        let controller = Controller(configuration: .init(), start: .plain(.milliseconds(2300)), at: t0)
        let view = View()
        #expect(view.nextChange(controller, at: t0) == t0 + .milliseconds(300))
        #expect(view.nextChange(controller, at: t0 + .milliseconds(300)) == t0 + .milliseconds(1300))
        #expect(view.nextChange(controller, at: t0 + .milliseconds(1900)) == t0 + .milliseconds(2300))
    }

    @Test func aPickedEntryFlashesThreeTimesThenStops() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("2"), at: t0)
        let view = View()
        #expect(view.flashingEntry(controller, at: t0)?.entry == 1)
        #expect(view.flashingEntry(controller, at: t0)?.on == true)
        #expect(view.flashingEntry(controller, at: t0 + .milliseconds(100))?.on == false)
        #expect(view.flashingEntry(controller, at: t0 + .milliseconds(600)) == nil)
        #expect(view.nextChange(controller, at: t0) == t0 + .milliseconds(100))
        #expect(view.nextChange(controller, at: t0 + .milliseconds(550)) == t0 + .milliseconds(600))
    }
}

@Suite struct SnoozeViewTests {
    @Test func ringingOffersSnoozeAndASnoozedTimerSaysSo() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(1)), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        #expect(View().legend(controller, at: t0 + .seconds(1)) == "any key: stop the alarm · z snooze")
        _ = controller.handle(key: .character("z"), at: t0 + .seconds(2))
        #expect(controller.state == .snoozed)
        #expect(View().title(controller, controller.currentRun!, at: t0 + .seconds(2)) == "Snoozed.")
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(602))
    }
}
