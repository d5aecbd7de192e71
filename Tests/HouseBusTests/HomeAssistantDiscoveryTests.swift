import HouseBus
import Testing
import TimerModel

@Suite struct HomeAssistantDiscoveryTests {
    let topics = TimerTopics(node: "kitchen", label: "eggs")

    /// Issue 45: each timer is a device of its own under its node's, so that its entities' names
    /// (`Time left`) read after its label, with who made it and the release.
    static let timerDevice = JSONValue.object([
        JSONMember("identifiers", .array([.string("eggtimer_kitchen__eggs")])),
        JSONMember("name", .string("eggs")),
        JSONMember("manufacturer", .string("eggtimer project")),
        JSONMember("model", .string("Timer")),
        JSONMember("sw_version", .string(Release.version)),
        JSONMember("via_device", .string("eggtimer_kitchen")),
    ])

    /// The node's device, which every node and kitchen entity carries.
    static let nodeDevice = JSONValue.object([
        JSONMember("identifiers", .array([.string("eggtimer_kitchen")])),
        JSONMember("name", .string("eggtimer kitchen")),
        JSONMember("manufacturer", .string("eggtimer project")),
        JSONMember("model", .string("Kitchen timer")),
        JSONMember("sw_version", .string(Release.version)),
    ])

    /// The config on `topic`, parsed.
    func config(_ topic: String, of configs: [BusMessage]) throws -> JSONValue {
        let message = try #require(configs.first { $0.topic == topic }, "no config on \(topic)")
        #expect(message.retain && message.qos == 1)
        return try #require(JSONValue.parse(message.payload))
    }

    @Test func eachTimerHasTwoSensorsAndSevenButtons() {
        #expect(
            HomeAssistantDiscovery.configs(for: topics).map(\.topic) == [
                "homeassistant/sensor/kitchen__eggs/deadline/config",
                "homeassistant/sensor/kitchen__eggs/state/config",
                "homeassistant/button/kitchen__eggs/ack/config",
                "homeassistant/button/kitchen__eggs/snooze/config",
                "homeassistant/button/kitchen__eggs/cancel/config",
                "homeassistant/button/kitchen__eggs/pause/config",
                "homeassistant/button/kitchen__eggs/resume/config",
                "homeassistant/button/kitchen__eggs/add-minute/config",
                "homeassistant/button/kitchen__eggs/subtract-minute/config",
            ])
    }

    @Test func sensorConfigCarriesTheDocumentedKeys() throws {
        let json = try config(
            "homeassistant/sensor/kitchen__eggs/deadline/config", of: HomeAssistantDiscovery.configs(for: topics))
        #expect(json["device_class"] == .string("timestamp"))
        #expect(json["state_topic"] == .string("eggtimer/kitchen/eggs/state"))
        #expect(json["value_template"] == .string("{{ value_json.deadline if value_json is defined else None }}"))
        #expect(json["availability_topic"] == .string("eggtimer/kitchen/eggs/availability"))
        #expect(json["unique_id"] == .string("eggtimer_kitchen__eggs_deadline"))
        #expect(json["name"] == .string("Time left"))
        #expect(json["icon"] == .string("mdi:timer-outline"))
        #expect(json["device"] == Self.timerDevice)
    }

    @Test func stateSensorIsAnEnumOfThePublishedStateWords() throws {
        let json = try config(
            "homeassistant/sensor/kitchen__eggs/state/config", of: HomeAssistantDiscovery.configs(for: topics))
        #expect(json["device_class"] == .string("enum"))
        // Pinned by hand: the documented words a timer publishes (the menu is never published).
        let words = ["counting", "paused", "ringing", "silent", "snoozed", "done", "cancelled", "missed"]
        #expect(json["options"] == .array(words.map(JSONValue.string)))
        #expect(json["state_topic"] == .string("eggtimer/kitchen/eggs/state"))
        #expect(json["value_template"] == .string("{{ value_json.state if value_json is defined else None }}"))
        #expect(json["availability_topic"] == .string("eggtimer/kitchen/eggs/availability"))
        #expect(json["unique_id"] == .string("eggtimer_kitchen__eggs_state"))
        #expect(json["name"] == .string("State"))
        #expect(json["icon"] == .string("mdi:egg"))
        #expect(json["device"] == Self.timerDevice)
    }

    /// Issue 45: each button sends its command and is available only in the states where the
    /// timer takes it (pinned by hand from the controller's refusals), and while the timer is online.
    @Test(arguments: [
        ("ack", "ack", "Acknowledge", ["ringing", "silent", "snoozed"]),
        ("snooze", "snooze", "Snooze", ["ringing", "silent"]),
        ("cancel", "cancel", "Cancel", ["counting", "paused", "ringing", "silent", "snoozed"]),
        ("pause", "pause", "Pause", ["counting", "snoozed"]),
        ("resume", "resume", "Resume", ["paused"]),
        ("add-minute", "add 60", "Add 1 minute", ["counting", "paused", "snoozed"]),
        ("subtract-minute", "add -60", "Subtract 1 minute", ["counting", "paused", "snoozed"]),
    ])
    func buttonConfigSendsItsCommandWhileTheTimerTakesIt(
        entity: String, payload: String, name: String, states: [String]
    ) throws {
        let json = try config(
            "homeassistant/button/kitchen__eggs/\(entity)/config", of: HomeAssistantDiscovery.configs(for: topics))
        #expect(json["command_topic"] == .string("eggtimer/kitchen/eggs/command"))
        #expect(json["payload_press"] == .string(payload))
        #expect(try BusCommand.parse(Array(payload.utf8)).text == payload)
        #expect(json["availability_topic"] == nil)
        let words = states.map { "'\($0)'" }.joined(separator: ", ")
        #expect(
            json["availability"]
                == .array([
                    .object([JSONMember("topic", .string("eggtimer/kitchen/eggs/availability"))]),
                    .object([
                        JSONMember("topic", .string("eggtimer/kitchen/eggs/state")),
                        JSONMember(
                            "value_template",
                            .string(
                                "{{ 'online' if value_json is defined and value_json.state in [\(words)] else 'offline' }}"
                            )),
                    ]),
                ]))
        #expect(json["availability_mode"] == .string("all"))
        #expect(json["unique_id"] == .string("eggtimer_kitchen__eggs_\(entity)"))
        #expect(json["device"] == Self.timerDevice)
        #expect(json["icon"]?.stringValue?.hasPrefix("mdi:") == true)
        #expect(json["name"] == .string(name))
        #expect(json["state_topic"] == nil)
    }

    @Test func objectIDsAreSanitisedAndThePrefixIsUsed() {
        let odd = TimerTopics(node: "garden room", label: "t\u{E9}a.2")
        let configs = HomeAssistantDiscovery.configs(for: odd, discoveryPrefix: "ha")
        #expect(
            configs.map(\.topic) == [
                "ha/sensor/garden_20room__t_c3_a9a_2e2/deadline/config",
                "ha/sensor/garden_20room__t_c3_a9a_2e2/state/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/ack/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/snooze/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/cancel/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/pause/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/resume/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/add-minute/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/subtract-minute/config",
            ])
    }

    @Test func objectIDsAreInjectiveInHomeAssistantsCharset() {
        let pairs = [
            (TimerTopics(node: "kitchen", label: "1:30"), TimerTopics(node: "kitchen", label: "1_30")),
            (TimerTopics(node: "a_b", label: "c"), TimerTopics(node: "a", label: "b_c")),
            (TimerTopics(node: "a", label: "_5f"), TimerTopics(node: "a_", label: "5f")),
            (TimerTopics(node: "k", label: "t\u{E9}"), TimerTopics(node: "k", label: "t_c3_a9")),
        ]
        for (one, other) in pairs {
            let ids = [one, other].map(HomeAssistantDiscovery.objectID(for:))
            #expect(ids[0] != ids[1], "\(one.label) and \(other.label)")
            #expect(
                HomeAssistantDiscovery.configs(for: one).map(\.topic)
                    != HomeAssistantDiscovery.configs(for: other).map(\.topic))
            for id in ids {
                #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
            }
        }
    }

    /// Issue 45: a cleared state (an empty payload) is no JSON, and Home Assistant logs an error
    /// for every template that reads an undefined `value_json`: every template of a timer's
    /// entities tests it first (`is defined` logs nothing) and renders `None` (an MQTT sensor's
    /// "no value", said without a warning) when it is not.
    @Test func everyTemplateReadsValueJSONOnlyWhenThePayloadIsJSON() throws {
        let templates = try HomeAssistantDiscovery.configs(for: topics).compactMap {
            try #require(JSONValue.parse($0.payload))["value_template"]?.stringValue
        }
        #expect(templates.count == 2)
        for template in templates {
            #expect(template.hasPrefix("{{ value_json."), "\(template)")
            #expect(template.hasSuffix(" if value_json is defined else None }}"), "\(template)")
            #expect(template.split(separator: " ").filter { $0.hasPrefix("value_json") }.count == 2, "\(template)")
        }
    }

    /// Issue 45: time left and duration are attributes of both sensors.
    ///
    /// Read from the state topic (published at each change and at the minute's refresh, never
    /// every second), `finishes_at` only while there is a deadline; the deadline sensor also says
    /// the timer's state, so that its `unknown` while paused has a reason. An empty payload
    /// renders `{}` (no attributes), never an undefined `value_json`.
    @Test(arguments: ["deadline", "state"])
    func bothSensorsShowTimeLeftAndDurationAsAttributes(entity: String) throws {
        let json = try config(
            "homeassistant/sensor/kitchen__eggs/\(entity)/config", of: HomeAssistantDiscovery.configs(for: topics))
        #expect(json["json_attributes_topic"] == .string("eggtimer/kitchen/eggs/state"))
        let template = try #require(json["json_attributes_template"]?.stringValue)
        #expect(template.hasPrefix("{% if value_json is defined %}"))
        #expect(template.hasSuffix("{% else %}{}{% endif %}"))
        #expect(template.contains(#""remaining": value_json.remaining_s"#))
        #expect(template.contains(#""duration": value_json.duration_s"#))
        #expect(template.contains("{% if value_json.deadline %}"))
        #expect(template.contains("finishes_at=value_json.deadline"))
        #expect(template.contains(#""timer_state": value_json.state"#) == (entity == "deadline"))
    }

    @Test func removalsClearTheSameTopics() {
        let removals = HomeAssistantDiscovery.removals(for: topics)
        #expect(removals.map(\.topic) == HomeAssistantDiscovery.configs(for: topics).map(\.topic))
        #expect(removals.count == 9)
        #expect(removals.allSatisfy { $0.payload.isEmpty && $0.retain && $0.qos == 1 })
    }
}

@Suite struct NodeDiscoveryTests {
    let node = NodeTopics(node: "kitchen")

    @Test func theNodeHasARingingSensorAndAnAcknowledgeAllButton() throws {
        let configs = HomeAssistantDiscovery.nodeConfigs(for: node)
        #expect(
            configs.map(\.topic) == [
                "homeassistant/binary_sensor/kitchen/ringing/config", "homeassistant/button/kitchen/ack-all/config",
            ])
        #expect(configs.allSatisfy { $0.retain && $0.qos == 1 })
        let sensor = try #require(JSONValue.parse(configs[0].payload))
        #expect(sensor["state_topic"] == .string("eggtimer/kitchen/ringing"))
        #expect(sensor["payload_on"] == .string("ON"))
        #expect(sensor["payload_off"] == .string("OFF"))
        #expect(sensor["device_class"] == .string("sound"))
        #expect(sensor["unique_id"] == .string("eggtimer_kitchen_ringing"))
        #expect(sensor["name"] == .string("Ringing"))
        #expect(sensor["icon"] == .string("mdi:alarm"))
        let button = try #require(JSONValue.parse(configs[1].payload))
        #expect(button["command_topic"] == .string("eggtimer/kitchen/ack-all"))
        #expect(button["payload_press"] == .string("ack"))
        #expect(button["unique_id"] == .string("eggtimer_kitchen_ack-all"))
        #expect(button["name"] == .string("Acknowledge all"))
        #expect(button["icon"] == .string("mdi:alarm-check"))
        // Available while a timer of the node or its kitchen runs (issue 45): not between timers.
        let availability = JSONValue.array([
            .object([JSONMember("topic", .string("eggtimer/kitchen/availability"))]),
            .object([JSONMember("topic", .string("eggtimer/kitchen/kitchen/availability"))]),
        ])
        for json in [sensor, button] {
            #expect(json["availability_topic"] == nil)
            #expect(json["availability"] == availability)
            #expect(json["availability_mode"] == .string("any"))
            #expect(json["device"] == HomeAssistantDiscoveryTests.nodeDevice)
        }
    }

    /// Issue 45: the kitchen's stable entities read its summary and have its availability.
    @Test func theKitchensSummaryEntitiesReadItsSummaryWithItsAvailability() throws {
        let configs = HomeAssistantDiscovery.kitchenSummaryConfigs(for: NodeTopics(node: "kitchen"))
        #expect(
            configs.map(\.topic) == [
                "homeassistant/sensor/kitchen/timers-running/config", "homeassistant/sensor/kitchen/next-due/config",
                "homeassistant/binary_sensor/kitchen/silent/config",
            ])
        let json = try configs.map { try #require(JSONValue.parse($0.payload)) }
        #expect(json.map { $0["name"] } == ["Timers running", "Next due", "Silent"].map(JSONValue.string))
        #expect(
            json.map { $0["unique_id"] }
                == ["eggtimer_kitchen_timers-running", "eggtimer_kitchen_next-due", "eggtimer_kitchen_silent"].map(
                    JSONValue.string))
        #expect(json[0]["value_template"] == .string("{{ value_json.running }}"))
        #expect(json[1]["device_class"] == .string("timestamp"))
        #expect(json[1]["value_template"] == .string("{{ value_json.next_due }}"))
        #expect(json[2]["device_class"] == .string("problem"))
        for config in json {
            #expect(config["state_topic"] == .string("eggtimer/kitchen/kitchen/summary"))
            #expect(config["availability_topic"] == .string("eggtimer/kitchen/kitchen/availability"))
            #expect(config["device"] == HomeAssistantDiscoveryTests.nodeDevice)
        }
        #expect(configs.allSatisfy { $0.retain && $0.qos == 1 })
    }

    @Test func theNodesConfigsAreTheSameBytesFromEveryTimerAndMeetNoTimers() {
        let one = HomeAssistantDiscovery.nodeConfigs(for: NodeTopics(of: TimerTopics(node: "kitchen", label: "a")))
        let other = HomeAssistantDiscovery.nodeConfigs(for: NodeTopics(of: TimerTopics(node: "kitchen", label: "b")))
        #expect(one == other)
        let timer = TimerTopics(node: "kitchen", label: "ringing")
        let timerTopics = Set(HomeAssistantDiscovery.configs(for: timer).map(\.topic))
        #expect(timerTopics.isDisjoint(with: one.map(\.topic)))
        let ha = HomeAssistantDiscovery.nodeConfigs(for: NodeTopics(node: "garden room"), discoveryPrefix: "ha")
        #expect(
            ha.map(\.topic) == [
                "ha/binary_sensor/garden_20room/ringing/config", "ha/button/garden_20room/ack-all/config",
            ])
    }
}
