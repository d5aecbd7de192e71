import TextCoding
import TimerModel

/// Home Assistant MQTT discovery messages for one timer (a deadline and a state sensor; a
/// button per ``TimerButton``) and for its node (``nodeConfigs(for:discoveryPrefix:)``).
///
/// Pure; any thread. See https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery.
public enum HomeAssistantDiscovery {
    /// The state words a timer publishes on its state topic (``TimerState`` without `menu`): the
    /// `options` of the state sensor.
    public static let publishedStates: [String] = TimerState.allCases.filter { $0 != .menu }.map(\.rawValue)

    /// The retained config messages for one timer (QoS 1).
    ///
    /// On `<discoveryPrefix>/<component>/<objectID>/<entity>/config`, the object id being
    /// ``objectID(for:)`` (Home Assistant's charset `[a-zA-Z0-9_-]`, injective):
    /// - `sensor`/`deadline`: `device_class: timestamp`, `value_template` ``valueTemplate(_:)`` of
    ///   `deadline` (Home Assistant counts it down: nothing is published every second);
    /// - `sensor`/`state`: `device_class: enum`, `options` ``publishedStates``,
    ///   `value_template` ``valueTemplate(_:)`` of `state`;
    /// - both sensors: `json_attributes_topic` the state topic, `json_attributes_template`
    ///   ``attributesTemplate(withState:)`` (`remaining`, `duration`, `finishes_at`; the deadline
    ///   sensor's also `timer_state`);
    /// - a button per ``TimerButton/all`` (`button`/`ack`, `snooze`, `cancel`, `pause`, `resume`,
    ///   `add-minute`, `subtract-minute`): `command_topic` the timer's, `payload_press` its command
    ///   (`ack`, `add 60`, …), available only while the timer takes it (``TimerButton/availability(_:)``).
    ///
    /// Each carries `name` (sentence case, after the label in Home Assistant: `Time left`, `State`,
    /// the buttons'), `icon`, `unique_id` (`eggtimer_<objectID>_<entity>`), the timer's availability
    /// (the sensors' `availability_topic`; the buttons' `availability` list with `availability_mode:
    /// all`) and the timer's own `device` (``timerDevice(_:)``), under the node's.
    /// - Parameters:
    ///   - topics: The timer's topics.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The deadline sensor's config, the state sensor's, then the buttons' (``TimerButton/all``).
    public static func configs(for topics: TimerTopics, discoveryPrefix: String = "homeassistant") -> [BusMessage] {
        let objectID = objectID(for: topics)
        let common = [
            JSONMember("availability_topic", .string(topics.availability)),
            JSONMember("device", timerDevice(topics)),
        ]
        let deadline = [
            JSONMember("name", .string("Time left")),
            JSONMember("icon", .string("mdi:timer-outline")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_deadline")),
            JSONMember("device_class", .string("timestamp")),
            JSONMember("state_topic", .string(topics.state)),
            JSONMember("value_template", .string(valueTemplate("deadline"))),
            JSONMember("json_attributes_topic", .string(topics.state)),
            JSONMember("json_attributes_template", .string(attributesTemplate(withState: true))),
        ]
        let state = [
            JSONMember("name", .string("State")),
            JSONMember("icon", .string("mdi:egg")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_state")),
            JSONMember("device_class", .string("enum")),
            JSONMember("options", .array(publishedStates.map(JSONValue.string))),
            JSONMember("state_topic", .string(topics.state)),
            JSONMember("value_template", .string(valueTemplate("state"))),
            JSONMember("json_attributes_topic", .string(topics.state)),
            JSONMember("json_attributes_template", .string(attributesTemplate(withState: false))),
        ]
        var messages = [
            config(at: topic("sensor", objectID, "deadline", discoveryPrefix), deadline + common),
            config(at: topic("sensor", objectID, "state", discoveryPrefix), state + common),
        ]
        for button in TimerButton.all {
            let members = [
                JSONMember("name", .string(button.name)),
                JSONMember("icon", .string(button.icon)),
                JSONMember("unique_id", .string("eggtimer_\(objectID)_\(button.entity)")),
                JSONMember("command_topic", .string(topics.command)),
                JSONMember("payload_press", .string(button.command.text)),
                JSONMember("availability", button.availability(topics)),
                JSONMember("availability_mode", .string("all")),
                JSONMember("device", timerDevice(topics)),
            ]
            messages.append(config(at: topic("button", objectID, button.entity, discoveryPrefix), members))
        }
        return messages
    }

    /// The `value_template` of a sensor showing the state payload's `key`:
    /// `{{ value_json.KEY if value_json is defined else None }}`.
    ///
    /// An empty payload (the retained state cleared: a timer back in its menu, or ending while
    /// its sensors still listen) is no JSON, so Home Assistant defines no `value_json`; a plain
    /// `{{ value_json.KEY }}` then logs `ERROR … Template variable error: 'value_json' is
    /// undefined` (issue 45). The test `is defined` logs nothing and `None` renders `None`, which
    /// an MQTT sensor takes as no value: `unknown`, without a warning (an empty string would be
    /// an invalid option of the enum sensor and an invalid timestamp, each a warning). `KEY` is
    /// one of the payload's keys, a plain word.
    /// - Parameter key: A ``TimerStatePayload`` key (`state`, `deadline`).
    /// - Returns: The template.
    static func valueTemplate(_ key: String) -> String {
        "{{ value_json.\(key) if value_json is defined else None }}"
    }

    /// The `json_attributes_template` of a timer's sensors: what Home Assistant's own `timer`
    /// entity carries, from the state payload (``TimerStatePayload``) on the state topic.
    ///
    /// `remaining` and `duration` in seconds (`remaining_s`, `duration_s`: the time left when the
    /// state was published, as Home Assistant's timer keeps it from its last change), and
    /// `finishes_at` (the deadline, UTC ISO 8601) only while there is one: absent while paused
    /// and once ended (while ringing it says when it rang). With `withState`, `timer_state` too (`paused`): the deadline sensor is
    /// `unknown` while there is no deadline, and this says why. The state is published at each
    /// change (start, pause, resume, ±1 min, snooze) and refreshed every minute, never every
    /// second, so the attributes change no more often.
    ///
    /// An empty payload (the state cleared) renders `{}`: no attributes, and nothing in Home
    /// Assistant's log (an undefined `value_json` would be an error, a non-JSON result a warning).
    /// - Parameter withState: Whether the attributes include `timer_state`.
    /// - Returns: The template.
    static func attributesTemplate(withState: Bool) -> String {
        let state = withState ? #", "timer_state": value_json.state"# : ""
        return "{% if value_json is defined %}"
            + #"{% set attributes = {"remaining": value_json.remaining_s, "duration": value_json.duration_s"#
            + state + "} %}"
            + "{% if value_json.deadline %}{% set attributes = dict(attributes, finishes_at=value_json.deadline) %}"
            + "{% endif %}{{ attributes | tojson }}{% else %}{}{% endif %}"
    }

    /// The same topics as ``configs(for:discoveryPrefix:)`` with empty retained payloads, which
    /// remove the entities from Home Assistant and the broker.
    /// - Parameters:
    ///   - topics: The timer's topics.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: One removal per config, in the same order.
    public static func removals(for topics: TimerTopics, discoveryPrefix: String = "homeassistant") -> [BusMessage] {
        configs(for: topics, discoveryPrefix: discoveryPrefix).map {
            BusMessage(topic: $0.topic, payload: [], retain: true, qos: 1)
        }
    }

    /// `<discoveryPrefix>/<component>/<objectID>/<entity>/config`.
    static func topic(_ component: String, _ objectID: String, _ entity: String, _ discoveryPrefix: String) -> String {
        "\(discoveryPrefix)/\(component)/\(objectID)/\(entity)/config"
    }

    /// A retained config (QoS 1) of `members` on `topic`.
    static func config(at topic: String, _ members: [JSONMember]) -> BusMessage {
        BusMessage(topic: topic, payload: JSONValue.object(members).json(), retain: true, qos: 1)
    }

    /// Who made the devices, as Home Assistant shows it.
    static let manufacturer = "eggtimer project"

    /// The node's device: `identifiers: ["eggtimer_<node>"]`, `name: "eggtimer <node>"`,
    /// `manufacturer` ``manufacturer``, `model` `Kitchen timer`, `sw_version` ``Release/version``,
    /// and `configuration_url` when given (the kitchen's page).
    /// - Parameters:
    ///   - node: The node's name.
    ///   - configurationURL: The kitchen's page, or nil (no `configuration_url`: Home Assistant
    ///     keeps what another config of the device said).
    /// - Returns: The `device` member's value.
    static func device(node: String, configurationURL: String? = nil) -> JSONValue {
        var members = [
            JSONMember("identifiers", .array([.string("eggtimer_\(node)")])),
            JSONMember("name", .string("eggtimer \(node)")),
            JSONMember("manufacturer", .string(manufacturer)),
            JSONMember("model", .string("Kitchen timer")),
            JSONMember("sw_version", .string(Release.version)),
        ]
        if let configurationURL { members.append(JSONMember("configuration_url", .string(configurationURL))) }
        return .object(members)
    }

    /// A timer's own device, which comes and goes with it, under its node's.
    ///
    /// Under ``device(node:configurationURL:)``: `identifiers: ["eggtimer_<objectID>"]`, `name` the label, `model` `Timer`, `via_device`
    /// `eggtimer_<node>`. Its entities' names (`Time left`, `Pause`) then read after the label in
    /// Home Assistant (`tea Time left`), and two timers' never meet.
    /// - Parameter topics: The timer's topics.
    /// - Returns: The `device` member's value.
    static func timerDevice(_ topics: TimerTopics) -> JSONValue {
        .object([
            JSONMember("identifiers", .array([.string("eggtimer_\(objectID(for: topics))")])),
            JSONMember("name", .string(topics.label)),
            JSONMember("manufacturer", .string(manufacturer)),
            JSONMember("model", .string("Timer")),
            JSONMember("sw_version", .string(Release.version)),
            JSONMember("via_device", .string("eggtimer_\(topics.node)")),
        ])
    }

    /// The object id of a timer: `<node>__<label>`, each escaped by ``escaped(_:)``.
    ///
    /// Injective: an escaped name never holds `__` nor ends in `_`, so the first `__` splits it.
    /// - Parameter topics: The timer's topics.
    /// - Returns: An id of `[a-zA-Z0-9_-]` only.
    public static func objectID(for topics: TimerTopics) -> String {
        "\(escaped(topics.node))__\(escaped(topics.label))"
    }

    /// `text` in `[a-zA-Z0-9_-]`, injectively.
    ///
    /// ASCII letters, digits and `-` stay; every other UTF-8 byte, `_` too, becomes `_` and two
    /// lower-case hex digits (`1:30` → `1_3a30`, `a_b` → `a_5fb`).
    static func escaped(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            let plain = scalar.properties.isASCIIHexDigit || Character(scalar).isLetter || byte == UInt8(ascii: "-")
            if byte < 0x80, plain {
                result.unicodeScalars.append(scalar)
            } else {
                result += "_" + Hex.text([byte])
            }
        }
        return result
    }

    /// `text` with every character outside `[a-zA-Z0-9_-]` replaced by `_` (for client ids, where
    /// only readability matters; not injective).
    static func sanitised(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
    }
}
