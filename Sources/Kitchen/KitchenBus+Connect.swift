import HouseBus
import HouseLink
import SystemKit
import TimerEngine
import TimerText

// The kitchen's broker connection: the client with its Last Will, made once at start. The only
// part of the kitchen's bus that touches the outside; the reducer never sees the client.

extension KitchenBus {
    /// Connects to the broker (asynchronously) as this node's kitchen: a client with the Last
    /// Will (`offline` on the kitchen's availability), its subscriptions and its retained
    /// `online` and discovery configs queued (``start()``), started.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - presets: The presets' display names (``init(topics:presets:configurationURL:instance:)``).
    ///   - configurationURL: The kitchen's page (``configurationURL``), or nil.
    ///   - now: The boot clock's reading.
    /// - Returns: The reducer and the client, which the caller adds to the event loop (a
    ///   `LoopSource`: its reports come as `Input.bus`) and carries the reducer's effects out
    ///   through (``perform(_:on:)``). Main thread.
    /// - Throws: `ExitStatus`, as `BusLink.connect` does, one line on standard error saying why.
    static func open(
        options: BusOptions, presets: [String], configurationURL: String?, at now: ContinuousClock.Instant
    ) throws(ExitStatus) -> (bus: KitchenBus, client: BusClient) {
        let bus = KitchenBus(
            topics: NodeTopics(prefix: options.prefix, node: options.nodeName), presets: presets,
            configurationURL: configurationURL)
        let client = try BusLink.connect(
            options, clientName: "\(bus.topics.node.prefix(16))-\(NodeTopics.kitchenLabel)", will: bus.will)
        _ = bus.perform(bus.start(), on: client)  // subscriptions and publications only
        client.start(at: now)
        return (bus, client)
    }

    /// Carries out the effects that reach the broker or standard error, in order; returns the
    /// others (starts, the kitchen's log lines, leftovers to look at) for the kitchen to carry out.
    /// - Parameters:
    ///   - effects: The reducer's effects.
    ///   - client: The kitchen's broker client.
    /// - Returns: The ``KitchenBusEffect/start(_:)``, ``KitchenBusEffect/say(_:)`` and
    ///   ``KitchenBusEffect/leftover(_:)`` effects among `effects`, in order.
    @discardableResult
    func perform(_ effects: [KitchenBusEffect], on client: BusClient) -> [KitchenBusEffect] {
        var rest: [KitchenBusEffect] = []
        for effect in effects {
            switch effect {
            case .subscribe(let filter): client.subscribe(filter, qos: 1)
            case .publish(let message): client.publish(message)
            case .log(let line): printError("eggtimer: " + line)
            case .start, .say, .leftover: rest.append(effect)
            }
        }
        return rest
    }
}
