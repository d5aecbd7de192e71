import ControlChannel
import Glibc
import HouseBus
import TimerModel

/// A timer's presence on the MQTT broker: its retained state, its availability with the Last
/// Will, its Home Assistant discovery configs, and its command topic.
///
/// Another process may already run a timer with this node and label on the broker (two Pis both
/// called `raspberrypi`). So the link first looks at what the broker holds on its state topic
/// (every retained message has arrived once a probe it publishes to itself comes back) and only
/// then takes the topics (``Claim``): a live state with another ``TimerStatePayload/instance``
/// there makes it warn once and stay off them, counting and ringing here only, until that
/// timer is gone (its availability `offline` or cleared). It never clears a retained state that
/// is not its own.
///
/// The ``BusClient`` is shared with the ``EventLoop``, which polls it and hands its events back
/// through ``route(_:)``. Publishing never blocks; a broker that is down only delays the retained
/// messages, which the client sends again after every (re)connect. Owned by the main thread.
struct BusLink {
    /// The connection (also polled by the event loop).
    let client: BusClient
    /// This timer's topics.
    let topics: TimerTopics
    /// This process's id in its state payloads (``TimerStatePayload/instance``).
    let instance: String
    /// The topic the link publishes to itself while looking at the state topic: when the probe
    /// comes back, every retained message on its subscriptions has arrived.
    let probe: String
    /// Whether this timer holds its topics.
    private(set) var claim = Claim.looking
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

    /// The wall clock that judges whether another timer's state is stale.
    let houseClock: HouseClock

    /// Whether this timer may use its topics.
    enum Claim: Equatable {
        /// Waiting for the probe: nothing published on the topics yet.
        case looking
        /// Its own: state, availability and discovery are published; commands are acted on.
        case held
        /// Another live timer holds them: nothing is published there, commands are not acted on.
        case yielded
    }
    /// The last state published (retained), and when; nil before the first or after a clear.
    private var published: (payload: TimerStatePayload, at: ContinuousClock.Instant)?
    /// Whether the broker is unreachable and this was said (once per outage, not per retry).
    private var down = false
    /// Whether the client (re)connected since the last ``update(_:at:)``: it has just sent the
    /// retained table again, whose state may be stale.
    private var replayed = false
    /// The retained command last ignored (said once, not again after every reconnect).
    private var ignoredRetainedCommand: [UInt8]?
    /// Lines to say: connection warnings (``Notice/warning``), the connection back
    /// (``Notice/restored``) and ignored payloads (``Notice/log``).
    private(set) var notices: [Notice] = []

    /// A line for the user.
    enum Notice: Equatable {
        /// Worth showing on the UI too: the broker is unreachable. The text has no `warning: `
        /// (the screen and standard error put it in front).
        case warning(String)
        /// The broker is back: the warning goes away (standard error says so when no UI is on).
        case restored(String)
        /// Only for the log (standard error when no UI is on): an ignored payload.
        case log(String)
    }

    /// The longest a counting timer's retained state goes without being published again.
    static let refreshPeriod = Duration.seconds(60)
    /// The message expiry of the retained state where the broker speaks MQTT 5.
    ///
    /// Three ``refreshPeriod``s (`interval_s`), after which readers judge it stale anyway; a broker
    /// then drops a state nobody refreshes (a killed timer, one acknowledged while the broker was
    /// down). Availability and discovery do not expire: they are not published again while the
    /// timer runs, and the Last Will's `offline` must stay.
    static let stateExpiry = refreshPeriod * 3
    /// How long the end of the run may wait for the last messages to reach the broker.
    static let finishLimit = Duration.milliseconds(500)
    /// How old a state the client replayed on (re)connecting may be before a fresh one follows.
    static let replayTolerance = Duration.seconds(1)
    /// How far a deadline may move (the wall clock's mapping) before it counts as a change.
    static let deadlineTolerance: Int64 = 100

    /// Connects to the broker (asynchronously) as the timer `label` of this node.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - label: The timer's label (its control socket's); ``TimerTopics`` escapes it.
    ///   - now: The boot clock's reading.
    ///   - houseClock: The wall clock that judges staleness (``HouseClock/system``).
    /// - Throws: `ExitStatus.unavailable` when libmosquitto cannot be loaded, `.usage` for an
    ///   unreadable password file or a bad URL, `.noInput` for an unreadable CA file; one line on
    ///   standard error says which.
    init(options: BusOptions, label: String, at now: ContinuousClock.Instant, houseClock: HouseClock = .system)
        throws(ExitStatus)
    {
        self.houseClock = houseClock
        topics = Self.topics(options, label: label)
        node = NodeRinging(topics: NodeTopics(of: topics))
        instance = TimerStatePayload.newInstanceID()
        probe = "\(options.prefix)/probe/\(instance)"
        let node = topics.node
        let will = BusMessage(topic: topics.availability, payload: Array("offline".utf8), retain: true, qos: 1)
        client = try Self.connect(options, clientName: "\(node.prefix(16))-\(topics.label.prefix(16))", will: will)
        client.subscribe(topics.command, qos: 1)
        // Its own availability too, among the node's: a Last Will of an earlier process with this node and
        // label (a power cut shorter than the broker's 1.5 × keepalive) may say offline after this one began.
        client.subscribe(self.node.topics.timerAvailabilities, qos: 1)
        // Its own state (another timer's with this node and label?), among the node's (NodeRinging).
        client.subscribe(self.node.topics.timerStates, qos: 1)
        client.subscribe(self.node.topics.ringing, qos: 0)  // no PUBACK to write: it is only compared
        client.subscribe(self.node.topics.ackAll, qos: 1)
        client.subscribe(probe, qos: 1)
        client.start(at: now)
    }

    /// Takes the topics: availability `online` and the discovery configs (retained, so the client
    /// sends them again after every reconnect); the state follows at the next ``update(_:at:)``.
    private mutating func take() {
        claim = .held
        client.publish(Self.online(topics.availability))
        for config in HomeAssistantDiscovery.configs(for: topics) { client.publish(config) }
        for config in HomeAssistantDiscovery.nodeConfigs(for: node.topics) { client.publish(config) }
        client.publish(Self.online(node.topics.availability))
        if let ringing = node.ringingUpdate() { client.publish(ringing) }
    }

    /// Whether `state`, seen on this timer's state topic, belongs to a live timer other than
    /// `instance`: another id (or none: an eggtimer before issue 20), not a final state, its
    /// availability not `offline` or cleared (`gone`), and not stale.
    /// - Parameters:
    ///   - state: The last state the broker sent on the topic; nil when none or cleared.
    ///   - gone: Whether the last availability sent was `offline` or cleared.
    ///   - instance: This process's id.
    ///   - clock: The wall clock that judges staleness (``HouseClock/isStale(_:)``).
    /// - Returns: Whether this timer must stay off the topics.
    static func isHeldByAnother(
        _ state: TimerStatePayload?, gone: Bool, instance: String, clock: HouseClock = .system
    ) -> Bool {
        guard let state, state.instance != instance, !gone, !isFinal(state.state) else { return false }
        return !clock.isStale(state)
    }

    /// Decides about the topics once the probe is back: takes them, or yields (warning once).
    private mutating func decide() {
        guard claim != .held else { return }
        guard Self.isHeldByAnother(seenState, gone: seenGone, instance: instance, clock: houseClock) else {
            take()
            return
        }
        claim = .yielded
        guard !warnedShared else { return }
        warnedShared = true
        let shown = "\(topics.node)/\(topics.label)".escapingControlCharacters
        notices.append(
            .warning(
                "MQTT: another timer already runs as \(shown) on the broker (two machines with one node name?); "
                    + "this one counts and rings here but stays off its topics: give it another --node or --label"))
    }

    /// Looks again (a new probe) when the timer that held the topics may be gone.
    ///
    /// Called for availability messages (a clean end clears the availability last, after its
    /// state and discovery configs; a Last Will says `offline` alone; taking the topics at the
    /// final state instead could race the rest of the other timer's clean end) and each round
    /// (the other's state may have gone stale).
    private mutating func lookAgainIfFree() {
        guard claim == .yielded, !Self.isHeldByAnother(seenState, gone: seenGone, instance: instance, clock: houseClock)
        else { return }
        claim = .looking
        client.publish(BusMessage(topic: probe, payload: Array("probe".utf8), retain: false, qos: 1))
    }

    /// Whether the broker's retained state on the topic is this process's own, or none, while the
    /// topics are held.
    ///
    /// The last state the broker sent there carries this ``instance``, or was a clear (or
    /// nothing came yet: this process's first state is on its way). Only then may it be cleared.
    /// A state it could not read is someone else's.
    var ownsRetainedState: Bool {
        claim == .held && !seenUnreadable && (seenState == nil || seenState?.instance == instance)
    }

    /// The topics of the timer `label` on this node: the label as it is (``TimerTopics`` escapes
    /// it injectively), `timer` for an empty one.
    static func topics(_ options: BusOptions, label: String) -> TimerTopics {
        TimerTopics(prefix: options.prefix, node: options.nodeName, label: label.isEmpty ? "timer" : label)
    }

    /// Makes a client for `options` (loading libmosquitto on first use); it is not started.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - clientName: The client id's middle part (at most 40 characters, for the broker's log);
    ///     the pid and a random number make it unique.
    ///   - will: The Last Will, if any.
    /// - Returns: The client, not connecting yet.
    /// - Throws: `ExitStatus`, as ``init(options:label:at:)`` says.
    static func connect(_ options: BusOptions, clientName: String, will: BusMessage?) throws(ExitStatus) -> BusClient {
        let address: BrokerAddress
        do {
            address = try BrokerAddress.parse(options.url ?? "")
        } catch {
            printError("eggtimer: option '--mqtt' \(error.message)")
            throw .usage
        }
        if let caFile = options.caFile {
            // libmosquitto says only "invalid function arguments provided" for a missing file.
            // A FIFO is refused at once: libmosquitto's own open would wait for a writer for ever.
            do { close(try RegularFile.open(caFile)) } catch {
                printError("eggtimer: option '--mqtt-cafile' cannot read '\(caFile)': \(error.reason)")
                throw .noInput
            }
        }
        let password: String?
        do { password = try options.password() } catch {
            printError("eggtimer: \(error.description)")
            throw .noInput
        }
        let settings = BusSettings(
            address: address, password: password, caFile: options.caFile,
            clientID: "eggtimer-\(clientName)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
            keepalive: options.keepalive, will: will, connectLimit: .seconds(5))
        do {
            return try BusClient(settings: settings)
        } catch .libraryMissing(let text) {
            printError("eggtimer: --mqtt needs libmosquitto (apt install libmosquitto1): \(text)")
            throw .unavailable
        } catch {
            printError("eggtimer: --mqtt: \(error.message)")
            throw .unavailable
        }
    }

    /// The retained state payload of a timer's snapshot (``TimerStatePayload/init(_:topics:instance:published:interval:)``
    /// with `interval_s` ``refreshPeriod``).
    /// - Parameters:
    ///   - snapshot: The timer as the controller sees it.
    ///   - topics: The timer's topics: the payload carries their node and label.
    ///   - instance: The process's id (``instance``).
    ///   - published: The wall clock now (Unix milliseconds) and whether it is synchronised; nil
    ///     leaves `published`, `clock_synced` and `interval_s` out.
    /// - Returns: The payload; nil for the menu (no timer). `interval_s` is ``refreshPeriod``,
    ///   or null for a final state (not published again).
    static func payload(
        _ snapshot: TimerSnapshot, topics: TimerTopics, instance: String? = nil,
        published: (unixMilliseconds: Int64, synchronised: Bool)? = nil
    ) -> TimerStatePayload? {
        TimerStatePayload(snapshot, topics: topics, instance: instance, published: published, interval: refreshPeriod)
    }

    /// Whether `new` says something `old` did not: another state, length or deadline (the time
    /// left alone changes all the time and is refreshed by ``refreshPeriod``).
    static func differs(_ new: TimerStatePayload, from old: TimerStatePayload) -> Bool {
        guard new.state == old.state, new.durationSeconds == old.durationSeconds, new.label == old.label else {
            return true
        }
        switch (new.deadlineUnixMilliseconds, old.deadlineUnixMilliseconds) {
        case (nil, nil): return false
        case (let a?, let b?): return abs(a - b) > deadlineTolerance
        default: return true
        }
    }

    /// Publishes `payload` as the retained state when it changed, or is due again.
    ///
    /// Due: ``refreshPeriod`` passed since the last time, or a (re)connect replayed one older than
    /// ``replayTolerance``. nil clears a state published before (the menu again) if the broker's
    /// is still this process's own. Nothing while the topics are not ``Claim/held``.
    /// - Parameters:
    ///   - payload: The timer's state now.
    ///   - now: The boot clock's reading.
    ///   - force: Publish a state even if it is not due (MQTT `status`).
    /// - Returns: Whether a message was published (for tests).
    @discardableResult
    mutating func update(_ payload: TimerStatePayload?, at now: ContinuousClock.Instant, force: Bool = false) -> Bool {
        // Waiting on another timer whose state has gone stale meanwhile: look again.
        if claim == .yielded { lookAgainIfFree() }
        guard claim == .held else { return false }
        guard let payload else {
            guard published != nil else { return false }
            published = nil
            guard ownsRetainedState else { return false }
            client.publish(BusMessage(topic: topics.state, payload: [], retain: true, qos: 1))
            return true
        }
        let stale = replayed && published.map { now >= $0.at.advanced(by: Self.replayTolerance) } == true
        replayed = false
        guard force || stale || Self.isDue(payload, after: published, at: now) else { return false }
        client.publish(
            BusMessage(topic: topics.state, payload: payload.json(), retain: true, qos: 1, expiry: Self.stateExpiry))
        published = (payload, now)
        return true
    }

    /// Whether `payload` is to be published at `now`: nothing was yet, it differs from the last
    /// one (``differs(_:from:)``), or ``refreshPeriod`` has passed since.
    /// - Parameters:
    ///   - payload: The state now.
    ///   - last: The last state published and when (boot clock), if any.
    ///   - now: The boot clock's reading.
    /// - Returns: Whether to publish.
    static func isDue(
        _ payload: TimerStatePayload, after last: (payload: TimerStatePayload, at: ContinuousClock.Instant)?,
        at now: ContinuousClock.Instant
    ) -> Bool {
        guard let last else { return true }
        return differs(payload, from: last.payload) || now >= last.at.advanced(by: refreshPeriod)
    }

    /// When the retained state is due again (``refreshPeriod`` after the last); nil for none.
    var nextRefresh: ContinuousClock.Instant? {
        guard claim == .held, let published, !Self.isFinal(published.payload.state) else { return nil }
        return published.at.advanced(by: Self.refreshPeriod)
    }

    /// Takes the broker's reports out of `inputs`: this timer's commands become
    /// ``Input/command(_:from:connection:)``, the rest become ``notices`` or nothing.
    /// - Returns: The inputs for the controller.
    mutating func route(_ inputs: [Input]) -> [Input] {
        inputs.compactMap { input in
            guard case .bus(let event) = input else { return input }
            return command(from: event)
        }
    }

    /// One broker report: a command for this timer, or a notice, or nothing.
    private mutating func command(from event: BusEvent) -> Input? {
        if case .message(let topic, let payload, let retained) = event {
            if node.see(topic: topic, payload: payload), claim == .held, let ringing = node.ringingUpdate() {
                client.publish(ringing)
            }
            // "Acknowledge all": every timer of the node gets it and acknowledges itself (a press is an event).
            if topic == node.topics.ackAll {
                guard !retained, claim == .held, let state = published?.payload.state else { return nil }
                return node.press(applyingTo: state) ? .command(.acknowledge, from: .mqtt) : nil
            }
        }
        switch event {
        case .connected:
            if down { notices.append(.restored("MQTT: connected to the broker again")) }
            down = false
            // The client has just sent the retained table again, whose state may be stale (its
            // remaining_s from before the outage): a fresh one is due at once (update).
            replayed = true
            // Not holding the topics yet: look at what the broker holds there first.
            if claim != .held {
                claim = .looking
                client.publish(BusMessage(topic: probe, payload: Array("probe".utf8), retain: false, qos: 1))
            }
        case .connectionLost(let reason):
            if !down {
                notices.append(
                    .warning("MQTT: \(reason); the timer counts and rings here anyway, reconnecting"))
            }
            down = true
        case .message(let topic, _, _) where topic == probe:
            if claim == .looking { decide() }
        case .message(let topic, let payload, _) where topic == topics.state:
            seenState = payload.isEmpty ? nil : TimerStatePayload.parse(payload)
            seenUnreadable = !payload.isEmpty && seenState == nil
        case .message(let topic, let payload, _) where topic == topics.availability:
            seenGone = payload.isEmpty || payload == Array("offline".utf8)
            // An earlier process's Last Will, or the clean end of another with this node and label.
            if seenGone, claim == .held { client.publish(Self.online(topics.availability)) }
            lookAgainIfFree()
        case .message(let topic, let payload, let retained):
            // Another timer's commands, while it holds the topics.
            guard topic == topics.command, claim != .yielded else { return nil }
            if retained {
                // A command someone left retained is a state of the broker, not an event: acted on, a
                // `cancel` would end every timer of this label the moment it starts. Said once per payload.
                if ignoredRetainedCommand != payload { notices.append(.log(Self.retainedCommandLine(topic, payload))) }
                ignoredRetainedCommand = payload
                return nil
            }
            do {
                return .command(try BusCommand.parse(payload), from: .mqtt)
            } catch {
                notices.append(.log("ignored MQTT command on \(topic): \(error.message)"))
            }
        case .notice(let text):
            notices.append(.log("MQTT: \(text)"))
        case .published:
            break
        }
        return nil
    }

    /// The log line for a retained command ignored on `topic`: its payload (at most
    /// ``BusCommand/byteLimit`` bytes, control characters escaped) and how to clear it.
    static func retainedCommandLine(_ topic: String, _ payload: [UInt8]) -> String {
        let text = String(decoding: payload.prefix(BusCommand.byteLimit), as: UTF8.self).escapingControlCharacters
        let shown = topic.escapingControlCharacters
        return "ignored a retained MQTT command on \(shown) ('\(text)'): commands are not kept; "
            + "clear it with mosquitto_pub -r -n -t '\(shown)'"
    }

    /// The retained `online` on the availability topic `availability` (a timer's or a follower's).
    static func online(_ availability: String) -> BusMessage {
        BusMessage(topic: availability, payload: Array("online".utf8), retain: true, qos: 1)
    }

    /// Takes the notices gathered so far.
    mutating func takeNotices() -> [Notice] {
        defer { notices = [] }
        return notices
    }

    /// The last messages (``finalMessages(final:)``); waits at most ``finishLimit`` for them to
    /// leave, then disconnects.
    /// - Parameter final: The timer's final state, if it ran one.
    func finish(final: TimerStatePayload?) {
        client.finish(publishing: finalMessages(final: final), limit: Self.finishLimit)
    }

    /// The last messages of a timer holding its topics: the final state (not retained), then the
    /// retained state cleared, the discovery configs removed and the availability said offline
    /// and cleared (``leaving(_:)``): nothing retained is left behind.
    ///
    /// None when the topics are not held, or when the broker's retained state is not this
    /// process's own (``ownsRetainedState``): another timer's state, availability and discovery
    /// configs stay; in doubt nothing is cleared.
    /// - Parameter final: The timer's final state, if it ran one.
    /// - Returns: The messages, in order.
    func finalMessages(final: TimerStatePayload?) -> [BusMessage] {
        guard ownsRetainedState else { return [] }
        var messages: [BusMessage] = []
        if let final { messages.append(BusMessage(topic: topics.state, payload: final.json(), retain: false, qos: 1)) }
        messages.append(BusMessage(topic: topics.state, payload: [], retain: true, qos: 1))
        messages += HomeAssistantDiscovery.removals(for: topics)
        messages += node.leaving(topics.label)
        messages += Self.leaving(topics.availability)
        return messages
    }

    /// A clean end's availability messages: `offline` for those listening now (not retained),
    /// then the retained `online` cleared (an empty retained payload), so nothing stays behind.
    ///
    /// The Last Will stays a retained `offline`: a process that dies shows offline until it runs again.
    /// - Parameter availability: The availability topic.
    /// - Returns: The two messages, in order (QoS 1).
    static func leaving(_ availability: String) -> [BusMessage] {
        [
            BusMessage(topic: availability, payload: Array("offline".utf8), retain: false, qos: 1),
            BusMessage(topic: availability, payload: [], retain: true, qos: 1),
        ]
    }

    /// Whether a state name is a final one (done, cancelled, missed).
    static func isFinal(_ state: String) -> Bool { TimerState(rawValue: state)?.isFinal ?? false }
}
