package import HouseBus
package import TimerEngine

/// The decisions of a one-shot survey of the house (the executable's `HouseSurvey`): which
/// retained states and availabilities it keeps, when every retained state has arrived (its probe
/// came back), which commands the broker acknowledged, and when the survey fails; no I/O.
///
/// Broker events go in and ``Effect``s come out for the runner to carry out. A plain value;
/// owned by one thread.
package struct SurveyTally {
    /// What the tally asks its runner to do.
    package enum Effect: Equatable {
        /// Publish a message (the probe, once connected).
        case publish(BusMessage)
        /// End the survey: the broker failed; the line to say after `eggtimer: `.
        case fail(String)
    }

    /// The house's topic prefix.
    package let prefix: String
    /// The topic the survey publishes to itself once subscribed: when it comes back, every
    /// retained state has arrived before it.
    package let probe: String
    /// The states collected, by `node/label` (the topic's node and label, whatever the payload spells).
    package private(set) var timers: [String: TimerStatePayload] = [:]
    /// The timers whose availability is `offline` (killed: their Last Will), by `node/label`.
    package private(set) var offline: Set<String> = []
    /// Whether the probe came back.
    package private(set) var probed = false
    /// The message ids published and not yet acknowledged by the broker.
    package private(set) var awaited: Set<Int32> = []

    /// A tally that has seen nothing.
    /// - Parameters:
    ///   - prefix: The house's topic prefix.
    ///   - probe: The survey's own probe topic.
    package init(prefix: String, probe: String) {
        self.prefix = prefix
        self.probe = probe
    }

    /// The message the survey publishes to itself once connected.
    package var probeMessage: BusMessage {
        BusMessage(topic: probe, payload: Array("probe".utf8), retain: false, qos: 1)
    }

    /// Notes a published message, until the broker acknowledges it.
    /// - Parameter id: The id ``BusClient/publish(_:)`` returned.
    package mutating func awaiting(_ id: Int32) { awaited.insert(id) }

    /// Takes in one report of the broker.
    /// - Parameter event: What the client reported.
    /// - Returns: What to do, in order.
    package mutating func handle(_ event: BusEvent) -> [Effect] {
        switch event {
        case .connected:
            return [.publish(probeMessage)]
        case .connectionLost(let reason):
            return [.fail("MQTT: \(reason)")]
        case .message(let topic, _, _) where topic == probe:
            probed = true
        case .message(let topic, let payload, _):
            guard let (topics, kind) = TimerTopics.parse(topic, prefix: prefix) else { break }
            let key = "\(topics.node)/\(topics.label)"
            switch kind {
            case "state":
                // The topic names the timer: the payload's node and label may be spelled otherwise.
                var timer = payload.isEmpty ? nil : TimerStatePayload.parse(payload)
                timer?.node = topics.node
                timer?.label = topics.label
                timers[key] = timer
            case "availability" where payload == Array("offline".utf8): offline.insert(key)
            case "availability": offline.remove(key)
            default: break
            }
        case .published(let id):
            awaited.remove(id)
        case .notice:
            // A one-shot survey publishes nothing that expires: the 3.1.1 fallback is not worth a line.
            break
        }
        return []
    }
}
