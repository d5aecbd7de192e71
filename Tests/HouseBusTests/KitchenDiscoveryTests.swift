import HouseBus
import Testing
import TimerModel

/// The kitchen's Home Assistant entities (issue 26): a button per egg preset and a text entity,
/// all sending to the node's start topic, with the kitchen's availability.
@Suite struct KitchenDiscoveryTests {
    let node = NodeTopics(node: "kitchen")
    let text = HomeAssistantDiscovery.StartText(limit: 160, pattern: #"^[a-z]+( \w+)?$"#)

    func configs(_ node: NodeTopics, prefix: String = "homeassistant") -> [BusMessage] {
        HomeAssistantDiscovery.kitchenConfigs(
            for: node, presets: ["Soft", "Medium", "Hard"], text: text, discoveryPrefix: prefix)
    }

    /// The device and availability every kitchen entity of the node `kitchen` ends with.
    static let tail =
        #","availability_topic":"eggtimer/kitchen/kitchen/availability","#
        + #""device":{"identifiers":["eggtimer_kitchen"],"name":"eggtimer kitchen","manufacturer":"eggtimer project","#
        + #""model":"Kitchen timer","sw_version":"\#(Release.version)"}}"#

    /// The `command_template` member of an entity whose start is `words` (issue 42): JSON with a
    /// fresh id per press, `range(100000)` as Home Assistant's sandbox allows no longer range.
    static func template(_ words: String) -> String {
        #""command_template":"{\"start\":\#(words),\"id\":"#
            + #"\"ha-{{ now().timestamp() }}-{{ range(100000) | random }}\"}""#
    }

    @Test func threeEggButtonsAndATextEntityWithTheseExactConfigs() {
        let messages = configs(node)
        #expect(
            messages.map(\.topic) == [
                "homeassistant/button/kitchen/start-soft/config",
                "homeassistant/button/kitchen/start-medium/config",
                "homeassistant/button/kitchen/start-hard/config",
                "homeassistant/text/kitchen/start/config",
            ])
        #expect(messages.allSatisfy { $0.retain && $0.qos == 1 && $0.expiry == nil })
        let expected = [
            #"{"name":"Soft egg","icon":"mdi:egg","unique_id":"eggtimer_kitchen_start-soft","#
                + #""command_topic":"eggtimer/kitchen/start","payload_press":"soft","# + Self.template(#"\"soft\""#)
                + Self.tail,
            #"{"name":"Medium egg","icon":"mdi:egg","unique_id":"eggtimer_kitchen_start-medium","#
                + #""command_topic":"eggtimer/kitchen/start","payload_press":"medium","# + Self.template(#"\"medium\""#)
                + Self.tail,
            #"{"name":"Hard egg","icon":"mdi:egg","unique_id":"eggtimer_kitchen_start-hard","#
                + #""command_topic":"eggtimer/kitchen/start","payload_press":"hard","# + Self.template(#"\"hard\""#)
                + Self.tail,
            #"{"name":"Start","icon":"mdi:timer-edit-outline","unique_id":"eggtimer_kitchen_start","command_topic":"eggtimer/kitchen/start","#
                + Self.template("{{ value | tojson }}") + ","
                + #""min":1,"max":160,"mode":"text","pattern":"^[a-z]+( \\w+)?$""# + Self.tail,
        ]
        for (message, json) in zip(messages, expected) {
            #expect(String(decoding: message.payload, as: UTF8.self) == json)
        }
    }

    @Test func theKitchensEntitiesMeetNoTimersAndNoNodeEntity() {
        let kitchen = Set(configs(node).map(\.topic))
        let nodeTopics = Set(HomeAssistantDiscovery.nodeConfigs(for: node).map(\.topic))
        #expect(kitchen.isDisjoint(with: nodeTopics))
        for label in ["start", "start-soft", "kitchen", "soft"] {
            let timer = Set(
                HomeAssistantDiscovery.configs(for: TimerTopics(node: "kitchen", label: label)).map(\.topic))
            #expect(kitchen.isDisjoint(with: timer), "\(label)")
        }
    }

    @Test func anOddNodeAndPrefixAreEscapedAsTheNodesEntitiesAre() throws {
        let odd = NodeTopics(prefix: "house/eggs", node: "garden room")
        let messages = configs(odd, prefix: "ha")
        #expect(
            messages.map(\.topic) == [
                "ha/button/garden_20room/start-soft/config", "ha/button/garden_20room/start-medium/config",
                "ha/button/garden_20room/start-hard/config", "ha/text/garden_20room/start/config",
            ])
        let json = try #require(JSONValue.parse(messages[3].payload))
        #expect(json["command_topic"] == .string("house/eggs/garden room/start"))
        #expect(json["availability_topic"] == .string("house/eggs/garden room/kitchen/availability"))
        #expect(json["unique_id"] == .string("eggtimer_garden_20room_start"))
    }
}
