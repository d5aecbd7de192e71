import AlarmAudio
import Testing
import TimerCore
import TimerEngineTestSupport

@testable import TerminalUI
@testable import TimerEngine

/// Any instant will do: the controller never reads a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now

private func phase(_ event: TimerEvent) -> String {
    if case .text(let text)? = event.extra.first(where: { $0.key == "phase" })?.value { return text }
    return "?"
}

private func events(_ effects: [Effect]) -> [TimerEvent] {
    effects.compactMap { if case .emit(let event) = $0 { event } else { nil } }
}

/// Controller runs whose checks include the terminal's view (``View``); the controller's own
/// runs are in TimerEngineTests.
@Suite struct ControllerViewTests {
    @Test func plusNeverGoesPastTheLongestDuration() {
        var controller = Controller(
            configuration: .init(), start: .plain(DurationParser.maximum - .seconds(30)), at: t0)
        #expect(!controller.canAdjust(by: .seconds(60), at: t0))
        #expect(controller.handle(key: .character("+"), at: t0).isEmpty)
        #expect(!View().legend(controller, at: t0).contains("+ minute"))
        #expect(controller.canAdjust(by: .seconds(60), at: t0 + .seconds(31)))
    }

    @Test func pomodoroRunsWorkShortWorkLongThenExits() {
        let plan = Pomodoro.Plan(work: .seconds(1), shortBreak: .seconds(1), longBreak: .seconds(1), longBreakAfter: 2)
        var controller = Controller(configuration: .init(), start: .pomodoro(plan))
        var phases = events(controller.start(at: t0)).filter { $0.name == .interval }.map(phase)
        var now = t0
        var exitCode: Int32?
        for _ in 0..<10 where exitCode == nil {
            now += .seconds(1)
            var effects = controller.tick(at: now)
            // The last interval's alarm plays its pass out before the app exits.
            if case .ringing = controller.mode {
                #expect(View().title(controller, controller.currentRun!, at: now) == "Session complete!")
                effects += controller.handle(audio: .firstFrame(at: now), at: now)
                effects += controller.handle(audio: .finished(.init(passes: 1)), at: now + .milliseconds(1500))
            }
            for effect in effects {
                if case .emit(let event) = effect, event.name == .interval { phases.append(phase(event)) }
                if case .exit(let status) = effect { exitCode = status.code }
            }
        }
        #expect(phases == ["work", "short break", "work", "long break"])
        #expect(exitCode == 0)
        #expect(now == t0 + .seconds(4))
    }
}
