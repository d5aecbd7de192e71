import HouseBus

// The session's side of `--mqtt`: what it publishes after each round, and what it does with the
// broker's reports (BusLink).

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
        guard link != nil else { return }
        if case .exited = controller.mode { return }
        let instant = clock.now()
        let payload = statePayload(at: instant)
        link?.update(payload, at: instant, force: now)
    }

    /// Takes the broker's reports out of `inputs` and says its notices: a warning on the UI (which
    /// puts `warning: ` in front) or on standard error, the connection back by taking the warning
    /// off the UI or on standard error, an ignored payload on standard error only while no UI is on.
    /// - Returns: The inputs for the controller, with this timer's commands.
    mutating func routeBus(_ inputs: [Input]) -> [Input] {
        guard var link else { return inputs }
        let routed = link.route(inputs)
        for notice in link.takeNotices() {
            switch notice {
            case .warning(let text):
                guard terminal.hasScreen else {
                    printError("eggtimer: warning: " + text)
                    continue
                }
                // One line about the broker on screen: the latest.
                view.messages.removeAll { $0.hasPrefix("MQTT: ") }
                view.messages.append(text)
            case .restored(let text):
                guard terminal.hasScreen else {
                    printError("eggtimer: " + text)
                    continue
                }
                view.messages.removeAll { $0.hasPrefix("MQTT: ") }
            case .log(let text):
                if !terminal.hasScreen { printError("eggtimer: " + text) }
            }
        }
        self.link = link
        return routed
    }

    /// The end of the run on the broker: the final state, then the retained messages cleared and
    /// the availability offline; waits at most ``BusLink/finishLimit``.
    mutating func finishBus() {
        guard let link else { return }
        link.finish(final: statePayload(at: clock.now()))
        self.link = nil
    }
}
