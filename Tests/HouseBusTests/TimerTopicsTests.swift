import Glibc
import HouseBus
import Testing

@Suite struct TimerTopicsTests {
    @Test func topicsAreBuiltFromPrefixNodeAndLabel() {
        let topics = TimerTopics(node: "kitchen", label: "eggs")
        #expect(topics.state == "eggtimer/kitchen/eggs/state")
        #expect(topics.command == "eggtimer/kitchen/eggs/command")
        #expect(topics.availability == "eggtimer/kitchen/eggs/availability")
        #expect(TimerTopics(prefix: "home/timers", node: "n", label: "l").state == "home/timers/n/l/state")
    }

    @Test(arguments: [
        ("eggtimer/kitchen/eggs/command", "eggtimer", "kitchen", "eggs", "command"),
        ("eggtimer/kitchen/eggs/state", "eggtimer", "kitchen", "eggs", "state"),
        ("home/timers/garden/tea/availability", "home/timers", "garden", "tea", "availability"),
    ])
    func topicsParseBack(topic: String, prefix: String, node: String, label: String, kind: String) throws {
        let parsed = try #require(TimerTopics.parse(topic, prefix: prefix))
        #expect(parsed.0 == TimerTopics(prefix: prefix, node: node, label: label))
        #expect(parsed.kind == kind)
    }

    @Test(arguments: [
        "eggtimer/kitchen/eggs", "eggtimer/kitchen/eggs/state/extra", "eggtimer//eggs/state", "eggtimer/kitchen/eggs/",
        "other/kitchen/eggs/state", "eggtimerx/kitchen/eggs/state", "eggtimer", "",
    ])
    func otherShapesDoNotParse(topic: String) {
        #expect(TimerTopics.parse(topic, prefix: "eggtimer") == nil)
    }

    @Test func builtTopicsParseBack() throws {
        let topics = TimerTopics(prefix: "eggtimer", node: "garden-room", label: "pasta_2")
        for (topic, kind) in [
            (topics.state, "state"), (topics.command, "command"), (topics.availability, "availability"),
        ] {
            let parsed = try #require(TimerTopics.parse(topic, prefix: "eggtimer"))
            #expect(parsed.0 == topics && parsed.kind == kind)
        }
    }

    @Test func clientIDsAreUniqueAndSanitised() {
        let first = BusSettings.uniqueClientID(node: "garden room/1")
        let second = BusSettings.uniqueClientID(node: "garden room/1")
        #expect(first.hasPrefix("eggtimer-garden_room_1-\(getpid())-"))
        #expect(first != second)
        #expect(first.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    }
}
