import TextCoding

// The kitchen's entities (issue 26): Home Assistant puts an egg on with one press, or starts any
// length with a label from a text field. Both send to the node's start topic, as JSON with a
// fresh request id per press (issue 42), so that a redelivery starts nothing more.

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

    /// The Home Assistant template of a fresh request id per press: `ha-`, the press's Unix time
    /// in microseconds (`1718023456.789012`) and a random number below 100000, all of
    /// `RequestID`'s characters.
    ///
    /// Home Assistant renders templates in Jinja's sandbox, which refuses a `range` of more than
    /// 100000 numbers (its `MAX_RANGE`): `range(100000, 999999)` would make every press fail.
    public static let requestIDTemplate = "ha-{{ now().timestamp() }}-{{ range(100000) | random }}"

    /// The expression of the text typed in the text entity, as a JSON string.
    static let typedText = "{{ value | tojson }}"

    /// The `command_template` of a kitchen entity: a JSON start whose `start` is `words`, or the
    /// text typed (``typedText``) for nil, and whose `id` is ``requestIDTemplate``.
    /// - Parameter words: The start's words (a preset's payload), or nil for the text typed.
    /// - Returns: The template (`{"start":"soft","id":"ha-{{ now().timestamp() }}-…"}`).
    static func startTemplate(_ words: String?) -> String {
        var json = JSONText()
        json.object { json in
            json.member("start", words ?? typedText)
            json.member("id", requestIDTemplate)
        }
        // The text typed is a template expression, not a string: its quotes go.
        let bytes = json.bytes
        let quoted = Array(JSONText.quoted(typedText).utf8)
        guard words == nil, let at = bytes.indices.first(where: { bytes[$0...].starts(with: quoted) }) else {
            return json.text
        }
        return String(decoding: bytes[..<at] + Array(typedText.utf8) + bytes[(at + quoted.count)...], as: UTF8.self)
    }

    /// The retained config messages of a node's kitchen entities (QoS 1), published by
    /// `eggtimer kitchen` and never removed: the kitchen is a service that comes back, so its
    /// entities stay and show unavailable while it is away (its availability `offline`).
    ///
    /// On `<discoveryPrefix>/<component>/<objectID>/<entity>/config`, the object id being the node
    /// escaped by ``escaped(_:)``, as the node's own entities' (``nodeConfigs(for:discoveryPrefix:)``):
    /// - `button`/`start-<preset>` for each preset, in order: `name` `<Preset> egg` (`Soft egg`),
    ///   `command_topic` ``NodeTopics/start``, `payload_press` the preset's name in lower case
    ///   (`soft`, what a Home Assistant without `command_template` sends), `command_template`
    ///   `{"start":"soft","id":"ha-…"}` (``startTemplate(_:)``; the name is written as a JSON
    ///   literal, not taken from the template's `value`, which the button's documentation does not
    ///   promise; preset names are plain words, so no Jinja markup can hide in them);
    /// - `text`/`start`: `name` `Start`, `command_topic` ``NodeTopics/start``, `command_template`
    ///   `{"start":{{ value | tojson }},"id":"ha-…"}` (the text typed, as a JSON string), `min` 1,
    ///   `max` `text.limit`, `mode` `text`, `pattern` `text.pattern` (Home Assistant publishes it
    ///   not retained; with no `state_topic` it shows the last text sent).
    ///
    /// Every press gets a new id (``requestIDTemplate``): a redelivery of it starts nothing more,
    /// and its answer on ``NodeTopics/kitchenResult`` names it.
    ///
    /// Each carries `name`, `icon` (`mdi:egg`, `mdi:timer-edit-outline`), `unique_id`
    /// (`eggtimer_<objectID>_<entity>`), `availability_topic` ``NodeTopics/kitchenAvailability``
    /// and the node's `device`, the one its timers' devices are under.
    /// See https://www.home-assistant.io/integrations/button.mqtt/,
    /// https://www.home-assistant.io/integrations/text.mqtt/ and
    /// https://www.home-assistant.io/docs/configuration/templating/#using-command-templates-with-mqtt.
    /// - Parameters:
    ///   - topics: The node's topics.
    ///   - presets: The presets' display names (`Soft`, `Medium`, `Hard`): one button each.
    ///   - text: What the text entity accepts.
    ///   - configurationURL: The kitchen's page for the device's `configuration_url`, or nil.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The buttons' configs in the order of `presets`, then the text entity's.
    public static func kitchenConfigs(
        for topics: NodeTopics, presets: [String], text: StartText, configurationURL: String? = nil,
        discoveryPrefix: String = "homeassistant"
    ) -> [BusMessage] {
        let objectID = escaped(topics.node)
        let common = [
            JSONMember("availability_topic", .string(topics.kitchenAvailability)),
            JSONMember("device", device(node: topics.node, configurationURL: configurationURL)),
        ]
        var messages: [BusMessage] = []
        for preset in presets {
            let payload = preset.lowercased()
            let entity = "start-\(escaped(payload))"
            let button = [
                JSONMember("name", .string("\(preset) egg")),
                JSONMember("icon", .string("mdi:egg")),
                JSONMember("unique_id", .string("eggtimer_\(objectID)_\(entity)")),
                JSONMember("command_topic", .string(topics.start)),
                JSONMember("payload_press", .string(payload)),
                JSONMember("command_template", .string(startTemplate(payload))),
            ]
            messages.append(config(at: topic("button", objectID, entity, discoveryPrefix), button + common))
        }
        let field = [
            JSONMember("name", .string("Start")),
            JSONMember("icon", .string("mdi:timer-edit-outline")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_start")),
            JSONMember("command_topic", .string(topics.start)),
            JSONMember("command_template", .string(startTemplate(nil))),
            JSONMember("min", .number(1)),
            JSONMember("max", .number(Double(text.limit))),
            JSONMember("mode", .string("text")),
            JSONMember("pattern", .string(text.pattern)),
        ]
        messages.append(config(at: topic("text", objectID, "start", discoveryPrefix), field + common))
        return messages
    }
}

// The kitchen's stable entities (issue 45): they read the kitchen's summary of the node's timers,
// so a dashboard or an automation can rely on them while timers come and go.

extension HomeAssistantDiscovery {
    /// The retained config messages of the kitchen's summary entities (QoS 1), published by
    /// `eggtimer kitchen` and never removed, beside ``kitchenConfigs(for:presets:text:discoveryPrefix:)``.
    ///
    /// Each reads ``NodeTopics/kitchenSummary`` (``NodeSummary``), on the object id of the node:
    /// - `sensor`/`timers-running`: `Timers running`, `value_json.running`, `state_class:
    ///   measurement`;
    /// - `sensor`/`next-due`: `Next due`, `device_class: timestamp`, `value_json.next_due` (null
    ///   renders `None`, which an MQTT sensor shows as unknown without a word), the timer's label
    ///   as the attribute `label`;
    /// - `binary_sensor`/`silent`: `Silent`, `device_class: problem`, `ON` while an alarm reaches
    ///   no device, the attributes `label` and `reason` (the timer's `silent` text).
    ///
    /// Each carries `name`, `icon`, `unique_id` (`eggtimer_<objectID>_<entity>`),
    /// `availability_topic` ``NodeTopics/kitchenAvailability`` (the kitchen's Last Will makes them
    /// unavailable) and the node's `device`.
    /// - Parameters:
    ///   - topics: The node's topics.
    ///   - configurationURL: The kitchen's page for the device's `configuration_url`, or nil.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The configs, in that order.
    public static func kitchenSummaryConfigs(
        for topics: NodeTopics, configurationURL: String? = nil, discoveryPrefix: String = "homeassistant"
    ) -> [BusMessage] {
        let objectID = escaped(topics.node)
        let common = [
            JSONMember("state_topic", .string(topics.kitchenSummary)),
            JSONMember("availability_topic", .string(topics.kitchenAvailability)),
            JSONMember("device", device(node: topics.node, configurationURL: configurationURL)),
        ]
        func named(_ name: String, _ entity: String, icon: String) -> [JSONMember] {
            [
                JSONMember("name", .string(name)),
                JSONMember("icon", .string(icon)),
                JSONMember("unique_id", .string("eggtimer_\(objectID)_\(entity)")),
            ]
        }
        let running =
            named("Timers running", "timers-running", icon: "mdi:timer-sand") + [
                JSONMember("value_template", .string("{{ value_json.running }}")),
                JSONMember("state_class", .string("measurement")),
            ]
        let nextDue =
            named("Next due", "next-due", icon: "mdi:timer-alert-outline") + [
                JSONMember("device_class", .string("timestamp")),
                JSONMember("value_template", .string("{{ value_json.next_due }}")),
                JSONMember("json_attributes_topic", .string(topics.kitchenSummary)),
                JSONMember("json_attributes_template", .string(#"{{ {"label": value_json.next_label} | tojson }}"#)),
            ]
        let silent =
            named("Silent", "silent", icon: "mdi:volume-off") + [
                JSONMember("device_class", .string("problem")),
                JSONMember("value_template", .string("{{ 'ON' if value_json.silent else 'OFF' }}")),
                JSONMember("json_attributes_topic", .string(topics.kitchenSummary)),
                JSONMember(
                    "json_attributes_template",
                    .string(#"{{ {"label": value_json.silent_label, "reason": value_json.silent_reason} | tojson }}"#)),
            ]
        return [
            config(at: topic("sensor", objectID, "timers-running", discoveryPrefix), running + common),
            config(at: topic("sensor", objectID, "next-due", discoveryPrefix), nextDue + common),
            config(at: topic("binary_sensor", objectID, "silent", discoveryPrefix), silent + common),
        ]
    }
}

extension HomeAssistantDiscovery {
    /// The retained config of the kitchen's `event` entity (QoS 1).
    ///
    /// Published by `eggtimer kitchen` and never removed: `event`/`events` on the node's object id, `name` `Timer
    /// event`, `state_topic` ``NodeTopics/kitchenEvent`` (JSON with `event_type`; its other keys,
    /// `label`, `reason`, `request_id`, become the event's attributes), `event_types` `types`,
    /// `icon`, `unique_id` `eggtimer_<objectID>_events`, `availability_topic`
    /// ``NodeTopics/kitchenAvailability`` and the node's `device`.
    /// See https://www.home-assistant.io/integrations/event.mqtt/.
    /// - Parameters:
    ///   - topics: The node's topics.
    ///   - types: The event types the kitchen fires.
    ///   - configurationURL: The kitchen's page for the device's `configuration_url`, or nil.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The config.
    public static func kitchenEventConfig(
        for topics: NodeTopics, types: [String], configurationURL: String? = nil,
        discoveryPrefix: String = "homeassistant"
    ) -> BusMessage {
        let objectID = escaped(topics.node)
        return config(
            at: topic("event", objectID, "events", discoveryPrefix),
            [
                JSONMember("name", .string("Timer event")),
                JSONMember("icon", .string("mdi:egg-outline")),
                JSONMember("unique_id", .string("eggtimer_\(objectID)_events")),
                JSONMember("state_topic", .string(topics.kitchenEvent)),
                JSONMember("event_types", .array(types.map(JSONValue.string))),
                JSONMember("availability_topic", .string(topics.kitchenAvailability)),
                JSONMember("device", device(node: topics.node, configurationURL: configurationURL)),
            ])
    }
}
