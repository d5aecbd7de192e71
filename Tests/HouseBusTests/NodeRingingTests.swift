import HouseBus
import Testing

@Suite struct NodeRingingTests {
    let node = NodeTopics(node: "kitchen")

    /// A timer's retained state on the node, as it publishes it.
    func state(_ label: String, _ word: String) -> (String, [UInt8]) {
        let payload = TimerStatePayload(
            state: word, label: label, node: "kitchen", durationSeconds: 60, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil)
        return (TimerTopics(node: "kitchen", label: label).state, payload.json())
    }

    func availability(_ label: String, _ word: String) -> (String, [UInt8]) {
        (TimerTopics(node: "kitchen", label: label).availability, Array(word.utf8))
    }

    func seen(_ messages: [(String, [UInt8])]) -> NodeRinging {
        var ringing = NodeRinging(topics: node)
        for (topic, payload) in messages { ringing.see(topic: topic, payload: payload) }
        return ringing
    }

    @Test func nodeTopicsHaveTwoLevelsSoNoLabelMeetsThem() {
        #expect(node.ringing == "eggtimer/kitchen/ringing")
        #expect(node.ackAll == "eggtimer/kitchen/ack-all")
        #expect(node.availability == "eggtimer/kitchen/availability")
        #expect(node.timerStates == "eggtimer/kitchen/+/state")
        #expect(node.timerAvailabilities == "eggtimer/kitchen/+/availability")
        let odd = NodeTopics(prefix: "house/eggs", node: "a/b")
        #expect(odd.ringing == "house/eggs/a%2Fb/ringing")
        for topic in [node.ringing, node.ackAll, node.availability] {
            #expect(TimerTopics.parse(topic, prefix: "eggtimer") == nil, "\(topic)")
        }
        #expect(NodeTopics(of: TimerTopics(prefix: "p", node: "n", label: "l")) == NodeTopics(prefix: "p", node: "n"))
    }

    @Test func theKitchenTakesStartsOnTwoLevelsAndIsAvailableAsTheReservedLabel() {
        #expect(node.start == "eggtimer/kitchen/start")
        #expect(TimerTopics.parse(node.start, prefix: "eggtimer") == nil)
        #expect(node.kitchenAvailability == "eggtimer/kitchen/kitchen/availability")
        #expect(node.kitchenAvailability == TimerTopics(node: "kitchen", label: NodeTopics.kitchenLabel).availability)
        let odd = NodeTopics(prefix: "house/eggs", node: "a/b")
        #expect(odd.start == "house/eggs/a%2Fb/start")
        #expect(odd.kitchenAvailability == "house/eggs/a%2Fb/kitchen/availability")
    }

    @Test func theKitchensAndTheFollowersAvailabilityAreNoTimersOnline() {
        for label in [NodeTopics.kitchenLabel, "follow"] {
            let node = seen([availability(label, "online")])
            #expect(!node.othersOnline(excluding: "tea"), "\(label)")
            #expect(node.leaving("tea").contains { $0.topic == self.node.availability }, "\(label)")
        }
        #expect(seen([availability("rice", "online")]).othersOnline(excluding: "tea"))
    }

    @Test(arguments: [
        ([("a", "counting")], false),
        ([("a", "ringing")], true),
        ([("a", "silent")], true),
        ([("a", "snoozed")], false),
        ([("a", "counting"), ("b", "ringing")], true),
        ([("a", "done"), ("b", "paused"), ("c", "missed"), ("d", "cancelled")], false),
    ])
    func theAggregateRingsWhileAnyTimerRings(states: [(String, String)], rings: Bool) {
        #expect(seen(states.map { state($0.0, $0.1) }).isRinging() == rings)
    }

    @Test func aClearedStateOrAnOfflineTimerNoLongerRings() {
        var ringing = seen([state("a", "ringing")])
        ringing.see(topic: state("a", "ringing").0, payload: [])
        #expect(!ringing.isRinging())
        var crashed = seen([state("b", "ringing"), availability("b", "online")])
        #expect(crashed.isRinging())
        crashed.see(topic: availability("b", "offline").0, payload: availability("b", "offline").1)
        #expect(!crashed.isRinging())
    }

    @Test func otherNodesAndOtherTopicsAreNotTakenIn() {
        var ringing = NodeRinging(topics: node)
        let hall = ringing.see(topic: TimerTopics(node: "hall", label: "a").state, payload: state("a", "ringing").1)
        let command = ringing.see(topic: TimerTopics(node: "kitchen", label: "a").command, payload: Array("ack".utf8))
        let elsewhere = ringing.see(topic: "elsewhere/kitchen/a/state", payload: state("a", "ringing").1)
        #expect(!hall && !command && !elsewhere)
        #expect(!ringing.isRinging())
    }

    @Test func theStateIsPublishedOnlyWhenItDiffersFromTheRetainedOne() throws {
        var ringing = seen([state("a", "ringing")])
        let first = ringing.ringingUpdate()
        let on = try #require(first)
        #expect(on.topic == "eggtimer/kitchen/ringing" && on.payload == Array("ON".utf8))
        #expect(on.retain && on.qos == 1)
        let again = ringing.ringingUpdate()
        #expect(again == nil)
        // Another timer's copy of the same aggregate: nothing to say.
        ringing.see(topic: node.ringing, payload: Array("ON".utf8))
        let copied = ringing.ringingUpdate()
        #expect(copied == nil)
        ringing.see(topic: state("a", "done").0, payload: state("a", "done").1)
        let off = ringing.ringingUpdate()
        #expect(off?.payload == Array("OFF".utf8))
        // A retained OFF someone else left while this one rings: set right.
        var other = seen([state("b", "ringing"), (node.ringing, Array("OFF".utf8))])
        let corrected = other.ringingUpdate()
        #expect(corrected?.payload == Array("ON".utf8))
    }

    @Test(arguments: [
        ("ringing", true), ("silent", true), ("snoozed", true), ("counting", false), ("paused", false),
        ("done", false), ("cancelled", false), ("missed", false), ("menu", false), ("bogus", false),
    ])
    func aPressAppliesToRingingAndSnoozedTimers(state: String, applies: Bool) {
        #expect(NodeRinging.pressApplies(to: state) == applies)
    }

    @Test func theLastTimerLeavingSaysOffAndOffline() {
        let ringing = seen([state("a", "ringing"), availability("a", "online"), (node.ringing, Array("ON".utf8))])
        let last = ringing.leaving("a")
        #expect(last.map(\.topic) == [node.ringing, node.availability])
        #expect(last.map(\.payload) == [Array("OFF".utf8), Array("offline".utf8)])
        #expect(last.allSatisfy { $0.retain && $0.qos == 1 })
    }

    @Test func aTimerLeavingBesideAnotherLeavesTheNodeOnlineAndRinging() {
        let ringing = seen([
            state("a", "done"), availability("a", "online"), state("b", "ringing"), availability("b", "online"),
            (node.ringing, Array("ON".utf8)),
        ])
        #expect(ringing.leaving("a").isEmpty)
    }

    /// Issue 45: one timer of the node says its ringing state, the online one whose label sorts
    /// first; the others stay quiet, leaving included, and the next one keeps it once it goes.
    @Test func theOnlineTimerWhoseLabelSortsFirstKeepsTheRingingState() {
        var ringing = seen([
            availability("rice", "online"), state("rice", "counting"), availability("tea", "online"),
            state("tea", "ringing"), (node.ringing, Array("ON".utf8)),
        ])
        #expect(ringing.keeps("rice") && ringing.keeps("apple") && !ringing.keeps("tea") && !ringing.keeps("soup"))
        // tea rang alone and leaves: rice says OFF (it sees tea's state change), tea does not.
        #expect(ringing.leaving("tea").isEmpty)
        ringing.see(topic: availability("rice", "").0, payload: [])
        #expect(ringing.keeps("tea"))
        #expect(ringing.leaving("tea").map(\.payload) == [Array("OFF".utf8), Array("offline".utf8)])
    }

    @Test func theRingingStateIsNotReplayedAndIsSaidAgainOnceForgotten() {
        var ringing = seen([state("a", "ringing"), (node.ringing, Array("ON".utf8))])
        #expect(ringing.ringingUpdate() == nil)
        ringing.forgetRinging()
        let again = ringing.ringingUpdate()
        #expect(again == NodeRinging.message(true, on: node))
        #expect(again?.replay == false && again?.retain == true && again?.qos == 1)
    }

    @Test func timersEndedByOnePressLeaveTheNodeOffAlthoughTheirClearsCrossed() {
        var ringing = seen([
            state("a", "ringing"), availability("a", "online"), state("b", "snoozed"), availability("b", "online"),
            state("c", "counting"), availability("c", "online"), (node.ringing, Array("ON".utf8)),
        ])
        let applies = ringing.press(applyingTo: "ringing")
        #expect(applies)
        #expect(ringing.acknowledged == ["a", "b"])
        // a leaves before b's clear came: b was acknowledged by the same press.
        #expect(ringing.leaving("a").map(\.payload) == [Array("OFF".utf8)])
        var counting = seen([state("c", "counting")])
        let ignored = !counting.press(applyingTo: "counting")
        #expect(ignored)
    }
}
