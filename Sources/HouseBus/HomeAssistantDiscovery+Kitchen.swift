// The kitchen's entities (issue 26): Home Assistant puts an egg on with one press, or starts any
// length with a label from a text field. Both send to the node's start topic.

extension HomeAssistantDiscovery {
    /// What the kitchen's text entity accepts: the shape of a start request, so Home Assistant
    /// refuses a wrong one in its own field before anything is sent.
    public struct StartText: Sendable, Equatable {
        /// The longest text, in characters (Home Assistant's `max`, at most 255).
        public var limit: Int
        /// A regular expression the whole text must match (Home Assistant's `pattern`, Python
        /// syntax, matched from the start: it is anchored with `^` and `$`).
        public var pattern: String

        /// Creates the constraints of the text entity.
        /// - Parameters:
        ///   - limit: The longest text in characters, 1 to 255 (Home Assistant refuses more).
        ///   - pattern: An anchored regular expression.
        /// - Precondition: `limit` is in 1...255.
        public init(limit: Int, pattern: String) {
            precondition((1...255).contains(limit), "Home Assistant's text max is 1 to 255")
            (self.limit, self.pattern) = (limit, pattern)
        }
    }

    /// The retained config messages of a node's kitchen entities (QoS 1), published by
    /// `eggtimer kitchen` and never removed: the kitchen is a service that comes back, so its
    /// entities stay and show unavailable while it is away (its availability `offline`).
    ///
    /// On `<discoveryPrefix>/<component>/<objectID>/<entity>/config`, the object id being the node
    /// escaped by ``escaped(_:)``, as the node's own entities' (``nodeConfigs(for:discoveryPrefix:)``):
    /// - `button`/`start-<preset>` for each preset, in order: `name` `<Preset> egg` (`Soft egg`),
    ///   `command_topic` ``NodeTopics/start``, `payload_press` the preset's name in lower case (`soft`);
    /// - `text`/`start`: `name` `start`, `command_topic` ``NodeTopics/start``, `min` 1, `max`
    ///   `text.limit`, `mode` `text`, `pattern` `text.pattern` (Home Assistant publishes the text
    ///   typed, not retained; with no `state_topic` it shows the last text sent).
    ///
    /// Each carries `name`, `unique_id` (`eggtimer_<objectID>_<entity>`), `availability_topic`
    /// ``NodeTopics/kitchenAvailability`` and the node's `device`, the one its timers' entities carry.
    /// See https://www.home-assistant.io/integrations/button.mqtt/ and
    /// https://www.home-assistant.io/integrations/text.mqtt/.
    /// - Parameters:
    ///   - topics: The node's topics.
    ///   - presets: The presets' display names (`Soft`, `Medium`, `Hard`): one button each.
    ///   - text: What the text entity accepts.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The buttons' configs in the order of `presets`, then the text entity's.
    public static func kitchenConfigs(
        for topics: NodeTopics, presets: [String], text: StartText, discoveryPrefix: String = "homeassistant"
    ) -> [BusMessage] {
        let objectID = escaped(topics.node)
        let common = [
            JSONMember("availability_topic", .string(topics.kitchenAvailability)),
            JSONMember("device", device(node: topics.node)),
        ]
        var messages: [BusMessage] = []
        for preset in presets {
            let payload = preset.lowercased()
            let entity = "start-\(escaped(payload))"
            let button = [
                JSONMember("name", .string("\(preset) egg")),
                JSONMember("unique_id", .string("eggtimer_\(objectID)_\(entity)")),
                JSONMember("command_topic", .string(topics.start)),
                JSONMember("payload_press", .string(payload)),
            ]
            messages.append(config(at: topic("button", objectID, entity, discoveryPrefix), button + common))
        }
        let field = [
            JSONMember("name", .string("start")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_start")),
            JSONMember("command_topic", .string(topics.start)),
            JSONMember("min", .number(1)),
            JSONMember("max", .number(Double(text.limit))),
            JSONMember("mode", .string("text")),
            JSONMember("pattern", .string(text.pattern)),
        ]
        messages.append(config(at: topic("text", objectID, "start", discoveryPrefix), field + common))
        return messages
    }
}
