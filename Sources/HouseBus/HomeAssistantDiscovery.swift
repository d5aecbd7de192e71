/// Home Assistant MQTT discovery messages for one timer: a deadline sensor and an acknowledge button.
///
/// Pure; any thread. See https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery.
public enum HomeAssistantDiscovery {
    /// The retained config messages for one timer (QoS 1).
    ///
    /// A `sensor` with `device_class: timestamp` reading the deadline from the state topic, on
    /// `<discoveryPrefix>/sensor/<node>_<label>/deadline/config`, and a `button` sending `ack`, on
    /// `<discoveryPrefix>/button/<node>_<label>/ack/config`. The object id is
    /// ``objectID(for:)``: Home Assistant's charset `[a-zA-Z0-9_-]`, injective. Both carry `name`, `unique_id`, `availability_topic` and
    /// a `device` (`identifiers: ["eggtimer_<node>"]`, `name: "eggtimer <node>"`).
    /// - Parameters:
    ///   - topics: The timer's topics.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The sensor's config, then the button's.
    public static func configs(for topics: TimerTopics, discoveryPrefix: String = "homeassistant") -> [BusMessage] {
        let objectID = objectID(for: topics)
        let device = JSONValue.object([
            JSONMember("identifiers", .array([.string("eggtimer_\(topics.node)")])),
            JSONMember("name", .string("eggtimer \(topics.node)")),
        ])
        let sensor = JSONValue.object([
            JSONMember("name", .string("\(topics.label) deadline")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_deadline")),
            JSONMember("device_class", .string("timestamp")),
            JSONMember("state_topic", .string(topics.state)),
            JSONMember("value_template", .string("{{ value_json.deadline }}")),
            JSONMember("availability_topic", .string(topics.availability)),
            JSONMember("device", device),
        ])
        let button = JSONValue.object([
            JSONMember("name", .string("\(topics.label) acknowledge")),
            JSONMember("unique_id", .string("eggtimer_\(objectID)_ack")),
            JSONMember("command_topic", .string(topics.command)),
            JSONMember("payload_press", .string("ack")),
            JSONMember("availability_topic", .string(topics.availability)),
            JSONMember("device", device),
        ])
        let (sensorTopic, buttonTopic) = configTopics(objectID: objectID, discoveryPrefix: discoveryPrefix)
        return [
            BusMessage(topic: sensorTopic, payload: sensor.json(), retain: true, qos: 1),
            BusMessage(topic: buttonTopic, payload: button.json(), retain: true, qos: 1),
        ]
    }

    /// The same topics as ``configs(for:discoveryPrefix:)`` with empty retained payloads, which
    /// remove the entities from Home Assistant and the broker.
    /// - Parameters:
    ///   - topics: The timer's topics.
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    /// - Returns: The sensor's removal, then the button's.
    public static func removals(for topics: TimerTopics, discoveryPrefix: String = "homeassistant") -> [BusMessage] {
        let (sensorTopic, buttonTopic) = configTopics(
            objectID: objectID(for: topics), discoveryPrefix: discoveryPrefix)
        return [
            BusMessage(topic: sensorTopic, payload: [], retain: true, qos: 1),
            BusMessage(topic: buttonTopic, payload: [], retain: true, qos: 1),
        ]
    }

    private static func configTopics(objectID: String, discoveryPrefix: String) -> (String, String) {
        ("\(discoveryPrefix)/sensor/\(objectID)/deadline/config", "\(discoveryPrefix)/button/\(objectID)/ack/config")
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
        let digits = Array("0123456789abcdef")
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            let plain = scalar.properties.isASCIIHexDigit || Character(scalar).isLetter || byte == UInt8(ascii: "-")
            if byte < 0x80, plain {
                result.unicodeScalars.append(scalar)
            } else {
                result += "_" + String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
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
