import HouseBus
import Testing

/// Issue 45: the kitchen's summary of the node's timers, which its stable entities read.
@Suite struct NodeSummaryTests {
    let node = NodeTopics(node: "kitchen")

    func state(_ label: String, _ word: String, deadline: Int64? = nil, silent: String? = nil) -> (String, [UInt8]) {
        var payload = TimerStatePayload(
            state: word, label: label, node: "kitchen", durationSeconds: 60, remainingSeconds: 30,
            deadlineUnixMilliseconds: deadline)
        payload.silent = silent
        return (TimerTopics(node: "kitchen", label: label).state, payload.json())
    }

    func availability(_ label: String, _ word: String) -> (String, [UInt8]) {
        (TimerTopics(node: "kitchen", label: label).availability, Array(word.utf8))
    }

    func summary(_ messages: [(String, [UInt8])]) -> NodeSummary {
        var summary = NodeSummary(topics: node)
        for (topic, payload) in messages { summary.see(topic: topic, payload: payload) }
        return summary
    }

    func json(_ summary: NodeSummary) -> String { String(decoding: summary.message.payload, as: UTF8.self) }

    @Test func nothingRunningSaysZeroAndNoNextDue() {
        let empty = summary([])
        #expect(
            json(empty)
                == #"{"running":0,"next_due":null,"next_label":null,"ringing":false,"silent":false,"#
                + #""silent_label":null,"silent_reason":null}"#)
        #expect(empty.message.topic == "eggtimer/kitchen/kitchen/summary")
        #expect(empty.message.retain && empty.message.qos == 1)
    }

    @Test func theEarliestCountingOrSnoozedDeadlineIsNextAndEndedOrDeadTimersDoNotCount() {
        let seen = summary([
            state("soup", "counting", deadline: 1_800_000_000_000),
            state("rice", "snoozed", deadline: 1_700_000_000_000),
            state("tea", "paused"), state("egg", "done"), state("old", "counting", deadline: 1_600_000_000_000),
            availability("old", "offline"), state("pot", "ringing"), availability("follow", "offline"),
        ])
        #expect(seen.running.map(\.label) == ["pot", "rice", "soup", "tea"])
        #expect(seen.nextDue?.label == "rice")
        #expect(seen.isRinging && seen.silent == nil)
        #expect(
            json(seen)
                == #"{"running":4,"next_due":"2023-11-14T22:13:20.000Z","next_label":"rice","ringing":true,"#
                + #""silent":false,"silent_label":null,"silent_reason":null}"#)
        // The timer comes back online, then its state is cleared: counted while it runs, then not.
        var again = seen
        again.see(topic: availability("old", "online").0, payload: availability("old", "online").1)
        #expect(again.nextDue?.label == "old" && again.running.count == 5)
        again.see(topic: state("old", "counting").0, payload: [])
        #expect(again.nextDue?.label == "rice" && again.running.count == 4)
    }

    @Test func aSilentAlarmSaysWhichAndWhy() {
        let seen = summary([state("tea", "silent", silent: "device busy"), state("pot", "ringing")])
        #expect(seen.isRinging && seen.silent?.label == "tea")
        #expect(json(seen).contains(#""silent":true,"silent_label":"tea","silent_reason":"device busy"}"#))
    }

    @Test func othersMessagesAreNotTheSummarys() {
        var seen = NodeSummary(topics: node)
        let cellar = seen.see(topic: "eggtimer/cellar/tea/state", payload: state("tea", "counting").1)
        let ringing = seen.see(topic: node.ringing, payload: Array("ON".utf8))
        #expect(!cellar && !ringing)
        #expect(seen == NodeSummary(topics: node))
    }
}
