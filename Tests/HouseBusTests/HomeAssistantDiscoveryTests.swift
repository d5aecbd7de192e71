import HouseBus
import Testing

@Suite struct HomeAssistantDiscoveryTests {
    let topics = TimerTopics(node: "kitchen", label: "eggs")

    @Test func sensorConfigCarriesTheDocumentedKeys() throws {
        let configs = HomeAssistantDiscovery.configs(for: topics)
        #expect(configs.count == 2)
        let sensor = try #require(configs.first)
        #expect(sensor.topic == "homeassistant/sensor/kitchen__eggs/deadline/config")
        #expect(sensor.retain && sensor.qos == 1)
        let json = try #require(JSONValue.parse(sensor.payload))
        #expect(json["device_class"] == .string("timestamp"))
        #expect(json["state_topic"] == .string("eggtimer/kitchen/eggs/state"))
        #expect(json["value_template"] == .string("{{ value_json.deadline }}"))
        #expect(json["availability_topic"] == .string("eggtimer/kitchen/eggs/availability"))
        #expect(json["unique_id"] == .string("eggtimer_kitchen__eggs_deadline"))
        #expect(json["name"]?.stringValue != nil)
        #expect(json["device"]?["identifiers"] == .array([.string("eggtimer_kitchen")]))
        #expect(json["device"]?["name"] == .string("eggtimer kitchen"))
    }

    @Test func buttonConfigAcknowledges() throws {
        let button = try #require(HomeAssistantDiscovery.configs(for: topics).last)
        #expect(button.topic == "homeassistant/button/kitchen__eggs/ack/config")
        let json = try #require(JSONValue.parse(button.payload))
        #expect(json["command_topic"] == .string("eggtimer/kitchen/eggs/command"))
        #expect(json["payload_press"] == .string("ack"))
        #expect(json["availability_topic"] == .string("eggtimer/kitchen/eggs/availability"))
        #expect(json["unique_id"] == .string("eggtimer_kitchen__eggs_ack"))
        #expect(json["device"]?["identifiers"] == .array([.string("eggtimer_kitchen")]))
        #expect(json["name"]?.stringValue != nil)
    }

    @Test func objectIDsAreSanitisedAndThePrefixIsUsed() {
        let odd = TimerTopics(node: "garden room", label: "t\u{E9}a.2")
        let configs = HomeAssistantDiscovery.configs(for: odd, discoveryPrefix: "ha")
        #expect(
            configs.map(\.topic) == [
                "ha/sensor/garden_20room__t_c3_a9a_2e2/deadline/config",
                "ha/button/garden_20room__t_c3_a9a_2e2/ack/config",
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

    @Test func removalsClearTheSameTopics() {
        let removals = HomeAssistantDiscovery.removals(for: topics)
        #expect(removals.map(\.topic) == HomeAssistantDiscovery.configs(for: topics).map(\.topic))
        #expect(removals.allSatisfy { $0.payload.isEmpty && $0.retain })
    }
}
