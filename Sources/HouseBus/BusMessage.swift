/// One MQTT message to publish (or a Last Will).
public struct BusMessage: Sendable, Equatable {
    /// The topic; no wildcards.
    public var topic: String
    /// The payload bytes (empty with `retain` clears the topic's retained message).
    public var payload: [UInt8]
    /// Whether the broker keeps it as the topic's retained message.
    public var retain: Bool
    /// The quality of service, 0–2.
    public var qos: Int32

    /// Creates a message.
    /// - Parameters:
    ///   - topic: The topic, no wildcards.
    ///   - payload: The payload bytes.
    ///   - retain: Whether the broker retains it.
    ///   - qos: The quality of service, 0–2.
    public init(topic: String, payload: [UInt8], retain: Bool = false, qos: Int32 = 1) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.qos = qos
    }

    /// Creates a message with a text payload (UTF-8).
    /// - Parameters:
    ///   - topic: The topic, no wildcards.
    ///   - text: The payload text.
    ///   - retain: Whether the broker retains it.
    ///   - qos: The quality of service, 0–2.
    public init(topic: String, text: String, retain: Bool = false, qos: Int32 = 1) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain, qos: qos)
    }
}
