import ControlChannel
import EventLoop
import HouseBus
import HouseLink
import KitchenWeb
import TimerEngine
import TimerModel

// The kitchen's side of `--mqtt`: it feeds the broker's reports to its reducer (KitchenBus) and
// carries out the reducer's effects; a start becomes `start(_:id:from: .bus(id:))`, the one entry
// every front uses, whose answer is the kitchen's log line and a message on the result topic.

extension Kitchen {
    /// Connects the kitchen to the broker (``KitchenBus/open(options:presets:configurationURL:at:)``) and keeps the
    /// reducer and the client in ``bus``.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - presets: The presets' display names: an egg button each.
    ///   - now: The boot clock's reading.
    /// - Returns: The client, for the event loop.
    /// - Throws: `ExitStatus` as ``KitchenBus/open(options:presets:configurationURL:at:)`` does.
    func openBus(_ options: BusOptions, presets: [String], at now: ContinuousClock.Instant)
        throws(ExitStatus) -> BusClient
    {
        let url = Self.pageURL(settings.web, hostname: RequestGuard.currentHostname())
        let opened = try KitchenBus.open(options: options, presets: presets, configurationURL: url, at: now)
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
            case .leftover(let label): clearLeftoversIfForgotten(label)
            case .subscribe, .publish, .log: break
            }
        }
    }

    /// Watches the records' folder for removals (a timer forgotten: ``clearForgottenLeftovers()``),
    /// making it first if need be; when it cannot be watched, one line says that a dead timer's
    /// leftovers are cleared only when the kitchen next starts.
    func watchRecords() {
        guard let store = RecordStore.current(), (try? store.prepare()) != nil,
            let watch = FolderWatch(folder: store.folder, events: FolderWatch.removals)
        else {
            say(
                "kitchen: cannot watch the timers' records: what a timer that died left on the broker is cleared "
                    + "only when the kitchen starts again")
            return
        }
        loop.add(watch, as: Input.fileRemoved)
    }

    /// A record was removed: each dead timer of the node that is forgotten now has its leftovers
    /// cleared (``clearLeftoversIfForgotten(_:)``).
    func clearForgottenLeftovers() {
        guard let bus else { return }
        for label in bus.reducer.leftovers.offline.sorted() { clearLeftoversIfForgotten(label) }
    }

    /// Clears what the dead timer `label` left on the broker (``KitchenBus/clearLeftovers(_:)``)
    /// once it is forgotten: no record of its label is kept (`eggtimer recover` could start it
    /// again: its entities show it unavailable meanwhile) and no timer of its label runs or is
    /// starting here.
    /// - Parameter label: The timer's label, as its topics name it.
    func clearLeftoversIfForgotten(_ label: String) {
        let socket = ControlServer.socketName(for: label)
        guard var bus, core.timers[socket] == nil, core.starting[socket] == nil else { return }
        if RecordStore.current()?.names().contains(RecordStore.fileName(label: label)) == true { return }
        let effects = bus.reducer.clearLeftovers(label)
        self.bus = bus
        performBus(effects)
    }

    /// Publishes the answer to an MQTT start on the result topic (``KitchenBus/result(_:id:)``).
    /// - Parameters:
    ///   - outcome: How the start went.
    ///   - id: The id its payload carried, or nil.
    func answerBus(_ outcome: KitchenCore.Outcome, id: RequestID?) {
        guard let bus else { return }
        bus.reducer.perform([.publish(bus.reducer.result(outcome, id: id))], on: bus.client)
    }

    /// Publishes `event` for the kitchen's Home Assistant `event` entity (``KitchenBus/event(_:)``),
    /// while this kitchen holds the node's starts; nothing without `--mqtt`.
    /// - Parameter event: The event.
    func publishEvent(_ event: KitchenEvent) {
        guard let bus, bus.reducer.claim == .held else { return }
        bus.reducer.perform([.publish(bus.reducer.event(event))], on: bus.client)
    }

    /// The end on the broker: the kitchen's availability `offline` (retained, its entities kept),
    /// waiting at most `BusLink.finishLimit` for it to leave, then disconnecting.
    func finishBus() {
        guard let bus else { return }
        bus.client.finish(publishing: bus.reducer.finish(), limit: BusLink.finishLimit)
        self.bus = nil
    }
}
