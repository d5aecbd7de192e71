/// What happened on the broker connection during one ``BusClient/service(revents:at:)`` call.
public enum BusEvent: Sendable, Equatable {
    /// The broker accepted the connection (CONNACK 0); the retained table and the subscriptions
    /// were queued again.
    case connected
    /// The connection failed or ended: one line for the user (credentials refused, unreachable,
    /// DNS, timeout, dropped), lower-case, without a final `.` and without the word MQTT, for the
    /// caller to put after `MQTT: ` (`broker mqtt://pi:1883 closed the connection`). A new attempt
    /// follows after the backoff.
    case connectionLost(String)
    /// A line for the log, in the same form as ``connectionLost(_:)``'s: the broker refused
    /// MQTT 5 and the client speaks MQTT 3.1.1 with it from now on (said once per client).
    case notice(String)
    /// A message arrived on a subscribed topic; `retained` says the broker sent it from its
    /// retained store (on subscribing), not as it was published: a state, not an event.
    case message(topic: String, payload: [UInt8], retained: Bool = false)
    /// The broker acknowledged a QoS 1 or 2 message (PUBACK or PUBCOMP), or a QoS 0 message was
    /// written to the socket; the id is what ``BusClient/publish(_:)`` returned (re-sent retained
    /// messages report ids of their own).
    case published(messageID: Int32)
}
