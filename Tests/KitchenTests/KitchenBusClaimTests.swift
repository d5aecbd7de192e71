import HouseBus
import Testing
import TimerText

@testable import Kitchen

/// One kitchen per node (issue 42): the claim on `P/NODE/kitchen/instance` as a pure reducer,
/// with the broker's messages fed in the order a broker gives every subscriber, and instants
/// passed in (nothing sleeps).
@Suite struct KitchenBusClaimTests {
    static let node = NodeTopics(prefix: "eggtimer", node: "kitchen")
    static let presets = ["Soft", "Medium", "Hard"]
    private let t0 = ContinuousClock.now  // any instant: nothing sleeps

    static let instanceTopic = "eggtimer/kitchen/kitchen/instance"
    static let availability = "eggtimer/kitchen/kitchen/availability"

    func kitchen(_ instance: String) -> KitchenBus {
        KitchenBus(topics: Self.node, presets: Self.presets, instance: instance)
    }

    static func claim(_ instance: String, retained: Bool = false) -> BusEvent {
        .message(topic: instanceTopic, payload: Array(instance.utf8), retained: retained)
    }

    static func availability(_ text: String, retained: Bool = false) -> BusEvent {
        .message(topic: availability, payload: Array(text.utf8), retained: retained)
    }

    static func start(_ text: String) -> BusEvent {
        .message(topic: "eggtimer/kitchen/start", payload: Array(text.utf8))
    }

    static func publish(_ topic: String, _ text: String) -> KitchenBusEffect {
        .publish(BusMessage(topic: topic, payload: Array(text.utf8), retain: true, qos: 1))
    }

    /// The summary of a node where nothing runs, which a kitchen publishes as it takes the starts (issue 45).
    static let summary = KitchenBusEffect.publish(NodeSummary(topics: node).message)
    /// The node's ringing state `OFF`, which a kitchen publishes as it takes the starts where
    /// none is retained and no timer is online (issue 45).
    static let off = KitchenBusEffect.publish(NodeRinging.message(false, on: node))
    static let soft = KitchenBusEffect.start(StartPayload(request: StartRequest(length: .preset("soft"))))

    /// The line a kitchen that yields says.
    static func yielded(to other: String) -> KitchenBusEffect {
        .say(
            "kitchen: another kitchen (instance \(other)) serves node kitchen on the broker: "
                + "not taking MQTT starts until it is gone")
    }

    /// Brings `bus` to its probe's return, after the broker's retained `messages`.
    func probed(_ bus: inout KitchenBus, after messages: [BusEvent]) -> [KitchenBusEffect] {
        #expect(bus.handle(.connected, at: t0) == [.publish(bus.probeMessage)])
        for message in messages { #expect(bus.handle(message, at: t0).isEmpty, "\(message)") }
        return bus.handle(.message(topic: bus.probe, payload: Array("probe".utf8)), at: t0)
    }

    @Test func aKitchenAloneClaimsAndTakesTheStartsThatWaitedOnceItsClaimComesBack() {
        var bus = kitchen("a1")
        #expect(bus.claim == .looking)
        // Starts before it knows wait.
        #expect(bus.handle(Self.start("soft"), at: t0).isEmpty)
        #expect(probed(&bus, after: []) == [Self.publish(Self.instanceTopic, "a1")])
        #expect(bus.claim == .claiming)
        #expect(bus.handle(Self.start("soft"), at: t0).isEmpty)
        // Ended now, its claim may stay: its `offline` says it is nobody's.
        #expect(bus.finish() == [bus.will])
        // Its own claim back first: it holds the starts, says online, takes both.
        #expect(
            bus.handle(Self.claim("a1"), at: t0) == [
                Self.publish(Self.availability, "online"), Self.summary, Self.soft, Self.soft, Self.off,
            ])
        #expect(bus.claim == .held)
        #expect(bus.handle(Self.start("soft"), at: t0) == [Self.soft])
        #expect(bus.finish() == [bus.will])
        #expect(bus.nextCheck == nil)
    }

    @Test func anEarlierKitchensClaimThatIsGoneIsNoClaim() {
        // A clean end or a Last Will left the old claim and `offline`; a clear or junk is none.
        for retained in [
            [Self.claim("old", retained: true), Self.availability("offline", retained: true)],
            [Self.availability("", retained: true), Self.claim("old", retained: true)],
            [Self.availability("online", retained: true), Self.claim("", retained: true)],
            // A claim and no availability at all: nobody says online.
            [Self.claim("old", retained: true)],
            [Self.claim("b2 x", retained: true)], [Self.claim(String(repeating: "b", count: 65), retained: true)],
        ] {
            var bus = kitchen("a1")
            #expect(probed(&bus, after: retained) == [Self.publish(Self.instanceTopic, "a1")], "\(retained)")
        }
    }

    @Test func aSecondKitchenYieldsWithOneLineTakesNoStartAndLeavesNothingBehind() {
        var bus = kitchen("a1")
        #expect(bus.handle(Self.start("soft"), at: t0).isEmpty)
        let retained = [Self.availability("online", retained: true), Self.claim("b2", retained: true)]
        #expect(probed(&bus, after: retained) == [Self.yielded(to: "b2")])
        #expect(bus.claim == .yielded(to: "b2"))
        // The start that waited and those after it are the other kitchen's: no start, no result.
        #expect(bus.handle(Self.start("soft"), at: t0).isEmpty)
        #expect(bus.handle(Self.start("lunch"), at: t0).isEmpty)
        // The holder's claim again (its reconnect) changes nothing; neither does its `online`.
        #expect(bus.handle(Self.claim("b2"), at: t0).isEmpty)
        #expect(bus.handle(Self.availability("online"), at: t0).isEmpty)
        #expect(bus.nextCheck == nil)
        // It never said online, so it neither says offline: a clean DISCONNECT sends no Last Will.
        #expect(bus.finish().isEmpty)
    }

    @Test func aLiveClaimWhileItLooksMakesItYield() {
        var bus = kitchen("a1")
        #expect(bus.handle(.connected, at: t0) == [.publish(bus.probeMessage)])
        #expect(bus.handle(Self.claim("b2"), at: t0) == [Self.yielded(to: "b2")])
        #expect(bus.handle(.message(topic: bus.probe, payload: Array("probe".utf8)), at: t0).isEmpty)
        #expect(bus.claim == .yielded(to: "b2"))
    }

    @Test func theOtherKitchensEndIsTakenOverAfterTheDelayUnlessItsOnlineAnswers() {
        var bus = kitchen("a1")
        let retained = [Self.availability("online", retained: true), Self.claim("b2", retained: true)]
        _ = probed(&bus, after: retained)
        // Another waiting kitchen's Last Will: the holder answers online within the delay.
        #expect(bus.handle(Self.availability("offline"), at: t0).isEmpty)
        #expect(bus.nextCheck == t0 + KitchenBus.takeOverDelay)
        #expect(bus.handle(Self.availability("online"), at: t0 + .milliseconds(5)).isEmpty)
        #expect(bus.nextCheck == nil)
        #expect(bus.expire(at: t0 + .seconds(10)).isEmpty)
        // The holder ends (its clean end, or its Last Will): nobody answers.
        let gone = t0 + .seconds(20)
        #expect(bus.handle(Self.availability("offline", retained: false), at: gone).isEmpty)
        #expect(bus.handle(Self.availability(""), at: gone + .milliseconds(1)).isEmpty, "no new delay")
        #expect(bus.expire(at: gone + KitchenBus.takeOverDelay - .milliseconds(1)).isEmpty)
        #expect(bus.handle(Self.start("soft"), at: gone + .seconds(1)).isEmpty)
        #expect(
            bus.expire(at: gone + KitchenBus.takeOverDelay) == [
                .say("kitchen: the other kitchen (instance b2) is gone from the broker: claiming node kitchen"),
                Self.publish(Self.instanceTopic, "a1"),
            ])
        #expect(bus.nextCheck == nil)
        #expect(
            bus.handle(Self.claim("a1"), at: gone + .seconds(3)) == [
                Self.publish(Self.availability, "online"), Self.summary, Self.off,
            ])
        #expect(bus.handle(Self.start("soft"), at: gone + .seconds(3)) == [Self.soft])
        #expect(bus.finish() == [bus.will])
    }

    @Test func aThirdKitchenClaimingFirstIsLeftTheStarts() {
        var bus = kitchen("a1")
        _ = probed(&bus, after: [Self.availability("online", retained: true), Self.claim("b2", retained: true)])
        _ = bus.handle(Self.availability("offline"), at: t0)
        // Another waiting kitchen claims first: it runs.
        #expect(bus.handle(Self.claim("c3"), at: t0 + .seconds(1)).isEmpty)
        #expect(bus.claim == .yielded(to: "c3") && bus.nextCheck == nil)
        #expect(bus.expire(at: t0 + .seconds(5)).isEmpty)
    }

    /// Kitchens that claim together: every one gets the claims in the broker's one order, so the
    /// first claim wins, whatever the ids, and the other clears its claim (the winner says its own
    /// again).
    @Test(arguments: [["a1", "b2"], ["b2", "a1"]])
    func ofTwoKitchensClaimingTogetherTheFirstClaimHoldsTheStarts(order: [String]) {
        var kitchens = ["a1": kitchen("a1"), "b2": kitchen("b2")]
        for id in order { #expect(probed(&kitchens[id]!, after: []) == [Self.publish(Self.instanceTopic, id)]) }
        // Both claimed; a start comes in between their claims.
        var effects: [String: [KitchenBusEffect]] = [:]
        for event in [Self.claim(order[0]), Self.start("soft"), Self.claim(order[1])] {
            for id in order { effects[id, default: []] += kitchens[id]!.handle(event, at: t0) }
        }
        let (first, second) = (order[0], order[1])
        #expect(kitchens[first]!.claim == .held)
        #expect(kitchens[second]!.claim == .yielded(to: first))
        #expect(
            effects[first]
                == [
                    Self.publish(Self.availability, "online"), Self.summary, Self.off, Self.soft,
                    Self.publish(Self.instanceTopic, first),
                ])
        #expect(effects[second] == [Self.yielded(to: first), Self.publish(Self.instanceTopic, "")])
        // The clear: the holder says its claim again; the one that yielded stays so.
        #expect(kitchens[first]!.handle(Self.claim(""), at: t0) == [Self.publish(Self.instanceTopic, first)])
        #expect(kitchens[second]!.handle(Self.claim(""), at: t0).isEmpty)
        #expect(kitchens[second]!.handle(Self.claim(first), at: t0).isEmpty)
        #expect(kitchens[second]!.claim == .yielded(to: first))
    }

    @Test func aHolderBackAfterItsLastWillYieldsToTheKitchenThatTookOverUnlessThatOneIsGoneToo() {
        var bus = kitchen("b2")
        _ = probed(&bus, after: [])
        _ = bus.handle(Self.claim("b2"), at: t0)
        #expect(bus.claim == .held)
        // Away long enough for its Last Will; a1 took over and runs.
        _ = bus.handle(.connectionLost("broker closed the connection"), at: t0)
        var back = bus
        #expect(back.handle(.connected, at: t0) == [.log("MQTT: connected to the broker again")])
        #expect(back.handle(Self.availability("online", retained: true), at: t0).isEmpty)
        #expect(
            back.handle(Self.claim("a1", retained: true), at: t0) == [
                Self.yielded(to: "a1"), Self.publish(Self.instanceTopic, ""), Self.publish(Self.availability, ""),
            ])
        #expect(back.handle(Self.start("soft"), at: t0).isEmpty)
        // a1 ended too meanwhile: its `offline` is retained, so b2 holds on and says so.
        var alone = bus
        _ = alone.handle(.connected, at: t0)
        #expect(
            alone.handle(Self.availability("offline", retained: true), at: t0) == [
                Self.publish(Self.availability, "online")
            ])
        #expect(alone.handle(Self.claim("a1", retained: true), at: t0) == [Self.publish(Self.instanceTopic, "b2")])
        #expect(alone.claim == .held)
    }

    /// Two that both hold the starts (a claim cleared by hand as one started): a first claim of
    /// the other is answered with its own; a second one leaves the starts to the smaller id.
    @Test func twoHoldersThatSeeEachOthersClaimTwiceLeaveTheStartsToTheSmallerID() {
        var a = kitchen("a1")
        var b = kitchen("b2")
        _ = probed(&a, after: [])
        _ = a.handle(Self.claim("a1"), at: t0)
        _ = probed(&b, after: [])
        _ = b.handle(Self.claim("b2"), at: t0)
        #expect(a.claim == .held && b.claim == .held)
        #expect(a.handle(Self.claim("b2"), at: t0) == [Self.publish(Self.instanceTopic, "a1")])
        #expect(b.handle(Self.claim("a1"), at: t0) == [Self.publish(Self.instanceTopic, "b2")])
        #expect(a.handle(Self.claim("b2"), at: t0) == [Self.publish(Self.instanceTopic, "a1")])
        #expect(
            b.handle(Self.claim("a1"), at: t0) == [
                Self.yielded(to: "a1"), Self.publish(Self.instanceTopic, ""), Self.publish(Self.availability, ""),
            ])
        #expect(a.claim == .held && b.claim == .yielded(to: "a1"))
        // The clears: a1 says its claim and `online` again.
        #expect(a.handle(Self.claim(""), at: t0) == [Self.publish(Self.instanceTopic, "a1")])
        #expect(a.handle(Self.availability(""), at: t0) == [Self.publish(Self.availability, "online")])
    }

    @Test func atMostSixteenStartsWaitWhileItDecides() throws {
        var bus = kitchen("a1")
        for _ in 0..<KitchenBus.waitingLimit { #expect(bus.handle(Self.start("soft"), at: t0).isEmpty) }
        let over = bus.handle(Self.start("soft"), at: t0)
        try #require(over.count == 1)
        guard case .log(let line) = over[0] else {
            Issue.record("not a line: \(over)")
            return
        }
        #expect(line == "ignored MQTT start on eggtimer/kitchen/start: 16 starts wait already")
        _ = probed(&bus, after: [])
        let held = bus.handle(Self.claim("a1"), at: t0)
        #expect(held.filter { $0 == Self.soft }.count == KitchenBus.waitingLimit)
    }
}
