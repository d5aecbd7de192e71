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

    @Test(arguments: [
        ("1:30", "1_30"), ("a/b", "a%2Fb"), ("a+", "a%2B"), ("#", "%23"), ("x\u{1}", "x%01"), ("%", "%25"),
        ("2 hours", "2_hours"),
    ])
    func differentLabelsGetDifferentTopics(one: String, other: String) throws {
        let first = TimerTopics(node: "kitchen", label: one)
        let second = TimerTopics(node: "kitchen", label: other)
        #expect(first.state != second.state && first.command != second.command)
        #expect(first.availability != second.availability)
        for topics in [first, second] {
            let parsed = try #require(TimerTopics.parse(topics.command, prefix: "eggtimer"))
            #expect(parsed.0 == topics)
        }
    }

    @Test(arguments: [
        ("1:30", "1:30"), ("2 hours", "2 hours"), ("a/b", "a%2Fb"), ("a+b#", "a%2Bb%23"), ("50%", "50%25"),
        ("t\u{E9}\u{85}\n", "t\u{E9}%C2%85%0A"), ("eggs", "eggs"),
    ])
    func levelsEscapeOnlyWhatATopicLevelCannotHold(name: String, level: String) {
        #expect(TimerTopics.level(name) == level)
        #expect(TimerTopics.name(ofLevel: level) == name)
    }

    @Test(arguments: ["a%2fb", "50%", "%2", "%zz", "a+b", "a#"])
    func levelsNoEscapeMakesDoNotParse(level: String) {
        #expect(TimerTopics.name(ofLevel: level) == nil)
        #expect(TimerTopics.parse("eggtimer/kitchen/\(level)/state", prefix: "eggtimer") == nil)
    }

    @Test func clientIDsAreUniqueAndSanitised() {
        let first = BusSettings.uniqueClientID(node: "garden room/1")
        let second = BusSettings.uniqueClientID(node: "garden room/1")
        #expect(first.hasPrefix("eggtimer-garden_room_1-\(getpid())-"))
        #expect(first != second)
        #expect(first.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    }
}

/// Labels people use (issue 41): a spaced or non-ASCII label is one topic level and one Home
/// Assistant id, injectively over labels that are not one timer, and parses back.
@Suite struct LabelEscapingTests {
    static let labels = [
        "roast beef", "roast_beef", "roast-beef", "roastbeef", "Küche", "Kuche", "K\u{FC}che x", "1:30", "1-30", "1_30",
        ":", "+", "'", "a'b", "3m Spätzle", "寿司", "mum's stew",
    ]

    @Test func everyLabelIsItsOwnTopicLevelAndParsesBack() throws {
        let levels = Self.labels.map(TimerTopics.level)
        #expect(Set(levels).count == Self.labels.count, "\(levels)")
        for label in Self.labels {
            let level = TimerTopics.level(label)
            #expect(!level.contains("/") && !level.contains("+") && !level.contains("#"), "\(level)")
            let topics = TimerTopics(node: "kitchen", label: label)
            let parsed = try #require(TimerTopics.parse(topics.state, prefix: "eggtimer"), "\(topics.state)")
            #expect(parsed.0.label == label && parsed.0.node == "kitchen")
        }
        #expect(TimerTopics.level("roast beef") == "roast beef" && TimerTopics.level("Küche") == "Küche")
        #expect(TimerTopics.level("+") == "%2B")
    }

    @Test func everyLabelIsItsOwnHomeAssistantID() {
        let ids = Self.labels.map { HomeAssistantDiscovery.objectID(for: TimerTopics(node: "kitchen", label: $0)) }
        #expect(Set(ids).count == Self.labels.count, "\(ids)")
        for id in ids {
            #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }, "\(id)")
        }
        #expect(ids[0] == "kitchen__roast_20beef")
        #expect(ids[4] == "kitchen__K_c3_bcche")
    }
}
