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
    /// How long the broker may keep it (the MQTT 5 message expiry interval); nil: for ever.
    ///
    /// Whole seconds from 1 s to 4294967295 s (rounded down; less than 1 s counts as 1 s): a
    /// retained message nobody publishes again within it is dropped. Sent only where the broker speaks
    /// MQTT 5; a 3.1.1 broker keeps it for ever.
    public var expiry: Duration?
    /// Whether the client sends a retained message again after every reconnect (``BusClient``
    /// keeps the last one per topic); false for a value the publisher works out again once the
    /// broker's retained copy is known (the node's ringing state: a stale copy replayed by a
    /// process that no longer keeps it would undo the current one).
    public var replay = true

    /// Creates a message.
    /// - Parameters:
    ///   - topic: The topic, no wildcards.
    ///   - payload: The payload bytes.
    ///   - retain: Whether the broker retains it.
    ///   - qos: The quality of service, 0–2.
    ///   - expiry: The message expiry (MQTT 5 only), or nil for none.
    public init(topic: String, payload: [UInt8], retain: Bool = false, qos: Int32 = 1, expiry: Duration? = nil) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.qos = qos
        self.expiry = expiry
    }

    /// ``expiry`` in whole seconds as MQTT carries it (1 s to 4294967295 s); nil for none.
    var expirySeconds: UInt32? {
        guard let expiry else { return nil }
        let seconds = expiry.components.seconds
        return UInt32(clamping: max(1, seconds))
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
