import Testing
import TimerCore
import TimerModel
import TimerText

@testable import ControlChannel
@testable import Kitchen

/// Issue 42: a start acts once per request id, in the core alone, on instants passed in.
@Suite struct KitchenCoreOnceTests {
    private let t0 = ContinuousClock.now  // any instant: nothing sleeps
    private let first = KitchenCore.Origin.shell(connection: 1)
    private let second = KitchenCore.Origin.shell(connection: 2)
    private let id = RequestID("a1b2")!

    private func request(_ text: String) throws -> StartRequest {
        try StartRequest.parse(text, presets: Preset.eggs.map(\.name))
    }

    private func status(_ label: String, pid: Int32) -> TimerStatus {
        TimerStatus(label: label, pid: pid, state: .counting, remaining: .seconds(300), deadlineUnixMilliseconds: 1)
    }

    @Test func aRepeatWhileItStartsIsAnsweredWithItAndStartsNothing() throws {
        var core = KitchenCore(maxTimers: 12)
        let soft = try request("soft")
        #expect(
            core.decide(.start(soft, id: id), from: first, at: t0)
                == [.spawn(label: "Soft", arguments: ["soft"], origin: first, id: id)])
        _ = core.spawned(label: "Soft", pid: 42, origin: first, log: "/l", id: id, at: t0)
        #expect(
            core.decide(.start(soft, id: id), from: second, at: t0) == [
                .say("a repeat of request a1b2: answered with it")
            ])
        let running = status("Soft", pid: 42)
        #expect(
            core.status(socket: "soft", running) == [
                .answer(first, .started(running)), .answer(second, .started(running)),
            ])
        // After it runs, a repeat gets the first answer, not `Soft-2`.
        #expect(
            core.decide(.start(soft, id: id), from: second, at: t0 + .seconds(599))
                == [.say("a repeat of request a1b2"), .answer(second, .started(running))])
        // Without an id, or after 10 minutes, it is a new start.
        #expect(
            core.decide(.start(soft), from: second, at: t0)[0]
                == .spawn(label: "Soft-2", arguments: ["soft", "--label", "Soft-2"], origin: second))
        #expect(
            core.decide(.start(soft, id: id), from: second, at: t0 + KitchenCore.idMemory)
                == [.spawn(label: "Soft-2", arguments: ["soft", "--label", "Soft-2"], origin: second, id: id)])
    }

    @Test func aRepeatAfterTheKitchenRestartedFindsTheTimerItsIdStarted() throws {
        // The first kitchen spawned the timer with the id (`--request-id`) and was killed before
        // it answered; the new one knows nothing but the statuses of the timers it follows.
        var core = KitchenCore(maxTimers: 12)
        var running = status("Soft", pid: 42)
        running.requestID = id
        _ = core.status(socket: "soft", running)
        let soft = try request("soft")
        #expect(
            core.decide(.start(soft, id: id), from: second, at: t0) == [
                .say("a repeat of request a1b2: Soft runs"), .answer(second, .started(running)),
            ])
        // Remembered from then on, as any answered id.
        #expect(
            core.decide(.start(soft, id: id), from: first, at: t0 + .seconds(1))
                == [.say("a repeat of request a1b2"), .answer(first, .started(running))])
        // Another id, or none, is a new start.
        #expect(
            core.decide(.start(soft, id: RequestID("c3d4")!), from: first, at: t0)
                == [
                    .spawn(
                        label: "Soft-2", arguments: ["soft", "--label", "Soft-2"], origin: first, id: RequestID("c3d4")!
                    )
                ])
    }

    @Test func anIdGivenToAnotherRequestIsRefused() throws {
        var core = KitchenCore(maxTimers: 12)
        _ = core.decide(.start(try request("5 min tea"), id: id), from: first, at: t0)
        let other = core.decide(.start(try request("6 min tea"), id: id), from: second, at: t0)
        #expect(
            other == [
                .answer(
                    second,
                    .refused(
                        .init(
                            kind: .usage,
                            text: "request id 'a1b2' was given to another start ('300s tea'): nothing started",
                            label: "tea")))
            ])
    }

    @Test func aStartWhoseChildExitedFirstIsForgottenSoThatARetryMayStartIt() throws {
        var core = KitchenCore(maxTimers: 12)
        let tea = try request("5m tea")
        _ = core.decide(.start(tea, id: id), from: first, at: t0)
        _ = core.spawned(label: "tea", pid: 42, origin: first, log: "/l", id: id, at: t0)
        #expect(core.childExited(pid: 42, status: 78, said: "bad config").count == 1)
        #expect(core.remembered[id] == nil)
        #expect(core.decide(.start(tea, id: id), from: second, at: t0).first?.isSpawn == true)
    }

    @Test func aStartNotAnsweringInTimeKeepsItsAnswerForARepeat() throws {
        var core = KitchenCore(maxTimers: 12)
        let tea = try request("5m tea")
        _ = core.decide(.start(tea, id: id), from: first, at: t0)
        _ = core.spawned(label: "tea", pid: 42, origin: first, log: "/l", id: id, at: t0)
        let late = core.expire(at: t0 + KitchenCore.startLimit)
        #expect(late.count == 1)
        guard case .answer(_, let outcome) = late.first else { return #expect(Bool(false), "\(late)") }
        #expect(core.decide(.start(tea, id: id), from: second, at: t0 + .seconds(6)).last == .answer(second, outcome))
    }

    @Test func aRefusalIsNotRememberedNothingRan() throws {
        var core = KitchenCore(maxTimers: 1)
        _ = core.status(socket: "a", status("a", pid: 1))
        let tea = try request("5m tea")
        #expect(core.decide(.start(tea, id: id), from: first, at: t0).first?.isSpawn == false)
        _ = core.ended(socket: "a")
        #expect(core.decide(.start(tea, id: id), from: first, at: t0).first?.isSpawn == true)
    }

    @Test func theOldestAnsweredIdsGoFirstPastTheLimit() throws {
        var core = KitchenCore(maxTimers: 12)
        for number in 0...KitchenCore.idLimit {
            let given = RequestID("id\(number)")!
            core.remembered[given] = .init(
                request: try request("1m"), outcome: .refused(.init(kind: .unavailable, text: "x")),
                until: t0 + .seconds(Int64(number)))
        }
        _ = core.decide(.start(try request("2m"), id: id), from: first, at: t0)
        #expect(core.remembered.count == KitchenCore.idLimit + 1)  // the limit, and the new one
        #expect(core.remembered[RequestID("id0")!] == nil && core.remembered[RequestID("id1")!] != nil)
    }

    @Test(arguments: ["", String(repeating: "a", count: 65), "a b", "a\tb", "é", "a/b"])
    func aBadIdIsRefused(text: String) {
        #expect(RequestID(text) == nil)
        #expect(ControlRequest(line: "eggtimer/3\tstart\tsoft\tid=" + text) == nil)
    }

    @Test func theStartLineCarriesItsId() {
        let line = ControlRequest.start("5 min", id: RequestID("x-1.2:3_4")).line
        #expect(line == "eggtimer/3\tstart\t5 min\tid=x-1.2:3_4")
        #expect(ControlRequest(line: line) == .start("5 min", id: RequestID("x-1.2:3_4")))
        #expect(ControlRequest(line: "eggtimer/3\tstart\t5 min") == .start("5 min"))
        #expect(RequestID(randomBytes: [0, 0xab, 0xff]).text == "00abff")
    }
}

extension KitchenEffect {
    /// Whether it is a spawn.
    fileprivate var isSpawn: Bool {
        if case .spawn = self { return true }
        return false
    }
}
