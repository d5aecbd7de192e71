import TimerModel

// The node's own entities: pinnable on a dashboard although the node's timers come and go.

extension HomeAssistantDiscovery {
    /// The retained config messages of a node's own entities (QoS 1), the same bytes from every
    /// timer of the node (each publishes them; none removes them: they are the node's).
    ///
    /// On `<discoveryPrefix>/<component>/<objectID>/<entity>/config`, the object id being the node
    /// escaped by ``escaped(_:)`` (it never holds `__`, so it is no timer's ``objectID(for:)``):
    /// - `binary_sensor`/`ringing`: `state_topic` ``NodeTopics/ringing``, `payload_on` `ON`,
    ///   `payload_off` `OFF`, `device_class: sound`;
    /// - `button`/`ack-all`: `command_topic` ``NodeTopics/ackAll``, `payload_press` `ack`.
    ///
    /// Each carries `name` (`Ringing`, `Acknowledge all`), `icon`, `unique_id`
    /// (`eggtimer_<objectID>_<entity>`), the node's `device`, the one its timers' devices are
    /// under, and an `availability` list with `availability_mode: any`: ``NodeTopics/availability``
    /// (its timers') and ``NodeTopics/kitchenAvailability`` (the kitchen's, which publishes these
    /// configs too): available while a timer of the node or its kitchen runs, so not unavailable
    /// between timers where a kitchen runs (issue 45).
    /// - Parameters:
    ///   - topics: The node's topics.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The binary sensor's config, then the button's.
    public static func nodeConfigs(for topics: NodeTopics, discoveryPrefix: String = "homeassistant") -> [BusMessage] {
        let objectID = escaped(topics.node)
        let common = [
            JSONMember(
                "availability",
                .array([
                    .object([JSONMember("topic", .string(topics.availability))]),
                    .object([JSONMember("topic", .string(topics.kitchenAvailability))]),
                ])),
            JSONMember("availability_mode", .string("any")),
            JSONMember("device", device(node: topics.node)),
        ]
        let ringing = [
            JSONMember("name", .string("Ringing")),
            JSONMember("icon", .string("mdi:alarm")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_ringing")),
            JSONMember("device_class", .string("sound")),
            JSONMember("state_topic", .string(topics.ringing)),
            JSONMember("payload_on", .string("ON")),
            JSONMember("payload_off", .string("OFF")),
        ]
        let ackAll = [
            JSONMember("name", .string("Acknowledge all")),
            JSONMember("icon", .string("mdi:alarm-check")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_ack-all")),
            JSONMember("command_topic", .string(topics.ackAll)),
            JSONMember("payload_press", .string(Command.acknowledge.verb)),
        ]
        return [
            config(at: topic("binary_sensor", objectID, "ringing", discoveryPrefix), ringing + common),
            config(at: topic("button", objectID, "ack-all", discoveryPrefix), ackAll + common),
        ]
    }
}
