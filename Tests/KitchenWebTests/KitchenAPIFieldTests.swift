import Testing
import TimerModel
import TimerText

@testable import KitchenWeb

/// The HTTP API's fields read into the kitchen's vocabulary (issue 29): a start's word, an
/// action's command with its `seconds` range-checked before arithmetic, a timer's time left (the
/// `--http…` options and the man page's HTTP API section: WebOptionsTests).
@Suite struct KitchenAPIFieldTests {
    @Test(
        arguments: [
            ("soft", nil, false, "soft"), ("7m30s", nil, false, "7m30s"), (nil, 225, true, "225s"),
            (nil, 1, true, "1s"), (nil, KitchenAPI.startSecondsLimit, true, "\(KitchenAPI.startSecondsLimit)s"),
        ] as [(String?, Int64?, Bool, String)])
    func aStartIsAPresetADurationOrSeconds(start: String?, seconds: Int64?, given: Bool, word: String) {
        #expect(KitchenAPI.startWord(start: start, seconds: seconds, secondsGiven: given) == .success(word))
    }

    @Test(
        arguments: [
            (nil, nil, false), ("", nil, false), ("soft", 5, true), (nil, 0, true), (nil, -5, true),
            (nil, KitchenAPI.startSecondsLimit + 1, true), (nil, nil, true),
        ] as [(String?, Int64?, Bool)])
    func aStartWithNeitherBothOrSecondsOutOfRangeIsRefused(start: String?, seconds: Int64?, given: Bool) {
        guard case .failure(let problem) = KitchenAPI.startWord(start: start, seconds: seconds, secondsGiven: given)
        else {
            Issue.record("accepted \(String(describing: start)) \(String(describing: seconds))")
            return
        }
        #expect(!problem.text.isEmpty && !problem.text.contains("\n"))
    }

    @Test(
        arguments: [
            (KitchenAPI.Action.ack, nil, false, Command.acknowledge), (.cancel, nil, false, .cancel),
            (.pause, nil, false, .pause), (.resume, nil, false, .resume), (.snooze, nil, false, .snooze(nil)),
            (.snooze, 300, true, .snooze(.seconds(300))), (.snooze, 3_596_400, true, .snooze(.seconds(3_596_400))),
            (.add, 60, true, .add(.seconds(60))), (.add, -86_400, true, .add(.seconds(-86_400))),
            (.add, 86_400, true, .add(.seconds(86_400))),
        ] as [(KitchenAPI.Action, Int64?, Bool, Command)])
    func anActionIsItsCommand(action: KitchenAPI.Action, seconds: Int64?, given: Bool, command: Command) {
        #expect(KitchenAPI.command(action, seconds: seconds, given: given) == .success(command))
    }

    @Test(
        arguments: [
            (KitchenAPI.Action.add, nil, false), (.add, 86_401, true), (.add, -86_401, true), (.add, nil, true),
            (.snooze, 0, true), (.snooze, 3_596_401, true), (.snooze, nil, true), (.ack, 5, true), (.cancel, nil, true),
            (.add, Int64.max, true), (.snooze, Int64.min, true), (.add, 0, true),
        ] as [(KitchenAPI.Action, Int64?, Bool)])
    func anActionsSecondsOutOfRangeOrUnwantedIsRefused(action: KitchenAPI.Action, seconds: Int64?, given: Bool) {
        guard case .failure(let problem) = KitchenAPI.command(action, seconds: seconds, given: given) else {
            Issue.record("\(action) accepted \(String(describing: seconds))")
            return
        }
        #expect(problem.text.hasPrefix(action.rawValue), "\(problem.text)")
    }

    /// A counting or snoozed timer's time left is its deadline's distance from now (not the
    /// stale figure of its last status line), never more than that figure, never below zero.
    @Test(
        arguments: [
            (TimerState.counting, 180_000, 1_000_012_000 as Int64?, 1_000_000_000 as Int64, 12_000),
            (.snoozed, 30_000, 1_000_010_000, 1_000_000_000, 10_000),
            (.counting, 5_000, 1_000_000_000, 1_000_009_000, 0),
            (.counting, 5_000, 1_000_060_000, 1_000_000_000, 5_000),
            (.paused, 180_000, 1_000_012_000, 1_000_000_000, 180_000),
            (.ringing, 0, 1_000_000_000, 1_000_005_000, 0),
            (.counting, 180_000, nil, 1_000_000_000, 180_000),
            (.counting, 180_000, Int64.min, Int64.max, 180_000),
            (.counting, 180_000, Int64.max, Int64.min, 180_000),
        ] as [(TimerState, Int64, Int64?, Int64, Int64)])
    func theTimeLeftIsTheDeadlinesNotTheLastStatusLines(
        state: TimerState, remaining: Int64, deadline: Int64?, now: Int64, expected: Int64
    ) {
        let timer = WebTimer(
            node: "n", label: "tea", state: state, remaining: .milliseconds(remaining), total: nil,
            deadlineUnixMilliseconds: deadline, kind: nil, deviceDown: false, isLocal: true)
        #expect(KitchenAPI.timeLeft(of: timer, atWall: now).remaining == .milliseconds(expected))
    }
}
