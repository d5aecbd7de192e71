import AlarmAudio
import Glibc
import Testing
import TimerCore
import TimerEngineTestSupport
import TimerModel

@testable import TimerEngine

/// Any instant will do: the controller never reads a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now

/// The states a key is read in, as a controller set up in each.
enum KeyState: String, CaseIterable, Sendable {
    case menu, counting, paused, ringing, snoozed

    /// A 5:00 timer in this state at `t0 + 10 s` (ringing: a 0:10 one).
    func controller() -> Controller {
        switch self {
        case .menu: return Controller(configuration: .init(), start: .menu, at: t0)
        case .counting: return Controller(configuration: .init(), start: .plain(.seconds(300)), at: t0)
        case .paused:
            var controller = Controller(configuration: .init(), start: .plain(.seconds(300)), at: t0)
            _ = controller.handle(key: .character(" "), at: t0 + .seconds(5))
            return controller
        case .ringing, .snoozed:
            var controller = Controller(configuration: .init(), start: .plain(.seconds(10)), at: t0)
            _ = controller.tick(at: t0 + .seconds(10))
            if self == .snoozed { _ = controller.handle(key: .character("z"), at: t0 + .seconds(10)) }
            return controller
        }
    }
}

/// Each front's input read into the one ``Command`` vocabulary: keys and signals here (the socket's
/// lines in ControlMessageTests, MQTT payloads in BusCommandTests).
@Suite struct CommandParsingTests {
    @Test(
        arguments: [
            (KeyState.counting, Key.character(" "), Command.pause), (.paused, .character(" "), .resume),
            (.snoozed, .character(" "), .pause),
            (.counting, .character("+"), .add(.seconds(60))), (.counting, .character("-"), .add(.seconds(-60))),
            (.paused, .character("+"), .add(.seconds(60))),
            (.counting, .character("c"), .cancel), (.counting, .escape, .cancel), (.paused, .character("c"), .cancel),
            (.ringing, .character("z"), .snooze(nil)), (.ringing, .character(" "), .acknowledge),
            (.ringing, .character("c"), .acknowledge), (.ringing, .enter, .acknowledge),
            (.ringing, .escape, .acknowledge),
            (.ringing, .other, .acknowledge), (.ringing, .character("q"), .acknowledge),
        ] as [(KeyState, Key, Command)])
    func keysAreCommandsByTheState(state: KeyState, key: Key, command: Command) {
        #expect(state.controller().command(forKey: key) == command)
    }

    /// The mode's own keys stay key-specific: the menu's picks and entry, restart, skip, quit.
    @Test(
        arguments: [
            (KeyState.menu, Key.character("1")), (.menu, .enter), (.menu, .character(" ")), (.menu, .character("q")),
            (.menu, .character("+")), (.counting, .character("r")), (.counting, .character("n")),
            (.counting, .character("q")), (.counting, .character("z")), (.counting, .enter), (.paused, .character("x")),
        ] as [(KeyState, Key)])
    func theModesOwnKeysAreNoCommand(state: KeyState, key: Key) {
        #expect(state.controller().command(forKey: key) == nil)
    }

    @Test(
        arguments: [
            (SIGUSR1, Command.acknowledge), (SIGINT, nil), (SIGTERM, nil), (SIGHUP, nil), (SIGQUIT, nil),
            (SIGWINCH, nil),
            (SIGTSTP, nil), (SIGCONT, nil), (SIGUSR2, nil),
        ] as [(Int32, Command?)])
    func onlySIGUSR1IsACommand(signal: Int32, command: Command?) {
        #expect(Controller.command(forSignal: signal) == command)
    }

    /// A command does the same whichever front it came through; only the log's `by` differs.
    @Test(arguments: [Origin.key, .control, .mqtt])
    func aCommandActsTheSameFromEveryOrigin(origin: Origin) {
        var controller = KeyState.counting.controller()
        let connection = origin == .control ? 1 : nil
        let paused = controller.handle(.command(.pause, from: origin, connection: connection), at: t0 + .seconds(10))
        #expect(names(paused) == (connection == nil ? [] : ["reply"]) + ["paused"])
        #expect(controller.state == .paused)
        _ = controller.handle(.command(.add(.seconds(90)), from: origin), at: t0 + .seconds(20))
        _ = controller.handle(.command(.resume, from: origin), at: t0 + .seconds(30))
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(410))
        let cancelled = controller.handle(.command(.cancel, from: origin), at: t0 + .seconds(40))
        #expect(names(cancelled) == ["cancelled", "exit 1"])
        guard case .emit(let event)? = cancelled.first else { return }
        #expect(event.extra.contains { $0.key == "by" && $0.value == .text(origin.rawValue) })
    }

    /// Keys act through the same commands: space pauses (never a faked key from elsewhere), `c`
    /// cancels logged `by: key`, SIGUSR1 acknowledges logged `by: signal`.
    @Test func keysAndSignalsActAsTheirCommands() {
        var controller = KeyState.counting.controller()
        #expect(names(controller.handle(key: .character(" "), at: t0 + .seconds(10))) == ["paused"])
        #expect(names(controller.handle(key: .character("+"), at: t0 + .seconds(10))) == ["adjusted"])
        #expect(controller.currentRun?.countdown.remaining(at: t0 + .seconds(99)) == .seconds(350))
        let cancelled = controller.handle(key: .character("c"), at: t0 + .seconds(11))
        #expect(names(cancelled) == ["cancelled", "exit 1"])
        guard case .emit(let event)? = cancelled.first else { return }
        #expect(event.extra.contains { $0.key == "by" && $0.value == .text("key") })

        var snoozed = KeyState.snoozed.controller()
        let dismissed = names(snoozed.handle(.signal(SIGUSR1), at: t0 + .seconds(20)))
        #expect(dismissed.contains("acknowledged") || dismissed.contains("stopAlarm"))
        #expect(snoozed.state == .done)
    }
}
