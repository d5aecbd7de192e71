import HouseBus
import HouseLink
import SystemKit
import TextCoding
import TimerEngine
import TimerModel
import TimerText

/// The kitchen's presence on the MQTT broker as a pure reducer, in the manner of a timer's `BusLink`: its
/// availability with the Last Will, its Home Assistant entities (a button per egg, a start text),
/// and the start topic `P/NODE/start`, whose payloads become ``KitchenBusEffect/start(_:)``, each
/// answered on the result topic `P/NODE/kitchen/result` (``result(_:id:)``).
///
/// A start payload is read by ``StartPayload`` (plain text, or JSON with the asker's id: issue
/// 42) and its words parsed by `StartRequest` (the one parser of every front), so the timer's
/// command line is built from typed values only. A payload the broker kept retained is a state,
/// not an event: it is ignored with one line (once per payload, not again after each reconnect),
/// as a timer ignores a retained command, and gets no result. A malformed, oversized or
/// option-smuggling payload, or one asking for a label the broker reserves (`follow`,
/// `kitchen`), is one line and its refusal on the result topic, nothing else.
///
/// One kitchen per node takes the starts (issue 42; KitchenBus+Claim.swift): a second kitchen
/// with the node's name on the broker finds the first's retained instance id
/// (``NodeTopics/kitchenInstance``) and stays off the start topic, with one line, until the
/// first is gone.
///
/// It does no I/O and reads no clock: the broker's reports come in through ``handle(_:at:)`` and
/// time through ``expire(at:)``, both with the boot clock's reading, and what is to be
/// subscribed, published, started or logged comes back as ``KitchenBusEffect``s, which the
/// kitchen carries out (publishing through the ``BusClient`` that
/// ``open(options:presets:configurationURL:at:)`` made). A plain value; owned by the main thread.
package struct KitchenBus {
    /// The node's topics: the start topic and the kitchen's availability among them.
    let topics: NodeTopics
    /// The preset names a start may name (`Soft`, `Medium`, `Hard`, any case).
    let presets: [String]
    /// The kitchen's page, its device's `configuration_url` in the kitchen's own discovery
    /// configs (``Kitchen/pageURL(_:hostname:)``); nil: none.
    let configurationURL: String?
    /// Whether the broker is unreachable and this was said (once per outage, not per retry).
    private var down = false
    /// The retained start last ignored (said once, not again after every reconnect).
    private var ignoredRetainedStart: [UInt8]?
    /// This process's random id on ``NodeTopics/kitchenInstance`` (16 hex digits).
    let instance: String
    /// The topic it publishes to itself at the start: when the probe comes back, every retained
    /// message on its subscriptions has arrived (as a timer's `BusLink` does).
    let probe: String
    /// Whether this kitchen takes the node's starts (KitchenBus+Claim.swift).
    var claim = Claim.looking
    /// The instance id last seen on ``NodeTopics/kitchenInstance``; nil for none or an unreadable one.
    var claimant: String?
    /// Whether the last availability seen on ``NodeTopics/kitchenAvailability`` is `offline` or
    /// cleared; true before any (no kitchen says `online`: a claim without it is nobody's now).
    var seenGone = true
    /// When a kitchen that yielded takes the starts, the other one being gone; nil while it is not.
    var takeAt: ContinuousClock.Instant?
    /// The start payloads that came while it was deciding, for once it knows (at most ``waitingLimit``).
    var waiting: [[UInt8]] = []
    /// The other kitchens whose live claims it answered with its own while it held the starts.
    var contested: Set<String> = []
    /// What the node's timers that died left on the broker (issue 45): the kitchen that holds the
    /// node's starts sets the node's ringing state right when no timer of the node is online, and
    /// clears a dead timer's leftovers once it is forgotten (KitchenBus+Leftovers.swift).
    var leftovers: NodeLeftovers
    /// The node's timers summed up for the kitchen's stable entities (issue 45; KitchenBus+Summary.swift).
    var summary: NodeSummary
    /// The summary's payload last published; nil for none since this kitchen took the starts.
    var publishedSummary: [UInt8]?

    /// What the start text entity accepts: ``StartRequest``'s limit and shape.
    static let startText = HomeAssistantDiscovery.StartText(limit: StartRequest.limit, pattern: StartRequest.pattern)

    /// A reducer that has seen nothing yet (``Claim/looking``).
    /// - Parameters:
    ///   - topics: The node's topics (its prefix and node name).
    ///   - presets: The presets' display names, one egg button each and the names a start may
    ///     give (`Preset.eggs`' names).
    ///   - configurationURL: The kitchen's page (``configurationURL``), or nil.
    ///   - instance: This process's id (`TimerStatePayload.newInstanceID()`): ASCII letters and
    ///     digits, 1 to 64.
    init(
        topics: NodeTopics, presets: [String], configurationURL: String? = nil,
        instance: String = TimerStatePayload.newInstanceID()
    ) {
        self.topics = topics
        self.presets = presets
        self.configurationURL = configurationURL
        self.instance = instance
        probe = "\(topics.prefix)/probe/\(instance)"
        leftovers = NodeLeftovers(topics: topics)
        summary = NodeSummary(topics: topics)
    }

    /// The first effects, before the client connects: the subscriptions, then the discovery
    /// configs (its buttons and start text, its summary's entities, and the node's `Ringing` and
    /// `Acknowledge all`, the same bytes as its timers publish: available while either runs).
    ///
    /// It subscribes to the start topic, the kitchen's availability and instance, the node's
    /// timers' states and availabilities and its ringing state (``leftovers``), and its probe
    /// last (when the probe comes back, the retained messages of all the others are in); the
    /// configs are retained (the client keeps them and sends them again after every reconnect).
    /// `online` waits until it takes the node's starts.
    /// - Returns: The effects, in order.
    func start() -> [KitchenBusEffect] {
        let filters = [
            topics.start, topics.kitchenAvailability, topics.kitchenInstance, topics.timerStates,
            topics.timerAvailabilities, topics.ringing, probe,
        ]
        var effects = filters.map(KitchenBusEffect.subscribe)
        let url = configurationURL
        effects += HomeAssistantDiscovery.kitchenConfigs(
            for: topics, presets: presets, text: Self.startText, configurationURL: url
        ).map(KitchenBusEffect.publish)
        effects += HomeAssistantDiscovery.kitchenSummaryConfigs(for: topics, configurationURL: url)
            .map(KitchenBusEffect.publish)
        effects.append(.publish(Self.eventConfig(topics, configurationURL: url)))
        effects += HomeAssistantDiscovery.nodeConfigs(for: topics).map(KitchenBusEffect.publish)
        return effects
    }

    /// The discovery config of the kitchen's `event` entity, with ``KitchenEvent/Kind``'s types.
    /// - Parameters:
    ///   - topics: The node's topics.
    ///   - configurationURL: The kitchen's page, or nil.
    /// - Returns: The retained config.
    static func eventConfig(_ topics: NodeTopics, configurationURL: String? = nil) -> BusMessage {
        HomeAssistantDiscovery.kitchenEventConfig(
            for: topics, types: KitchenEvent.Kind.allCases.map(\.rawValue), configurationURL: configurationURL)
    }

    /// The kitchen's retained `online` on its availability, as a timer's link says its own.
    var online: BusMessage {
        BusLink.online(topics.kitchenAvailability)
    }

    /// The Last Will: a retained `offline` on the kitchen's availability.
    var will: BusMessage {
        BusMessage(topic: topics.kitchenAvailability, payload: Array("offline".utf8), retain: true, qos: 1)
    }

    /// One broker report: what to start, publish or log.
    /// - Parameters:
    ///   - event: What the client reported.
    ///   - now: The boot clock's reading (when a kitchen that yielded may take the starts).
    /// - Returns: The effects, in order (a start message gives one ``KitchenBusEffect/start(_:)``,
    ///   or one ``KitchenBusEffect/log(_:)`` and its refusal published on the result topic).
    mutating func handle(_ event: BusEvent, at now: ContinuousClock.Instant) -> [KitchenBusEffect] {
        switch event {
        case .connected:
            var effects: [KitchenBusEffect] = down ? [.log("MQTT: connected to the broker again")] : []
            down = false
            // Still deciding: look at what the broker holds (a claim's own echo needs nothing:
            // the client sends it again from its retained table).
            if claim == .looking { effects.append(.publish(probeMessage)) }
            return effects
        case .connectionLost(let reason):
            defer { down = true }
            return down ? [] : [.log("warning: MQTT: \(reason.escapingControlCharacters); starts wait, reconnecting")]
        case .notice(let text):
            return [.log("MQTT: \(text.escapingControlCharacters)")]
        case .published:
            return []
        case .message(let topic, _, _) where topic == probe:
            return claim == .looking ? decide() : []
        case .message(let topic, let payload, let retained) where topic == topics.kitchenInstance:
            return instanceMessage(payload, retained: retained)
        case .message(let topic, let payload, _) where topic == topics.kitchenAvailability:
            return availabilityMessage(payload, at: now)
        case .message(let topic, let payload, let retained) where topic == topics.start:
            return startMessage(payload, retained: retained)
        case .message(let topic, let payload, let retained):
            return nodeMessage(topic, payload, retained: retained)
        }
    }

    /// A message on the start topic: a start, or one line and its refusal on the result topic.
    ///
    /// Only while this kitchen holds the node's starts (``Claim/held``); while it decides, the
    /// payload waits (``waiting``); while another kitchen holds them, that one answers.
    mutating func startMessage(_ payload: [UInt8], retained: Bool) -> [KitchenBusEffect] {
        let shown = topics.start.escapingControlCharacters
        if retained {
            guard ignoredRetainedStart != payload else { return [] }
            ignoredRetainedStart = payload
            let text = String(decoding: payload.prefix(StartRequest.limit), as: UTF8.self).escapingControlCharacters
            return [
                .log(
                    "ignored a retained MQTT start on \(shown) ('\(text)'): starts are not kept; "
                        + "clear it with mosquitto_pub -r -n -t '\(shown)'")
            ]
        }
        switch claim {
        case .held: break
        case .looking, .claiming:
            guard waiting.count < Self.waitingLimit else {
                return [.log("ignored MQTT start on \(shown): \(Self.waitingLimit) starts wait already")]
            }
            waiting.append(payload)
            return []
        case .yielded: return []
        }
        do { return [.start(try StartPayload.parse(payload, presets: presets))] } catch {
            return [
                .log("ignored MQTT start on \(shown): \(error.text)"),
                .publish(result(.refused(KitchenCore.Refusal(kind: .usage, text: error.text)), id: error.id)),
                .publish(event(KitchenEvent(kind: .refused, reason: error.text, requestID: error.id?.text))),
            ]
        }
    }

    /// The answer to an MQTT start on the result topic (``NodeTopics/kitchenResult``), QoS 1, not
    /// retained: `{"id": ID or null, "ok": true, "label": "Soft", "status": 0, "text": "Soft:
    /// started, rings in 5:00 (pid 42)"}` for a timer that runs; for a refusal `"ok": false`, the
    /// label it was for (or null), the exit status `eggtimer start` would end with for it (64,
    /// 75, …) and its one line.
    /// - Parameters:
    ///   - outcome: How the start went.
    ///   - id: The id its payload carried, or nil.
    /// - Returns: The message.
    func result(_ outcome: KitchenCore.Outcome, id: RequestID?) -> BusMessage {
        var json = JSONText()
        json.object { json in
            json.member("id", orNull: id?.text)
            switch outcome {
            case .started(let status):
                json.member("ok", true)
                json.member("label", status.label)
                json.member("status", 0)
                json.member("text", StartCommand.said(status))
            case .refused(let refusal):
                json.member("ok", false)
                json.member("label", orNull: refusal.label)
                json.member("status", refusal.kind.exitStatus.code)
                json.member("text", refusal.text)
            }
        }
        return BusMessage(topic: topics.kitchenResult, payload: json.bytes, retain: false, qos: 1)
    }

    /// The message of one event of the kitchen's `event` entity: ``KitchenEvent/json`` on
    /// ``NodeTopics/kitchenEvent``, QoS 1, not retained (an event is not a state).
    /// - Parameter event: The event.
    /// - Returns: The message.
    func event(_ event: KitchenEvent) -> BusMessage {
        BusMessage(topic: topics.kitchenEvent, payload: event.json, retain: false, qos: 1)
    }

    /// The broker options a timer the kitchen starts is given, so that it is on the kitchen's
    /// broker under the kitchen's node and prefix even when these came from the kitchen's command
    /// line and not the config file (which the timer reads too).
    ///
    /// The kitchen's own checked options, never words of a request: `--mqtt URL`, `--node N` (the
    /// node name the kitchen uses), `--mqtt-prefix P`, and `--mqtt-cafile`,
    /// `--mqtt-password-file` and the hidden `--mqtt-keepalive` when set; the password itself
    /// reaches the timer only through its file or the inherited environment.
    /// - Parameter options: The kitchen's MQTT options.
    /// - Returns: The arguments; none without `--mqtt`.
    static func timerArguments(_ options: BusOptions) -> [String] {
        guard let url = options.url else { return [] }
        var arguments = ["--mqtt", url, "--node", options.nodeName, "--mqtt-prefix", options.prefix]
        if let caFile = options.caFile { arguments += ["--mqtt-cafile", caFile] }
        if let passwordFile = options.passwordFile { arguments += ["--mqtt-password-file", passwordFile] }
        if options.keepalive != BusOptions().keepalive {
            arguments += ["--mqtt-keepalive", "\(options.keepalive.components.seconds)s"]
        }
        return arguments
    }

    /// The last message of a kitchen ending cleanly: its availability `offline`, retained, so its
    /// entities (kept: the service comes back) show unavailable until it runs again, and another
    /// kitchen of the node that waits takes the starts.
    ///
    /// Also from a kitchen whose claim had not come back yet (its claim may stay retained: the
    /// `offline` says it is nobody's). None from a kitchen that yielded: the other one runs on.
    /// The kitchen hands them to `BusClient.finish(publishing:limit:)` with `BusLink.finishLimit`.
    /// - Returns: The messages.
    func finish() -> [BusMessage] { claim == .held || claim == .claiming ? [will] : [] }
}
