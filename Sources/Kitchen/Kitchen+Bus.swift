import HouseBus
import HouseLink
import TimerEngine
import TimerModel

// The kitchen's side of `--mqtt`: it feeds the broker's reports to its reducer (KitchenBus) and
// carries out the reducer's effects; a start becomes `start(_:id:from: .bus(id:))`, the one entry
// every front uses, whose answer is the kitchen's log line and a message on the result topic.

extension Kitchen {
    /// Connects the kitchen to the broker (``KitchenBus/open(options:presets:at:)``) and keeps the
    /// reducer and the client in ``bus``.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - presets: The presets' display names: an egg button each.
    ///   - now: The boot clock's reading.
    /// - Returns: The client, for the event loop.
    /// - Throws: `ExitStatus` as ``KitchenBus/open(options:presets:at:)`` does.
    func openBus(_ options: BusOptions, presets: [String], at now: ContinuousClock.Instant)
        throws(ExitStatus) -> BusClient
    {
        let opened = try KitchenBus.open(options: options, presets: presets, at: now)
        bus = (opened.bus, opened.client)
        return opened.client
    }

    /// One broker report: the reducer's effects carried out, its starts handed to
    /// ``start(_:id:from:)`` with their ids.
    /// - Parameter event: What the client reported.
    func handleBus(_ event: BusEvent) {
        guard var bus else { return }
        webBusMessage(event)
        let effects = bus.reducer.handle(event, at: clock.now())
        self.bus = bus
        performBus(effects)
    }

    /// Each round: a kitchen that waits for another to be gone takes the node's starts when due
    /// (``KitchenBus/expire(at:)``).
    /// - Parameter now: The boot clock's reading.
    func busRound(at now: ContinuousClock.Instant) {
        guard var bus, let due = bus.reducer.nextCheck, now >= due else { return }
        let effects = bus.reducer.expire(at: now)
        self.bus = bus
        performBus(effects)
    }

    /// Carries out the reducer's effects: the broker's and standard error's through
    /// ``KitchenBus/perform(_:on:)``, then its log lines and starts here, in order.
    private func performBus(_ effects: [KitchenBusEffect]) {
        guard let bus else { return }
        for effect in bus.reducer.perform(effects, on: bus.client) {
            switch effect {
            case .say(let line): say(line)
            case .start(let payload): start(payload.request, id: payload.id, from: .bus(id: payload.id))
            case .subscribe, .publish, .log: break
            }
        }
    }

    /// Publishes the answer to an MQTT start on the result topic (``KitchenBus/result(_:id:)``).
    /// - Parameters:
    ///   - outcome: How the start went.
    ///   - id: The id its payload carried, or nil.
    func answerBus(_ outcome: KitchenCore.Outcome, id: RequestID?) {
        guard let bus else { return }
        bus.reducer.perform([.publish(bus.reducer.result(outcome, id: id))], on: bus.client)
    }

    /// The end on the broker: the kitchen's availability `offline` (retained, its entities kept),
    /// waiting at most `BusLink.finishLimit` for it to leave, then disconnecting.
    func finishBus() {
        guard let bus else { return }
        bus.client.finish(publishing: bus.reducer.finish(), limit: BusLink.finishLimit)
        self.bus = nil
    }
}
