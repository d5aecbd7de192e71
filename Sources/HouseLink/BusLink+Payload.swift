import ControlChannel
package import HouseBus
package import TimerEngine
package import TimerModel

// The link's pure helpers: its topics, the state payload of a snapshot, when a state is news or
// due, whose the retained state is, and the fixed messages (online, leaving, the retained
// command's log line). No I/O.

extension BusLink {
    /// The topics of the timer `label` on this node: the label as it is (``TimerTopics`` escapes
    /// it injectively), `timer` for an empty one.
    package static func topics(_ options: BusOptions, label: String) -> TimerTopics {
        TimerTopics(prefix: options.prefix, node: options.nodeName, label: label.isEmpty ? "timer" : label)
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
    package static func isHeldByAnother(
        _ state: TimerStatePayload?, gone: Bool, instance: String, clock: HouseClock = .system
    ) -> Bool {
        guard let state, state.instance != instance, !gone, !isFinal(state.state) else { return false }
        return !clock.isStale(state)
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
    package static func payload(
        _ snapshot: TimerSnapshot, topics: TimerTopics, instance: String? = nil,
        published: (unixMilliseconds: Int64, synchronised: Bool)? = nil
    ) -> TimerStatePayload? {
        TimerStatePayload(snapshot, topics: topics, instance: instance, published: published, interval: refreshPeriod)
    }

    /// Whether `new` says something `old` did not: another state, length, deadline or `silent`
    /// reason (the time left alone changes all the time and is refreshed by ``refreshPeriod``).
    package static func differs(_ new: TimerStatePayload, from old: TimerStatePayload) -> Bool {
        guard new.state == old.state, new.durationSeconds == old.durationSeconds, new.label == old.label,
            new.silent == old.silent
        else {
            return true
        }
        switch (new.deadlineUnixMilliseconds, old.deadlineUnixMilliseconds) {
        case (nil, nil): return false
        case (let a?, let b?): return abs(a - b) > deadlineTolerance
        default: return true
        }
    }

    /// Whether `payload` is to be published at `now`: nothing was yet, it differs from the last
    /// one (``differs(_:from:)``), or ``refreshPeriod`` has passed since.
    /// - Parameters:
    ///   - payload: The state now.
    ///   - last: The last state published and when (boot clock), if any.
    ///   - now: The boot clock's reading.
    /// - Returns: Whether to publish.
    package static func isDue(
        _ payload: TimerStatePayload, after last: (payload: TimerStatePayload, at: ContinuousClock.Instant)?,
        at now: ContinuousClock.Instant
    ) -> Bool {
        guard let last else { return true }
        return differs(payload, from: last.payload) || now >= last.at.advanced(by: refreshPeriod)
    }

    /// The log line for a retained command ignored on `topic`: its payload (at most
    /// ``BusCommand/byteLimit`` bytes, control characters escaped) and how to clear it.
    package static func retainedCommandLine(_ topic: String, _ payload: [UInt8]) -> String {
        let text = String(decoding: payload.prefix(BusCommand.byteLimit), as: UTF8.self).escapingControlCharacters
        let shown = topic.escapingControlCharacters
        return "ignored a retained MQTT command on \(shown) ('\(text)'): commands are not kept; "
            + "clear it with mosquitto_pub -r -n -t '\(shown)'"
    }

    /// The retained `online` on the availability topic `availability` (a timer's or a follower's).
    package static func online(_ availability: String) -> BusMessage {
        BusMessage(topic: availability, payload: Array("online".utf8), retain: true, qos: 1)
    }

    /// A clean end's availability messages: `offline` for those listening now (not retained),
    /// then the retained `online` cleared (an empty retained payload), so nothing stays behind.
    ///
    /// The Last Will stays a retained `offline`: a process that dies shows offline until it runs again.
    /// - Parameter availability: The availability topic.
    /// - Returns: The two messages, in order (QoS 1).
    package static func leaving(_ availability: String) -> [BusMessage] {
        [
            BusMessage(topic: availability, payload: Array("offline".utf8), retain: false, qos: 1),
            BusMessage(topic: availability, payload: [], retain: true, qos: 1),
        ]
    }

    /// Whether a state name is a final one (done, cancelled, missed).
    package static func isFinal(_ state: String) -> Bool { TimerState(rawValue: state)?.isFinal ?? false }
}
