import ControlChannel
import Testing
import TimerCore
import TimerModel
import TimerText

@testable import Kitchen

/// An MQTT start with an id (issue 42) in the core: a redelivery of one id starts one timer, and
/// each delivery is answered to its own `.bus(id:)` origin, so the result topic names the id.
@Suite struct KitchenCoreMQTTTests {
    private let t0 = ContinuousClock.now  // any instant: nothing sleeps

    private func status(_ label: String, pid: Int32) -> TimerStatus {
        TimerStatus(label: label, pid: pid, state: .counting, remaining: .seconds(300), deadlineUnixMilliseconds: 1)
    }

    @Test func aRepeatedIDStartsOneTimerAndEveryDeliveryIsAnsweredWithIt() throws {
        var core = KitchenCore(maxTimers: 12)
        let id = try #require(RequestID("ha-1718.5-42"))
        let origin = KitchenCore.Origin.bus(id: id)
        let request = try StartRequest.parse("5 min pasta", presets: Preset.eggs.map(\.name))
        let first = core.decide(.start(request, id: id), from: origin, at: t0)
        #expect(first == [.spawn(label: "pasta", arguments: ["300s", "--label", "pasta"], origin: origin, id: id)])
        _ = core.spawned(label: "pasta", pid: 42, origin: origin, log: "/l", id: id, at: t0)
        // The broker's redelivery while it starts: no second spawn, answered with the first.
        let again = core.decide(.start(request, id: id), from: origin, at: t0 + .milliseconds(10))
        #expect(!again.contains { if case .spawn = $0 { true } else { false } }, "\(again)")
        let runs = status("pasta", pid: 42)
        #expect(
            core.status(socket: "pasta", runs) == [.answer(origin, .started(runs)), .answer(origin, .started(runs))])
        // Once more after it runs: the remembered answer, still one timer.
        let late = core.decide(.start(request, id: id), from: origin, at: t0 + .seconds(60))
        #expect(late.last == .answer(origin, .started(runs)))
        #expect(core.running == 1)
        // Without an id, the same words are a second start (numbered only for a default label).
        #expect(
            core.decide(.start(request), from: .bus(id: nil), at: t0 + .seconds(61))
                == [
                    .answer(
                        .bus(id: nil),
                        .refused(
                            .init(
                                kind: .usage, text: "pasta: a timer with this label is running (pid 42)", label: "pasta"
                            )
                        ))
                ])
    }

    @Test func anMQTTStartIsLoggedAsFromMQTTAndTheTimerIsToldSo() {
        #expect(KitchenCore.Origin.bus(id: RequestID("x")).front == .mqtt)
        let refusal = KitchenCore.Refusal(kind: .busy, text: "c: not started", label: "c")
        #expect(Kitchen.line(.refused(refusal), origin: .bus(id: nil)) == "c: not started (from MQTT)")
    }
}
