import ControlChannel
import Testing
import TimerCore
import TimerModel
import TimerText
import WebServer

@testable import Kitchen

/// The kitchen's actions decided in its core (issue 39), on instants passed in: which timers
/// each action touches by its rule (a table of states × action → the commands sent), every
/// exchange with its own deadline, and the answer once every reply is in.
@Suite struct KitchenCoreActionTests {
    private let t0 = ContinuousClock.now  // any instant: nothing sleeps

    /// A core following one timer per state, labelled by its position (`t0`, `t1`, …), seen in
    /// that order (so the last is the newest).
    private func core(_ states: [TimerState]) -> KitchenCore {
        var core = KitchenCore(maxTimers: 12)
        for (index, state) in states.enumerated() {
            _ = core.status(socket: "t\(index)", status("t\(index)", pid: Int32(100 + index), state: state))
        }
        return core
    }

    private func status(_ label: String, pid: Int32, state: TimerState) -> TimerStatus {
        TimerStatus(label: label, pid: pid, state: state, remaining: .seconds(300), deadlineUnixMilliseconds: 1_000_000)
    }

    /// The commands an action's effects send, as `socket command`.
    private func sent(_ effects: [KitchenEffect]) -> [String] {
        effects.compactMap { effect in
            guard case .send(_, .command(let command, by: .keypad?), let socket) = effect else { return nil }
            return "\(socket) \(command.text)"
        }
    }

    @Test(
        arguments: [
            // "Acknowledge all": ringing, silent and snoozed, newest first; nothing else.
            (
                [.counting, .ringing, .snoozed, .silent, .paused], KitchenCore.Action.acknowledgeAll,
                ["t3 ack", "t2 ack", "t1 ack"]
            ),
            ([.counting, .paused], .acknowledgeAll, []),
            ([.snoozed], .acknowledgeAll, ["t0 ack"]),
            // Snooze: only what sounds.
            ([.counting, .ringing, .snoozed, .silent], .snoozeRinging, ["t3 snooze", "t1 snooze"]),
            ([.snoozed], .snoozeRinging, []),
            // A minute more and cancel: the newest, whatever its state.
            ([.ringing, .counting, .paused], .addToNewest(.seconds(60)), ["t2 add 60"]),
            ([.counting, .ringing], .cancelNewest, ["t1 cancel"]),
            ([], .cancelNewest, []),
            // One timer by label, any state; an unknown label touches none.
            ([.counting, .paused], .command(.resume, label: "t1"), ["t1 resume"]),
            ([.counting], .command(.acknowledge, label: "nothing"), []),
        ] as [([TimerState], KitchenCore.Action, [String])])
    func eachActionTouchesTheTimersItsRuleCovers(states: [TimerState], action: KitchenCore.Action, sends: [String]) {
        var core = core(states)
        let effects = core.decide(.act(action), from: .keypad, at: t0)
        #expect(sent(effects) == sends)
        if sends.isEmpty {
            #expect(effects == [.answerAction(.keypad, KitchenCore.ActionAnswer(action: action, touched: []))])
            #expect(core.nextCheck == nil, "nothing is waited for")
        } else {
            #expect(core.nextCheck == t0 + KitchenCore.answerLimit, "each exchange has its deadline")
        }
    }

    /// The rule is the shared model's, for every state word.
    @Test(arguments: TimerState.allCases)
    func acknowledgeAllCoversRingingSilentAndSnoozed(state: TimerState) {
        #expect(state.isCoveredByAcknowledgeAll == [.ringing, .silent, .snoozed].contains(state))
    }

    /// The answer waits for every reply; a reply's status goes into the picture at once.
    @Test func theAnswerComesOnceEveryTimerRepliedAndTheirStatusesAreTheNewPicture() {
        var core = core([.ringing, .silent])
        let effects = core.decide(.act(.acknowledgeAll), from: .web(exchange: .init(id: 3), form: false), at: t0)
        let numbers = effects.compactMap { effect -> Int? in
            if case .send(let number, _, _) = effect { return number }
            return nil
        }
        #expect(numbers.count == 2)
        let done = status("t1", pid: 101, state: .done)
        // The other one is still out; the reply's status fires its event (issue 45).
        let replied = core.replied(exchange: numbers[0], done.line)
        #expect(replied == [.event(KitchenEvent(kind: .acknowledged, label: "t1"))])
        #expect(core.timers["t1"]?.state == .done, "the reply's status is the picture now")
        let last = core.failed(exchange: numbers[1], "gone")
        guard case .answerAction(let origin, let answer)? = last.last else {
            Issue.record("no answer: \(last)")
            return
        }
        #expect(origin == .web(exchange: .init(id: 3), form: false))
        #expect(answer.touched.map(\.socket) == ["t1", "t0"])
        #expect(answer.touched.map(\.reply) == [.answered(done.line), .failed("gone")])
        #expect(core.nextCheck == nil)
    }

    /// A timer that does not answer costs its own exchange: at its deadline it is dropped and
    /// counted as not answering; the others' replies were answered without waiting for it.
    @Test func aSilentTimerIsDroppedAtItsOwnDeadline() {
        var core = core([.ringing])
        let effects = core.decide(.act(.acknowledgeAll), from: .keypad, at: t0)
        guard case .send(let number, _, _)? = effects.first else {
            Issue.record("nothing sent: \(effects)")
            return
        }
        #expect(core.expire(at: t0 + KitchenCore.answerLimit - .milliseconds(1)).isEmpty)
        let expired = core.expire(at: t0 + KitchenCore.answerLimit)
        #expect(expired.first == .drop(exchange: number))
        guard case .answerAction(.keypad, let answer)? = expired.last else {
            Issue.record("no answer: \(expired)")
            return
        }
        guard case .failed = answer.touched.first?.reply else {
            Issue.record("not failed: \(answer)")
            return
        }
        #expect(core.replied(exchange: number, "ok").isEmpty, "a late reply changes nothing")
    }

    /// A start is a command to the same entry, decided as ``KitchenCore/admit(_:from:)`` decides it.
    @Test func aStartGoesThroughTheSameEntry() throws {
        var core = core([.counting])
        let request = try StartRequest.parse("soft", presets: Preset.eggs.map(\.name))
        #expect(core.decide(.start(request), from: .bus(id: nil), at: t0) == [core.admit(request, from: .bus(id: nil))])
    }

    /// Each front's action reaches its timers under its own origin (control protocol 4).
    @Test(arguments: [
        (KitchenCore.Origin.keypad, Origin.keypad), (.web(exchange: .init(id: 1), form: false), .http),
        (.bus(id: nil), .mqtt), (.shell(connection: 2), .shell),
    ])
    func anActionNamesTheFrontItCameThrough(origin: KitchenCore.Origin, front: Origin) {
        var core = core([.ringing])
        #expect(
            core.decide(.act(.acknowledgeAll), from: origin, at: t0) == [
                .send(exchange: 2, request: .command(.acknowledge, by: front), socket: "t0")
            ])
    }

    /// A timer older than control protocol 4 (running across a package upgrade) refuses the
    /// origin's line: it is sent the command again without it, once, as the same exchange; a
    /// second refusal is that timer's answer.
    @Test func aTimerOlderThanTheOriginIsSentTheCommandAgainWithoutIt() throws {
        var core = core([.ringing, .ringing])
        let effects = core.decide(.act(.acknowledgeAll), from: .keypad, at: t0)
        let numbers = effects.compactMap { effect -> Int? in
            if case .send(let number, _, _) = effect { return number }
            return nil
        }
        try #require(numbers.count == 2)
        let again = core.replied(exchange: numbers[0], ControlRequest.olderTimerRefusal)
        #expect(again == [.send(exchange: numbers[0], request: .command(.acknowledge), socket: "t1")])
        #expect(core.exchangesOut == 2, "the same exchange, still out")
        #expect(
            core.replied(exchange: numbers[1], status("t0", pid: 100, state: .done).line).contains {
                if case .answerAction = $0 { return true } else { return false }
            } == false, "the answer waits for the older timer")
        let last = core.replied(exchange: numbers[0], ControlRequest.olderTimerRefusal)
        #expect(last.contains { if case .answerAction = $0 { true } else { false } }, "refused twice: its answer")
        #expect(core.exchangesOut == 0)
    }

    /// The numbers of the exchanges an action's effects send.
    private func numbers(_ effects: [KitchenEffect]) -> [Int] {
        effects.compactMap { effect -> Int? in
            if case .send(let number, _, _) = effect { return number }
            return nil
        }
    }

    /// The answers among `effects`, in order, with their origins.
    private func answers(_ effects: [KitchenEffect]) -> [(origin: KitchenCore.Origin, answer: KitchenCore.ActionAnswer)]
    {
        effects.compactMap { effect in
            if case .answerAction(let origin, let answer) = effect { return (origin, answer) }
            return nil
        }
    }

    /// The replies of the answer to `origin` among `effects`; nil without one.
    private func replies(to origin: KitchenCore.Origin, in effects: [KitchenEffect]) -> [KitchenCore.Reply]? {
        answers(effects).first { $0.origin == origin }?.answer.touched.map(\.reply)
    }

    private func web(_ id: UInt64) -> KitchenCore.Origin { .web(exchange: .init(id: id), form: false) }

    /// Issue 43: STOPs tapped at once (two of the timer and a "stop all") send one command; each
    /// asker gets its reply.
    @Test func stopsTappedAtOnceSendOneCommandAndEachGetsItsReply() throws {
        var core = core([.ringing])
        let first = core.decide(.act(.command(.acknowledge, label: "t0")), from: web(1), at: t0)
        let number = try #require(numbers(first).first)
        #expect(core.decide(.act(.command(.acknowledge, label: "t0")), from: web(2), at: t0).isEmpty)
        #expect(core.decide(.act(.acknowledgeAll), from: web(3), at: t0).isEmpty, "joins the same exchange")
        #expect(core.exchangesOut == 1)
        let done = status("t0", pid: 100, state: .done)
        let answered = answers(core.replied(exchange: number, done.line))
        #expect(answered.map(\.origin) == [web(1), web(2), web(3)])
        for (_, answer) in answered { #expect(answer.touched.map(\.reply) == [.answered(done.line)]) }
        #expect(core.nextCheck == nil)
    }

    /// A STOP of a timer already over (still followed) is answered at once with its status.
    ///
    /// Nothing is sent; "stop all" does not touch it.
    @Test(arguments: [TimerState.done, .cancelled, .missed])
    func aStopOfATimerAlreadyOverIsAnsweredAtOnceWithItsStatus(state: TimerState) {
        var core = core([state])
        let line = status("t0", pid: 100, state: state).line
        let effects = core.decide(.act(.command(.acknowledge, label: "t0")), from: web(1), at: t0)
        #expect(sent(effects).isEmpty)
        #expect(replies(to: web(1), in: effects) == [.alreadyStopped(line)])
        #expect(
            core.decide(.act(.acknowledgeAll), from: .keypad, at: t0) == [
                .answerAction(.keypad, KitchenCore.ActionAnswer(action: .acknowledgeAll, touched: []))
            ])
    }

    /// After its timer ended over, a STOP of its label is still answered with its last status;
    /// a new timer of the label forgets it, and one that died (not over) is not remembered.
    @Test func aStopAfterItsTimerEndedIsAnsweredWithItsLastStatus() {
        var core = core([.ringing, .ringing])
        let done = status("t0", pid: 100, state: .done)
        _ = core.status(socket: "t0", done)
        _ = core.ended(socket: "t0")
        _ = core.ended(socket: "t1")  // died ringing
        #expect(core.isLocal(label: "t0") && !core.isLocal(label: "t1"))
        let effects = core.decide(.act(.command(.acknowledge, label: "t0")), from: web(1), at: t0)
        #expect(replies(to: web(1), in: effects) == [.alreadyStopped(done.line)])
        let pause = core.decide(.act(.command(.pause, label: "t0")), from: web(2), at: t0)
        #expect(replies(to: web(2), in: pause)?.isEmpty == true, "only a STOP is answered so")
        _ = core.status(socket: "t0", status("t0", pid: 200, state: .counting))
        #expect(core.stoppedLately("t0") == nil)
        #expect(sent(core.decide(.act(.command(.acknowledge, label: "t0")), from: .keypad, at: t0)) == ["t0 ack"])
    }

    /// A STOP of a timer a signal ended with its record kept (SIGTERM, SIGHUP) forgets that
    /// record, by the pid that wrote it, before it answers; one another signal ended, or that
    /// ended by itself, has no record to forget.
    @Test(arguments: [("SIGTERM", true), ("SIGHUP", true), ("SIGINT", false), (nil, false)])
    func aStopOfATimerASignalEndedForgetsItsKeptRecord(signal: String?, forgets: Bool) {
        var core = core([.ringing])
        var last = status("t0", pid: 100, state: .cancelled)
        last.endedBy = signal
        _ = core.status(socket: "t0", last)
        _ = core.ended(socket: "t0")
        let effects = core.decide(.act(.command(.acknowledge, label: "t0")), from: web(1), at: t0)
        #expect(replies(to: web(1), in: effects) == [.alreadyStopped(last.line)])
        let forgotten = effects.filter { if case .forgetRecord = $0 { true } else { false } }
        #expect(forgotten == forgetting(forgets))
    }

    private func forgetting(_ forgets: Bool) -> [KitchenEffect] {
        forgets ? [.forgetRecord(label: "t0", pid: 100)] : []
    }

    /// A STOP the timer refuses asks it its status in the same exchange: over (stopped by
    /// another front, or its loops) is success with that status; not over keeps the refusal.
    @Test(arguments: [(TimerState.done, true), (.counting, false)])
    func aRefusedStopAsksTheTimersStatus(state: TimerState, stopped: Bool) throws {
        var core = core([.ringing])
        let effects = core.decide(.act(.command(.acknowledge, label: "t0")), from: web(1), at: t0)
        let number = try #require(numbers(effects).first)
        let refusal = "error\tt0 is \(state.rawValue), not ringing"
        #expect(
            core.replied(exchange: number, refusal) == [
                .send(exchange: number, request: .command(.status), socket: "t0")
            ])
        let after = status("t0", pid: 100, state: state)
        let answer = replies(to: web(1), in: core.replied(exchange: number, after.line))
        #expect(answer == [stopped ? .alreadyStopped(after.line) : .answered(refusal)])
        #expect(core.timers["t0"]?.state == state, "its status is the picture now")
    }

    /// A STOP whose timer closed without an answer (it stopped and exited meanwhile) is success
    /// with its last status when that is over; a failure otherwise.
    @Test func aStopWhoseTimerExitedMeanwhileIsSuccessWhenItsLastStatusIsOver() throws {
        var core = core([.ringing, .ringing])
        let effects = core.decide(.act(.command(.acknowledge, label: "t0")), from: web(1), at: t0)
        let number = try #require(numbers(effects).first)
        let done = status("t0", pid: 100, state: .done)
        _ = core.status(socket: "t0", done)
        #expect(replies(to: web(1), in: core.failed(exchange: number, "gone")) == [.alreadyStopped(done.line)])
        let other = core.decide(.act(.command(.acknowledge, label: "t1")), from: web(2), at: t0)
        let second = try #require(numbers(other).first)
        #expect(replies(to: web(2), in: core.failed(exchange: second, "gone")) == [.failed("gone")])
    }
}
