import HouseBus
import Testing

/// What the node's dead timers left on the broker (issue 45): the ringing state set right when no
/// timer of the node is online, and a dead timer's retained messages cleared, configs first.
@Suite struct NodeLeftoversTests {
    let node = NodeTopics(node: "kitchen")

    func state(_ label: String, _ word: String) -> (String, [UInt8]) {
        let payload = TimerStatePayload(
            state: word, label: label, node: "kitchen", durationSeconds: 60, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil)
        return (TimerTopics(node: "kitchen", label: label).state, payload.json())
    }

    func availability(_ label: String, _ word: String) -> (String, [UInt8]) {
        (TimerTopics(node: "kitchen", label: label).availability, Array(word.utf8))
    }

    func ringing(_ word: String) -> (String, [UInt8]) { (node.ringing, Array(word.utf8)) }

    /// The labels `see` reports, one entry per message (nil: none).
    func feed(_ leftovers: inout NodeLeftovers, _ messages: [(String, [UInt8])]) -> [String?] {
        messages.map { leftovers.see(topic: $0.0, payload: $0.1) }
    }

    @Test func aTimersOfflineIsSaidOnceAndOnlineOrAClearTakesItBack() {
        var leftovers = NodeLeftovers(topics: node)
        let said = feed(
            &leftovers,
            [
                availability("tea", "online"), state("tea", "ringing"), availability("tea", "offline"),
                availability("tea", "offline"), ringing("ON"),
            ])
        #expect(said == [nil, nil, "tea", nil, nil])
        #expect(leftovers.offline == ["tea"])
        _ = feed(&leftovers, [availability("tea", "online")])
        #expect(leftovers.offline.isEmpty, "recovered: it runs")
        #expect(feed(&leftovers, [availability("tea", "offline")]) == ["tea"])
        _ = feed(&leftovers, [(availability("tea", "").0, [])])
        #expect(leftovers.offline.isEmpty, "a clean end clears its availability")
    }

    @Test func theKitchensTheFollowersAndOtherNodesAvailabilitiesAreNoTimers() {
        var leftovers = NodeLeftovers(topics: node)
        let said = feed(
            &leftovers,
            [
                availability(NodeTopics.kitchenLabel, "offline"), availability("follow", "offline"),
                (TimerTopics(node: "hall", label: "tea").availability, Array("offline".utf8)),
                (node.availability, Array("offline".utf8)),
            ])
        #expect(said == [nil, nil, nil, nil])
        #expect(leftovers.offline.isEmpty)
    }

    @Test func theLastRingingTimerDyingTurnsTheNodeOffWhenNoTimerIsOnline() {
        var leftovers = NodeLeftovers(topics: node)
        _ = feed(&leftovers, [availability("tea", "online"), state("tea", "ringing"), ringing("ON")])
        #expect(leftovers.ringingUpdate() == nil, "a timer is online: it keeps the ringing state")
        _ = feed(&leftovers, [availability("tea", "offline")])
        #expect(
            leftovers.ringingUpdate() == NodeRinging.message(false, on: node)
        )
        #expect(leftovers.ringingUpdate() == nil, "once per change")
        _ = feed(&leftovers, [ringing("OFF")])
        #expect(leftovers.ringingUpdate() == nil)
    }

    @Test func aNodeWithNoRingingStateRetainedGetsOffOnceWhileNoTimerIsOnline() {
        var leftovers = NodeLeftovers(topics: node)
        _ = feed(&leftovers, [availability("tea", "online"), state("tea", "counting")])
        #expect(leftovers.ringingUpdate() == nil, "tea is online: it keeps the ringing state")
        _ = feed(&leftovers, [availability("tea", "offline")])
        #expect(leftovers.ringingUpdate() == NodeRinging.message(false, on: node), "unknown until now")
        #expect(leftovers.ringingUpdate() == nil, "once")
    }

    @Test func anotherTimerOnlineKeepsTheRingingStateItself() {
        var leftovers = NodeLeftovers(topics: node)
        _ = feed(
            &leftovers,
            [
                availability("tea", "online"), state("tea", "ringing"), ringing("ON"), availability("rice", "online"),
                state("rice", "counting"), availability("tea", "offline"),
            ])
        #expect(leftovers.ringingUpdate() == nil, "rice is online: it publishes OFF itself")
        _ = feed(&leftovers, [(availability("rice", "").0, [])])
        #expect(
            leftovers.ringingUpdate() == NodeRinging.message(false, on: node)
        )
    }

    @Test func aDeadTimersLeftoversAreClearedConfigsFirstAndOnlyOnce() {
        var leftovers = NodeLeftovers(topics: node)
        #expect(leftovers.clear("tea").isEmpty, "never seen offline: nothing of it is cleared")
        _ = feed(
            &leftovers, [availability("tea", "online"), availability("rice", "online"), availability("tea", "offline")])
        #expect(leftovers.clear("rice").isEmpty, "online: it runs")
        let timer = TimerTopics(node: "kitchen", label: "tea")
        let cleared = leftovers.clear("tea")
        #expect(
            cleared
                == HomeAssistantDiscovery.removals(for: timer) + [
                    BusMessage(topic: timer.state, payload: [], retain: true, qos: 1),
                    BusMessage(topic: timer.availability, payload: [], retain: true, qos: 1),
                ])
        #expect(cleared.count == 11 && cleared.allSatisfy { $0.retain && $0.payload.isEmpty && $0.qos == 1 })
        #expect(leftovers.offline.isEmpty)
        #expect(leftovers.clear("tea").isEmpty, "once")
    }

    @Test func aLabelAndNodeOfAnyCharactersAreClearedOnTheirOwnTopics() {
        let odd = NodeTopics(prefix: "house/eggs", node: "a/b")
        var leftovers = NodeLeftovers(topics: odd)
        let timer = TimerTopics(prefix: "house/eggs", node: "a/b", label: "1:30 #2")
        #expect(leftovers.see(topic: timer.availability, payload: Array("offline".utf8)) == "1:30 #2")
        let cleared = leftovers.clear("1:30 #2")
        #expect(cleared.suffix(2).map(\.topic) == [timer.state, timer.availability])
        #expect(cleared.dropLast(2).map(\.topic) == HomeAssistantDiscovery.removals(for: timer).map(\.topic))
    }
}
