import HouseBus
import HouseLink
import SystemKit
import TimerEngine

// The session's side of `--mqtt`: it feeds the link (BusLink, a pure reducer) the broker's
// reports and the timer's state after each round, and carries out the link's effects: publishing
// through the client the event loop polls, and saying its notices.

extension Session {
    /// The timer's state as the broker's retained state topic carries it: the round's snapshot,
    /// published at `now`; nil in the menu.
    func statePayload(at now: ContinuousClock.Instant) -> TimerStatePayload? {
        guard let link else { return nil }
        let wall = Self.wall(at: now, clock).unixNanoseconds / 1_000_000
        return BusLink.payload(
            snapshot, topics: link.topics, instance: link.instance, published: (wall, ClockSync.isSynchronised()))
    }

    /// Publishes the timer's state when it changed (or is due again); nothing without `--mqtt`.
    ///
    /// Once the controller has exited, ``finishBus()`` publishes the final state instead.
    /// - Parameter now: Publish it even if unchanged (``Effect/publishState``: MQTT `status`).
    mutating func publishState(now: Bool = false) {
        guard var link else { return }
        if case .exited = controller.mode { return }
        let instant = clock.now()
        let effects = link.update(statePayload(at: instant), at: instant, force: now)
        self.link = link
        carryOut(effects)
    }

    /// Hands the broker's reports in `inputs` to the link and carries out its effects; this
    /// timer's commands take their place as ``Input/command(_:from:connection:)`` from `.mqtt`.
    /// - Returns: The inputs for the controller, in order.
    mutating func routeBus(_ inputs: [Input]) -> [Input] {
        guard var link else { return inputs }
        var routed: [Input] = []
        for input in inputs {
            guard case .bus(let event) = input else {
                routed.append(input)
                continue
            }
            let step = link.handle(event, at: clock.now())
            carryOut(step.effects)
            routed += step.commands.map { .command($0, from: .mqtt, connection: nil) }
        }
        self.link = link
        return routed
    }

    /// Carries out the link's effects in order: publishes through the loop's ``BusClient`` (never
    /// blocks), and says notices: a warning on the UI (which puts `warning: ` in front) or on
    /// standard error, the connection back by taking the warning off the UI or on standard error,
    /// a log line on standard error only while no UI is on.
    private mutating func carryOut(_ effects: [BusEffect]) {
        for effect in effects {
            switch effect {
            case .publish(let message):
                loop.first(BusClient.self)?.publish(message)
            case .notice(.warning(let text)):
                guard terminal.hasScreen else {
                    printError("eggtimer: warning: " + text)
                    continue
                }
                // One line about the broker on screen: the latest.
                view.messages.removeAll { $0.hasPrefix("MQTT: ") }
                view.messages.append(text)
            case .notice(.restored(let text)):
                guard terminal.hasScreen else {
                    printError("eggtimer: " + text)
                    continue
                }
                view.messages.removeAll { $0.hasPrefix("MQTT: ") }
            case .notice(.log(let text)):
                if !terminal.hasScreen { printError("eggtimer: " + text) }
            }
        }
    }

    /// The end of the run on the broker: the final state, then the retained messages cleared and
    /// the availability offline (``BusLink/finish(final:)``); waits at most ``BusLink/finishLimit``
    /// for them to leave, then disconnects.
    mutating func finishBus() {
        guard let link else { return }
        let messages = link.finish(final: statePayload(at: clock.now()))
        loop.first(BusClient.self)?.finish(publishing: messages, limit: BusLink.finishLimit)
        self.link = nil
    }
}
