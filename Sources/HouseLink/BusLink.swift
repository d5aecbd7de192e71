import ControlChannel
package import HouseBus
package import TimerEngine
package import TimerModel

/// A timer's presence on the MQTT broker as a pure reducer: its retained state, its availability
/// with the Last Will, its Home Assistant discovery configs, and its command topic.
///
/// Another process may already run a timer with this node and label on the broker (two Pis both
/// called `raspberrypi`). So the link first looks at what the broker holds on its state topic
/// (every retained message has arrived once a probe it publishes to itself comes back) and only
/// then takes the topics (``Claim``): a live state with another ``TimerStatePayload/instance``
/// there makes it warn once and stay off them, counting and ringing here only, until that
/// timer is gone (its availability `offline` or cleared). It never clears a retained state that
/// is not its own.
///
/// It does no I/O and reads no clock: the broker's reports come in through ``handle(_:at:)``, the
/// timer's state through ``update(_:at:force:)``, both with the boot clock's reading; what is to
/// be published or said comes back as ``BusEffect``s, which the session carries out (publishing
/// through the ``BusClient`` that the executable's `BusLink.open(options:label:at:houseClock:)`
/// made). Owned by the main thread.
package struct BusLink {
    /// This timer's topics.
    package let topics: TimerTopics
    /// This process's id in its state payloads (``TimerStatePayload/instance``).
    package let instance: String
    /// The topic the link publishes to itself while looking at the state topic: when the probe
    /// comes back, every retained message on its subscriptions has arrived.
    package let probe: String
    /// The wall clock that judges whether another timer's state is stale.
    package let houseClock: HouseClock
    /// Whether this timer holds its topics.
    package private(set) var claim = Claim.looking
    /// The last state the broker sent on the state topic (anyone's; nil: none, or cleared).
    private var seenState: TimerStatePayload?
    /// Whether the last state the broker sent on the state topic was not empty and not readable.
    private var seenUnreadable = false
    /// Whether the last availability the broker sent for the topics is `offline` or cleared.
    private var seenGone = false
    /// Whether the warning about another timer on the topics was said.
    private var warnedShared = false
    /// The node's timers as the broker shows them: its ringing state, its "acknowledge all".
    private var node: NodeRinging
    /// The last state published (retained), and when; nil before the first or after a clear.
    private var published: (payload: TimerStatePayload, at: ContinuousClock.Instant)?
    /// Whether the broker is unreachable and this was said (once per outage, not per retry).
    private var down = false
    /// Whether the client (re)connected since the last ``update(_:at:force:)``: it has just sent
    /// the retained table again, whose state may be stale.
    private var replayed = false
    /// The retained command last ignored (said once, not again after every reconnect).
    private var ignoredRetainedCommand: [UInt8]?
    /// Whether the client reconnected while holding the topics and the probe is not back yet:
    /// the node's ringing state waits until what the broker kept of it has arrived (issue 45).
    private var resyncing = false

    /// Whether this timer may use its topics.
    package enum Claim: Equatable {
        /// Waiting for the probe: nothing published on the topics yet.
        case looking
        /// Its own: state, availability and discovery are published; commands are acted on.
        case held
        /// Another live timer holds them: nothing is published there, commands are not acted on.
        case yielded
    }

    /// What one broker report means: the commands for the controller (all from ``Origin/mqtt``)
    /// and the effects for the session, in order.
    package struct Step: Equatable {
        /// This timer's commands, in the order they arrived.
        package var commands: [Command] = []
        /// What to publish and say.
        package var effects: [BusEffect] = []
    }

    /// The longest a counting timer's retained state goes without being published again.
    package static let refreshPeriod = Duration.seconds(60)
    /// The message expiry of the retained state where the broker speaks MQTT 5.
    ///
    /// Three ``refreshPeriod``s (`interval_s`), after which readers judge it stale anyway; a broker
    /// then drops a state nobody refreshes (a killed timer, one acknowledged while the broker was
    /// down). Availability and discovery do not expire: they are not published again while the
    /// timer runs, and the Last Will's `offline` must stay.
    package static let stateExpiry = refreshPeriod * 3
    /// How long the end of the run may wait for the last messages to reach the broker.
    package static let finishLimit = Duration.milliseconds(500)
    /// How old a state the client replayed on (re)connecting may be before a fresh one follows.
    package static let replayTolerance = Duration.seconds(1)
    /// How far a deadline may move (the wall clock's mapping) before it counts as a change.
    package static let deadlineTolerance: Int64 = 100

    /// A link that has seen nothing yet (``Claim/looking``).
    /// - Parameters:
    ///   - topics: The timer's topics (``topics(_:label:)``).
    ///   - instance: This process's id (``TimerStatePayload/newInstanceID()``).
    ///   - houseClock: The wall clock that judges staleness (``HouseClock/system``).
    package init(topics: TimerTopics, instance: String, houseClock: HouseClock = .system) {
        self.topics = topics
        node = NodeRinging(topics: NodeTopics(of: topics))
        self.instance = instance
        self.houseClock = houseClock
        probe = "\(topics.prefix)/probe/\(instance)"
    }

    /// The probe (not retained): it comes back once every retained message has arrived.
    private var probeMessage: BusMessage {
        BusMessage(topic: probe, payload: Array("probe".utf8), retain: false, qos: 1)
    }

    /// Takes the topics: availability `online` and the discovery configs (retained, so the client
    /// sends them again after every reconnect); the state follows at the next ``update(_:at:force:)``.
    private mutating func take() -> [BusEffect] {
        claim = .held
        var effects = [BusEffect.publish(Self.online(topics.availability))]
        effects += HomeAssistantDiscovery.configs(for: topics).map(BusEffect.publish)
        effects += HomeAssistantDiscovery.nodeConfigs(for: node.topics).map(BusEffect.publish)
        effects.append(.publish(Self.online(node.topics.availability)))
        effects += ringingUpdate()
        return effects
    }

    /// The node's ringing state when this timer keeps it (``NodeRinging/keeps(_:)``) and it
    /// changed (``NodeRinging/ringingUpdate(excluding:)``); nothing while the topics are not held
    /// or the probe after a reconnect is not back.
    private mutating func ringingUpdate() -> [BusEffect] {
        guard claim == .held, !resyncing, node.keeps(topics.label), let ringing = node.ringingUpdate() else {
            return []
        }
        return [.publish(ringing)]
    }

    /// Decides about the topics once the probe is back: takes them, or yields (warning once).
    private mutating func decide() -> [BusEffect] {
        guard claim != .held else { return [] }
        guard Self.isHeldByAnother(seenState, gone: seenGone, instance: instance, clock: houseClock) else {
            return take()
        }
        claim = .yielded
        guard !warnedShared else { return [] }
        warnedShared = true
        let shown = "\(topics.node)/\(topics.label)".escapingControlCharacters
        return [
            .notice(
                .warning(
                    "MQTT: another timer already runs as \(shown) on the broker (two machines with one node name?); "
                        + "this one counts and rings here but stays off its topics: give it another --node or --label"))
        ]
    }

    /// Looks again (a new probe) when the timer that held the topics may be gone.
    ///
    /// Called for availability messages (a clean end clears the availability last, after its
    /// state and discovery configs; a Last Will says `offline` alone; taking the topics at the
    /// final state instead could race the rest of the other timer's clean end) and each round
    /// (the other's state may have gone stale).
    private mutating func lookAgainIfFree() -> [BusEffect] {
        guard claim == .yielded, !Self.isHeldByAnother(seenState, gone: seenGone, instance: instance, clock: houseClock)
        else { return [] }
        claim = .looking
        return [.publish(probeMessage)]
    }

    /// Whether the broker's retained state on the topic is this process's own, or none, while the
    /// topics are held.
    ///
    /// The last state the broker sent there carries this ``instance``, or was a clear (or
    /// nothing came yet: this process's first state is on its way). Only then may it be cleared.
    /// A state it could not read is someone else's.
    package var ownsRetainedState: Bool {
        claim == .held && !seenUnreadable && (seenState == nil || seenState?.instance == instance)
    }

    /// The effects for the timer's state now: its retained state published when it changed, or
    /// is due again.
    ///
    /// Due: ``refreshPeriod`` passed since the last time, or a (re)connect replayed one older than
    /// ``replayTolerance``. nil clears a state published before (the menu again) if the broker's
    /// is still this process's own. Nothing while the topics are not ``Claim/held``; while they
    /// are ``Claim/yielded`` to a timer whose state has gone stale since, a probe (looking again).
    /// - Parameters:
    ///   - payload: The timer's state now; nil in the menu.
    ///   - now: The boot clock's reading.
    ///   - force: Publish a state even if it is not due (MQTT `status`).
    /// - Returns: What to publish, in order (nothing, a probe, or one state message).
    package mutating func update(_ payload: TimerStatePayload?, at now: ContinuousClock.Instant, force: Bool = false)
        -> [BusEffect]
    {
        // Waiting on another timer whose state has gone stale meanwhile: look again.
        if claim == .yielded { return lookAgainIfFree() }
        guard claim == .held else { return [] }
        guard let payload else {
            guard published != nil else { return [] }
            published = nil
            guard ownsRetainedState else { return [] }
            return [.publish(BusMessage(topic: topics.state, payload: [], retain: true, qos: 1))]
        }
        let stale = replayed && published.map { now >= $0.at.advanced(by: Self.replayTolerance) } == true
        replayed = false
        guard force || stale || Self.isDue(payload, after: published, at: now) else { return [] }
        published = (payload, now)
        return [
            .publish(
                BusMessage(topic: topics.state, payload: payload.json(), retain: true, qos: 1, expiry: Self.stateExpiry)
            )
        ]
    }

    /// When the retained state is due again (``refreshPeriod`` after the last, boot clock); nil
    /// for none (not held, nothing published, or a final state).
    package var nextRefresh: ContinuousClock.Instant? {
        guard claim == .held, let published, !Self.isFinal(published.payload.state) else { return nil }
        return published.at.advanced(by: Self.refreshPeriod)
    }

    /// One broker report: this timer's commands, and what to publish or say.
    /// - Parameters:
    ///   - event: What the client reported.
    ///   - now: The boot clock's reading (unused today: the claim is decided by the probe and the
    ///     house clock; kept so every step of the reducer is placed in time).
    /// - Returns: The commands (from ``Origin/mqtt``) and effects, in order.
    package mutating func handle(_ event: BusEvent, at now: ContinuousClock.Instant) -> Step {
        var step = Step()
        if case .message(let topic, let payload, let retained) = event {
            if node.see(topic: topic, payload: payload) { step.effects += ringingUpdate() }
            // "Acknowledge all": every timer of the node gets it and acknowledges itself (a press is an event).
            if topic == node.topics.ackAll {
                if !retained, claim == .held, let state = published?.payload.state, node.press(applyingTo: state) {
                    step.commands.append(.acknowledge)
                }
                return step
            }
        }
        switch event {
        case .connected:
            if down { step.effects.append(.notice(.restored("MQTT: connected to the broker again"))) }
            down = false
            // The client has just sent the retained table again, whose state may be stale (its
            // remaining_s from before the outage): a fresh one is due at once (update).
            replayed = true
            // The broker may have lost the node's ringing state (a restart): said again by the keeper
            // when the probe is back, unless the broker's copy came first (issue 45).
            node.forgetRinging()
            resyncing = claim == .held
            // Not holding the topics yet: look at what the broker holds there first.
            if claim != .held { claim = .looking }
            step.effects.append(.publish(probeMessage))
        case .connectionLost(let reason):
            if !down {
                step.effects.append(
                    .notice(.warning("MQTT: \(reason); the timer counts and rings here anyway, reconnecting")))
            }
            down = true
        case .message(let topic, _, _) where topic == probe:
            if claim == .looking { step.effects += decide() }
            if resyncing {
                resyncing = false
                step.effects += ringingUpdate()
            }
        case .message(let topic, let payload, _) where topic == topics.state:
            seenState = payload.isEmpty ? nil : TimerStatePayload.parse(payload)
            seenUnreadable = !payload.isEmpty && seenState == nil
        case .message(let topic, let payload, _) where topic == topics.availability:
            seenGone = payload.isEmpty || payload == Array("offline".utf8)
            // An earlier process's Last Will, or the clean end of another with this node and label.
            if seenGone, claim == .held { step.effects.append(.publish(Self.online(topics.availability))) }
            step.effects += lookAgainIfFree()
        case .message(let topic, let payload, let retained):
            // Another timer's commands, while it holds the topics.
            guard topic == topics.command, claim != .yielded else { break }
            if retained {
                // A command someone left retained is a state of the broker, not an event: acted on, a
                // `cancel` would end every timer of this label the moment it starts. Said once per payload.
                if ignoredRetainedCommand != payload {
                    step.effects.append(.notice(.log(Self.retainedCommandLine(topic, payload))))
                }
                ignoredRetainedCommand = payload
                break
            }
            do {
                step.commands.append(try BusCommand.parse(payload))
            } catch {
                step.effects.append(.notice(.log("ignored MQTT command on \(topic): \(error.message)")))
            }
        case .notice(let text):
            step.effects.append(.notice(.log("MQTT: \(text)")))
        case .published:
            break
        }
        return step
    }

    /// The last messages of a timer holding its topics: the final state (not retained), then the
    /// discovery configs removed, the retained state cleared, the node's ringing state and
    /// availability where they change (``NodeRinging/leaving(_:)``) and the availability said
    /// offline and cleared (``leaving(_:)``): nothing retained is left behind.
    ///
    /// The configs go before the state is cleared (issue 45): Home Assistant removes the entities,
    /// and with them their subscriptions to the state topic, as the removals arrive, so the clear
    /// reaches no sensor (the sensors' templates would show it as `unknown`, without a word).
    ///
    /// None when the topics are not held, or when the broker's retained state is not this
    /// process's own (``ownsRetainedState``): another timer's state, availability and discovery
    /// configs stay; in doubt nothing is cleared. The session hands them to
    /// ``BusClient/finish(publishing:limit:)`` with ``finishLimit``.
    /// - Parameter final: The timer's final state, if it ran one.
    /// - Returns: The messages, in order.
    package func finish(final: TimerStatePayload?) -> [BusMessage] {
        guard ownsRetainedState else { return [] }
        var messages: [BusMessage] = []
        if let final { messages.append(BusMessage(topic: topics.state, payload: final.json(), retain: false, qos: 1)) }
        messages += HomeAssistantDiscovery.removals(for: topics)
        messages.append(BusMessage(topic: topics.state, payload: [], retain: true, qos: 1))
        messages += node.leaving(topics.label)
        messages += Self.leaving(topics.availability)
        return messages
    }
}
