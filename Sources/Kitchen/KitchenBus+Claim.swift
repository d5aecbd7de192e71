import HouseBus
import HouseLink
import TextCoding

// One kitchen per node (issue 42). Two kitchens with one node name on one broker (two Pis both
// called `raspberrypi`, a copied config file) would each start a timer for every MQTT start. So
// a kitchen takes the node's starts only by a claim every kitchen of the node sees in the same
// order: its instance id, retained on `P/NODE/kitchen/instance`.
//
// - At the start it subscribes and sends a probe to itself: when it comes back, every retained
//   message is in. A live claim there (another id, the availability not `offline`) makes it
//   yield with one line; otherwise it claims: it publishes its id and waits for it to come back.
// - The broker passes one topic's messages to every subscriber in one order, so of kitchens that
//   claim together the first claim wins: one that sees another's claim before its own yields,
//   one that sees its own first holds the starts (and says `online`). Starts that came meanwhile
//   wait, then are taken or left to the other.
// - A kitchen that yielded takes over once the other is gone: the availability says `offline`
//   (its clean end or its Last Will) and nobody answers `online` within `takeOverDelay` (a
//   kitchen that holds the starts answers every `offline` there at once: a yielded kitchen's
//   Last Will is not the holder's end). It then claims as above.
// - A kitchen that held the starts and comes back to the broker after its Last Will let another
//   take over finds that one's claim retained there, and yields to it. Two that hold the starts
//   and see each other's claim twice (neither saw the other's first: a claim cleared by hand)
//   leave them to the smaller id.

extension KitchenBus {
    /// Whether this kitchen takes the node's starts.
    enum Claim: Equatable {
        /// Waiting for its probe: what the broker holds is not all in yet.
        case looking
        /// Its id is published on the instance topic; it waits for it to come back.
        case claiming
        /// It takes the node's starts: it is the kitchen on the broker.
        case held
        /// Another kitchen (its instance id) takes them; this one waits for it to be gone.
        case yielded(to: String)
    }

    /// How long a kitchen that yielded waits after the availability said `offline` before it
    /// claims the starts, for the kitchen that holds them to answer `online` if it still runs.
    static let takeOverDelay = Duration.seconds(2)
    /// The most start payloads kept while it decides whether it takes the starts.
    static let waitingLimit = 16

    /// The probe (not retained): it comes back once every retained message has arrived.
    var probeMessage: BusMessage {
        BusMessage(topic: probe, payload: Array("probe".utf8), retain: false, qos: 1)
    }

    /// Its claim: its instance id, retained on ``NodeTopics/kitchenInstance``.
    var claimMessage: BusMessage {
        BusMessage(topic: topics.kitchenInstance, payload: Array(instance.utf8), retain: true, qos: 1)
    }

    /// The instance id in a payload of ``NodeTopics/kitchenInstance``: 1 to 64 ASCII letters and
    /// digits; nil for a clear or anything else.
    /// - Parameter payload: The payload.
    /// - Returns: The id, or nil.
    static func instance(in payload: [UInt8]) -> String? {
        guard (1...64).contains(payload.count),
            payload.allSatisfy({
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            })
        else { return nil }
        return String(decoding: payload, as: UTF8.self)
    }

    /// When the reducer must be called (``expire(at:)``) though nothing arrived; nil for never.
    var nextCheck: ContinuousClock.Instant? { takeAt }

    /// Claims the starts when a kitchen that yielded has waited ``takeOverDelay`` after the
    /// other's `offline` and nobody answered `online`.
    /// - Parameter now: The boot clock's reading.
    /// - Returns: The claim's effects, or none.
    mutating func expire(at now: ContinuousClock.Instant) -> [KitchenBusEffect] {
        guard case .yielded(let other) = claim, let takeAt, now >= takeAt else { return [] }
        self.takeAt = nil
        return [
            .say("kitchen: the other kitchen (instance \(other)) is gone from the broker: claiming node \(shownNode)")
        ]
            + startClaiming()
    }

    /// The node as the log shows it.
    private var shownNode: String { topics.node.escapingControlCharacters }

    /// Yields to a live claim of another kitchen, else claims, once the probe came back.
    ///
    /// Every retained message is in by then: the claim the broker keeps, and the availability
    /// that says whether its kitchen is gone.
    mutating func decide() -> [KitchenBusEffect] {
        if let other = claimant, other != instance, !seenGone { return yield(to: other) }
        return startClaiming()
    }

    /// Publishes its claim and waits for it to come back (``Claim/claiming``).
    private mutating func startClaiming() -> [KitchenBusEffect] {
        claim = .claiming
        return [.publish(claimMessage)]
    }

    /// Stays off the starts while `other` holds them, with one line; the starts that waited are
    /// the other's.
    ///
    /// A kitchen that claimed, or held, clears what it published to take them (its claim; its
    /// `online`), so that its client does not send them again after a reconnect (it keeps every
    /// retained message and forgets an empty one once sent). The holder, seeing its claim or the
    /// availability cleared, says them again.
    private mutating func yield(to other: String) -> [KitchenBusEffect] {
        let previous = claim
        claim = .yielded(to: other)
        (waiting, takeAt, contested, publishedSummary) = ([], nil, [], nil)
        var effects: [KitchenBusEffect] = [
            .say(
                "kitchen: another kitchen (instance \(other)) serves node \(shownNode) on the broker: "
                    + "not taking MQTT starts until it is gone")
        ]
        if previous == .claiming || previous == .held {
            effects.append(.publish(BusMessage(topic: topics.kitchenInstance, payload: [], retain: true, qos: 1)))
        }
        if previous == .held {
            effects.append(.publish(BusMessage(topic: topics.kitchenAvailability, payload: [], retain: true, qos: 1)))
        }
        return effects
    }

    /// Its claim came back first: it takes the starts, says `online`, and takes the starts that
    /// waited.
    private mutating func hold() -> [KitchenBusEffect] {
        claim = .held
        contested = []
        var effects: [KitchenBusEffect] = [.publish(online)] + summaryUpdate()
        let waited = waiting
        waiting = []
        for payload in waited { effects += startMessage(payload, retained: false) }
        return effects + takeCareOfLeftovers()
    }

    /// A message on ``NodeTopics/kitchenInstance``: a claim (its own or another kitchen's), or a clear.
    ///
    /// A retained one came on (re)subscribing: at the start it is judged once the probe is back
    /// (``decide()``); after a reconnect it is a kitchen that claimed while this one was away
    /// from the broker (its Last Will let it), which holds the starts unless the availability
    /// says it is gone too. A live one is a kitchen claiming now.
    mutating func instanceMessage(_ payload: [UInt8], retained: Bool) -> [KitchenBusEffect] {
        let id = Self.instance(in: payload)
        claimant = id
        switch claim {
        case .looking:
            guard !retained, let id, id != instance else { return [] }
            return yield(to: id)
        case .claiming:
            guard let id else { return [] }
            if id == instance { return retained ? [] : hold() }
            // Another claim before its own came back: that kitchen holds the starts.
            return retained && seenGone ? [] : yield(to: id)
        case .held:
            // Its claim cleared (by hand, or by a kitchen that yielded): said again.
            guard let id else { return retained ? [] : [.publish(claimMessage)] }
            guard id != instance else { return [] }
            if retained { return seenGone ? [.publish(claimMessage)] : yield(to: id) }
            // A kitchen that claimed after this one held: it saw this claim first and yields by
            // itself; the claim is said again so that the broker keeps this one's. The same id
            // again means that it holds the starts too (neither saw the other's claim first):
            // the smaller id keeps them.
            guard contested.insert(id).inserted || id > instance else { return yield(to: id) }
            return [.publish(claimMessage)]
        case .yielded:
            guard let id, id != instance else { return [] }
            // Another kitchen claims, or its claim is what the broker keeps: it runs.
            claim = .yielded(to: id)
            if !retained { takeAt = nil }
            return []
        }
    }

    /// A message on ``NodeTopics/kitchenAvailability``: `online`, `offline` or cleared.
    ///
    /// The kitchen that holds the starts answers `offline` with `online` (an earlier kitchen's
    /// Last Will arriving late, or a kitchen that yielded ending); one that yielded takes
    /// ``takeOverDelay`` later unless `online` comes first.
    mutating func availabilityMessage(_ payload: [UInt8], at now: ContinuousClock.Instant) -> [KitchenBusEffect] {
        seenGone = payload.isEmpty || payload == Array("offline".utf8)
        switch claim {
        case .held: return seenGone ? [.publish(online)] : []
        case .yielded:
            takeAt = seenGone ? (takeAt ?? now + Self.takeOverDelay) : nil
            return []
        case .looking, .claiming: return []
        }
    }
}
