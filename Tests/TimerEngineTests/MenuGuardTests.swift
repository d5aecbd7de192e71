import AlarmAudio
import Testing
import TimerCore
import TimerEngineTestSupport
import TimerModel

@testable import TimerEngine

/// Any instant will do: the controller never reads a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now

/// Issue 40: after an alarm started from the menu is stopped, the keys typed next (a second key,
/// a key hammered) do not silently start an egg: the menu ignores its picks for the key guard.
@Suite struct MenuGuardTests {
    /// A menu controller whose Soft egg (1 s), picked at `t0`, rings at `t0 + 1 s`.
    private func ringingFromTheMenu(keyGuard: Duration = KeyGuard.standard) -> Controller {
        var configuration = Controller.Configuration()
        configuration.presets[0].duration = .seconds(1)
        configuration.keyGuard = keyGuard
        var controller = Controller(configuration: configuration, start: .menu, at: t0)
        _ = controller.handle(key: .character("1"), at: t0)
        _ = controller.tick(at: t0 + .seconds(1))
        #expect(controller.state == .ringing)
        return controller
    }

    /// ``ringingFromTheMenu(keyGuard:)``, its ringing stopped by `x` at `t0 + 2 s`: back in the menu.
    private func stoppedFromTheMenu(keyGuard: Duration = KeyGuard.standard) -> Controller {
        var controller = ringingFromTheMenu(keyGuard: keyGuard)
        _ = controller.handle(key: .character("x"), at: t0 + .seconds(2))
        _ = controller.handle(audio: stopped(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        #expect(controller.mode == .menu(.init()))
        return controller
    }

    @Test func theConfigurationsGuardIsTheDefaultSecond() {
        #expect(Controller.Configuration().keyGuard == .seconds(1))
    }

    /// `x` stops it, `1` half a second later starts nothing and says so under the menu; a pick
    /// once the guard is over starts the egg.
    @Test(arguments: [Key.character("1"), .character("s"), .character("m"), .enter, .character("t")])
    func aPickRightAfterTheAlarmStopsIsIgnored(key: Key) {
        var controller = stoppedFromTheMenu()
        let effects = controller.handle(key: key, at: t0 + .milliseconds(2500))
        #expect(names(effects).isEmpty, "\(names(effects))")
        #expect(controller.currentRun == nil)
        #expect(controller.mode == .menu(.init(selection: 0, error: Controller.pickIgnored)))
        #expect(controller.screen(at: t0 + .milliseconds(2500)).menu?.error == Controller.pickIgnored)
        let later = controller.handle(key: .character("1"), at: t0 + .seconds(4))
        #expect(names(later).first == "started", "\(names(later))")
        #expect(controller.currentRun?.label == "Soft")
    }

    /// Keys typed in the same read as the stopping key (one wait of the loop) are guarded too.
    @Test func aPickInTheSameRoundAsTheStopIsIgnored() {
        var controller = ringingFromTheMenu()
        let effects = controller.handle(round: [.key(.enter), .key(.character("1"))], at: t0 + .seconds(2))
        #expect(!names(effects).contains("started"), "\(names(effects))")
        #expect(controller.currentRun == nil)
    }

    /// Each pick ignored makes the guard last from it: hammered keys never start an egg.
    @Test func eachIgnoredPickMakesTheGuardLastFromIt() {
        var controller = stoppedFromTheMenu()
        for offset in [900, 1800, 2700] {
            _ = controller.handle(key: .character("2"), at: t0 + .seconds(2) + .milliseconds(offset))
            #expect(controller.currentRun == nil)
        }
        #expect(names(controller.handle(key: .character("2"), at: t0 + .milliseconds(5700))).first == "started")
    }

    /// The arrows still move and `q` still quits within the guard.
    @Test func theArrowsAndQuitStillWork() {
        var controller = stoppedFromTheMenu()
        _ = controller.handle(key: .down, at: t0 + .milliseconds(2100))
        #expect(controller.mode == .menu(.init(selection: 1)))
        #expect(names(controller.handle(key: .character("q"), at: t0 + .milliseconds(2200))) == ["exit 0"])
    }

    /// `key-guard = 0` turns it off.
    @Test func aZeroGuardIsOff() {
        var controller = stoppedFromTheMenu(keyGuard: .zero)
        #expect(names(controller.handle(key: .character("1"), at: t0 + .seconds(2))).first == "started")
    }

    /// Cancelled while counting (no alarm stopped): back in the menu, a pick works at once.
    @Test func aCancelWhileCountingDoesNotGuard() {
        var controller = Controller(configuration: .init(), start: .menu, at: t0)
        _ = controller.handle(key: .character("1"), at: t0)
        _ = controller.handle(key: .character("c"), at: t0 + .seconds(3))
        #expect(controller.mode == .menu(.init()))
        #expect(names(controller.handle(key: .character("2"), at: t0 + .seconds(3))) == ["started"])
    }

    /// A snoozed alarm dismissed (`eggtimer ack` from another shell, say) guards the menu as a
    /// ringing one does.
    @Test func aSnoozedAlarmDismissedGuardsToo() {
        var controller = ringingFromTheMenu()
        _ = controller.handle(key: .character("z"), at: t0 + .seconds(2))
        _ = controller.handle(audio: stopped(at: t0 + .seconds(2)), at: t0 + .seconds(2))
        #expect(controller.state == .snoozed)
        _ = controller.handle(.command(.acknowledge, from: .shell), at: t0 + .seconds(3))
        #expect(controller.mode == .menu(.init()))
        #expect(names(controller.handle(key: .character("1"), at: t0 + .milliseconds(3500))).isEmpty)
        #expect(controller.currentRun == nil)
    }
}
