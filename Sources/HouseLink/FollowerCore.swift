package import AlarmAudio
import Glibc
package import HouseBus
package import TimerEngine

/// The decisions of `eggtimer follow`: which of the house's timers ring, what is said, what is
/// published, when the player rings and stops and when the bell rings; no I/O and no clock
/// reads.
///
/// Events go in with the instant (boot clock) and a reading of the wall clock (staleness), and
/// ``FollowerEffect``s come out, in order; ``nextWake(at:wall:)`` says when it must be looked at
/// even if nothing arrives. The executable's `Follower` is its runner. A timer rings while its
/// last state is ringing (or silent), its availability is not `offline` and its state is not
/// stale (not refreshed within three of its promised intervals, judged only while the wall clock
/// is synchronised). A plain value; owned by one thread.
package struct FollowerCore {
    /// What happens to the follower.
    package enum Event: Equatable {
        /// A report of the broker.
        case bus(BusEvent)
        /// A report of the alarm player.
        case audio(AlarmPlayer.Event)
        /// A key was pressed: acknowledge every timer "acknowledge all" covers (ringing, silent or
        /// snoozed: ``TimerState/isCoveredByAcknowledgeAll``).
        case key
        /// A signal arrived: SIGUSR1 acknowledges as a key does; SIGINT, SIGTERM, SIGHUP
        /// and SIGQUIT end the follower (128 + the signal); others are ignored.
        case signal(Int32)
        /// Time passed (the bell, a state going stale).
        case tick
    }

    /// The topic prefix of the house (`eggtimer`).
    package let prefix: String
    /// The follower's own availability topic (`<prefix>/<node>/follow/availability`).
    package let availabilityTopic: String
    /// The timers whose last state "acknowledge all" covers (``TimerState/isCoveredByAcknowledgeAll``:
    /// ringing, silent or snoozed), by `node/label`, with that state.
    private var coveredStates: [String: (topics: TimerTopics, state: TimerStatePayload)] = [:]
    /// The timers whose availability is `offline` (their process died), by `node/label`: the
    /// ringing state they left retained is stale.
    private var offline: Set<String> = []
    /// The keys ringing after the last event (to say which became stale since).
    private var rangLastRound: Set<String> = []
    /// Whether the player was asked to ring (and has not been asked to stop).
    package private(set) var playing = false
    /// Whether the device failed and no frame played since (the terminal bell rings meanwhile).
    package private(set) var deviceDown: Bool
    /// When the fallback bell rang last (boot clock).
    private var lastBell: ContinuousClock.Instant?
    /// Whether the broker is unreachable and this was said.
    private var brokerDown = false

    /// A follower that has seen nothing yet.
    /// - Parameters:
    ///   - prefix: The house's topic prefix.
    ///   - availabilityTopic: The follower's own availability topic.
    ///   - deviceDown: Whether the device failed its trial at start (the bell rings meanwhile).
    package init(prefix: String, availabilityTopic: String, deviceDown: Bool) {
        self.prefix = prefix
        self.availabilityTopic = availabilityTopic
        self.deviceDown = deviceDown
    }

    /// Whether a state is one that rings: `ringing`, or `silent` (ringing on no device).
    /// - Parameter state: A timer's state.
    /// - Returns: Whether the follower rings for it (unless it is offline or stale).
    package static func rings(_ state: TimerStatePayload) -> Bool {
        state.timerState?.isRinging == true
    }

    /// The timers ringing at `wall`: a ringing state, not offline and not stale, by `node/label`.
    /// - Parameter wall: The wall clock's reading.
    /// - Returns: Their topics.
    package func ringing(at wall: WallReading) -> [String: TimerTopics] { live(at: wall, where: Self.rings) }

    /// The timers "acknowledge all" covers at `wall` (the one rule, ``TimerState/isCoveredByAcknowledgeAll``:
    /// ringing, silent or snoozed), not offline and not stale, by `node/label`.
    /// - Parameter wall: The wall clock's reading.
    /// - Returns: Their topics.
    func covered(at wall: WallReading) -> [String: TimerTopics] { live(at: wall) { _ in true } }

    /// The timers of ``coveredStates`` whose state passes `include`, not offline and not stale at
    /// `wall`, by `node/label`: one pass for ``ringing(at:)`` and ``covered(at:)``.
    private func live(at wall: WallReading, where include: (TimerStatePayload) -> Bool) -> [String: TimerTopics] {
        coveredStates.filter { include($0.value.state) && !offline.contains($0.key) && !wall.isStale($0.value.state) }
            .mapValues(\.topics)
    }

    /// The first effects: the subscriptions (availability first, so the retained `offline` of a
    /// dead timer arrives before its stale state), `online`, and the first line.
    /// - Parameter node: The follower's node name, for its line.
    /// - Returns: The effects to carry out before the first event.
    package func start(node: String) -> [FollowerEffect] {
        [
            .subscribe("\(prefix)/+/+/availability"), .subscribe("\(prefix)/+/+/state"),
            .subscribe(availabilityTopic), .publish(BusLink.online(availabilityTopic)),
            .say("following \(prefix)/+/+/state as \(node)"),
        ]
    }

    /// When the follower must be looked at even if nothing arrives: the next bell while the
    /// device is down and it rings, or a millisecond after the first ringing state's stale limit
    /// (none while the wall clock is not synchronised); nil when neither.
    /// - Parameters:
    ///   - now: The boot clock now.
    ///   - wall: The wall clock's reading at `now`.
    /// - Returns: A boot-clock instant, at most a day after `now`; nil for none.
    package func nextWake(at now: ContinuousClock.Instant, wall: WallReading) -> ContinuousClock.Instant? {
        let bell = deviceDown && playing ? (lastBell ?? now).advanced(by: .seconds(1)) : nil
        return [bell, nextStale(at: now, wall: wall)].compactMap { $0 }.min()
    }

    /// A millisecond after the first ringing state's stale limit, on the boot clock.
    private func nextStale(at now: ContinuousClock.Instant, wall: WallReading) -> ContinuousClock.Instant? {
        guard wall.synchronised else { return nil }
        let limits = ringing(at: wall).keys.compactMap { coveredStates[$0]?.state.staleAfterUnixMilliseconds }
        guard let first = limits.min() else { return nil }
        // Both are parsed or read wall times (years 0000–9999): the difference cannot overflow.
        let left = max(0, first - wall.unixMilliseconds + 1)
        return now.advanced(by: .milliseconds(min(left, 86_400_000)))
    }

    /// Takes in one event at `now`.
    /// - Parameters:
    ///   - event: What happened.
    ///   - now: The boot clock now.
    ///   - wall: The wall clock's reading at `now`.
    /// - Returns: What to do, in order; ``FollowerEffect/exit(_:)`` last when it ends.
    package mutating func handle(_ event: Event, at now: ContinuousClock.Instant, wall: WallReading) -> [FollowerEffect]
    {
        var effects: [FollowerEffect] = []
        switch event {
        case .signal(let number) where [SIGINT, SIGTERM, SIGHUP, SIGQUIT].contains(number):
            if playing { effects.append(.stopRinging) }
            playing = false
            effects.append(.exit(.signal(number)))
            return effects
        case .signal(SIGUSR1), .key: acknowledgeAll(at: wall, into: &effects)
        case .signal, .tick: break
        case .bus(let event): handle(event, wall: wall, into: &effects)
        case .audio(let event): handle(event, into: &effects)
        }
        sayStale(at: wall, into: &effects)
        updateRinging(at: now, wall: wall, into: &effects)
        return effects
    }

    /// Says which timers stopped ringing since the last event because their state became stale.
    private mutating func sayStale(at wall: WallReading, into effects: inout [FollowerEffect]) {
        let now = Set(ringing(at: wall).keys)
        for key in rangLastRound.subtracting(now).sorted()
        where coveredStates[key].map({ Self.rings($0.state) }) == true && !offline.contains(key) {
            effects.append(.say("\(key.escapingControlCharacters): stale"))
        }
        rangLastRound = now
    }

    /// One report of the broker: a timer's state or availability, or the connection's health.
    private mutating func handle(_ event: BusEvent, wall: WallReading, into effects: inout [FollowerEffect]) {
        switch event {
        case .connected:
            effects.append(.say(brokerDown ? "connected to the MQTT broker again" : "connected to the MQTT broker"))
            brokerDown = false
            // The retained states arrive again at once; a timer that ended meanwhile is gone.
            coveredStates = [:]
            offline = []
        case .connectionLost(let reason):
            if !brokerDown { effects.append(.warn("warning: MQTT: \(reason); reconnecting")) }
            brokerDown = true
        case .message(let topic, let payload, _) where topic == availabilityTopic:
            // Another follower of this node ended (its offline, then its clear) or died (its Last
            // Will): this one still runs.
            if payload.isEmpty || payload == Array("offline".utf8) {
                effects.append(.publish(BusLink.online(availabilityTopic)))
            }
        case .message(let topic, let payload, _):
            message(topic: topic, payload: payload, wall: wall, into: &effects)
        case .notice(let text):
            effects.append(.warn("MQTT: \(text)"))
        case .published:
            break
        }
    }

    /// A timer's state or availability message; says which timers start or stop ringing.
    private mutating func message(
        topic: String, payload: [UInt8], wall: WallReading, into effects: inout [FollowerEffect]
    ) {
        guard let (topics, kind) = TimerTopics.parse(topic, prefix: prefix), topics.label != BusOptions.followerLabel
        else { return }
        let key = "\(topics.node)/\(topics.label)"
        let wasRinging = ringing(at: wall)[key] != nil
        var said = "offline"
        switch kind {
        case "state" where payload.isEmpty:
            coveredStates[key] = nil
            said = "ended"
        case "state":
            guard let state = TimerStatePayload.parse(payload) else {
                effects.append(.warn("ignored a malformed state on \(topic)"))
                return
            }
            let rings = Self.rings(state)
            coveredStates[key] = state.timerState?.isCoveredByAcknowledgeAll == true ? (topics, state) : nil
            said = rings && wall.isStale(state) ? "stale" : state.state
        case "availability" where payload == Array("offline".utf8): offline.insert(key)
        case "availability": offline.remove(key)
        default: return
        }
        let rings = ringing(at: wall)[key] != nil
        if rings != wasRinging || (said == "stale" && !rings) {
            effects.append(
                .say("\(key.escapingControlCharacters): \((rings ? "ringing" : said).escapingControlCharacters)"))
        }
        if rings { rangLastRound.insert(key) } else { rangLastRound.remove(key) }
    }

    /// A report of the alarm player.
    private mutating func handle(_ event: AlarmPlayer.Event, into effects: inout [FollowerEffect]) {
        switch event {
        case .firstFrame: deviceDown = false
        case .deviceRecovered(let device):
            // Said as its loss was (found by a tester: only the stall was logged).
            if deviceDown { effects.append(.say("audio device back (\(device.escapingControlCharacters))")) }
            deviceDown = false
        case .deviceUnavailable(let error), .stalled(let error):
            if !deviceDown { effects.append(.warn("warning: \(error); the terminal bell rings instead")) }
            deviceDown = true
        case .hung(let error):
            effects.append(.warn("warning: \(error)"))
            deviceDown = true
            playing = false
        case .finished, .stopped:
            playing = false
        }
    }

    /// Starts the alarm while any timer rings, stops it when none does; rings the bell each
    /// second while the device is down.
    private mutating func updateRinging(
        at now: ContinuousClock.Instant, wall: WallReading, into effects: inout [FollowerEffect]
    ) {
        let ringing = !ringing(at: wall).isEmpty
        if ringing, !playing {
            playing = true
            effects.append(.startRinging)
        } else if !ringing, playing {
            playing = false
            effects.append(.stopRinging)
        }
        if playing, deviceDown, lastBell.map({ now >= $0.advanced(by: .seconds(1)) }) ?? true {
            lastBell = now
            effects.append(.ringBell)
        }
    }

    /// Sends `ack` to every timer "acknowledge all" covers (ringing, silent or snoozed), in the
    /// order of their keys.
    private func acknowledgeAll(at wall: WallReading, into effects: inout [FollowerEffect]) {
        for (key, topics) in covered(at: wall).sorted(by: { $0.key < $1.key }) {
            effects.append(
                .publish(BusMessage(topic: topics.command, payload: Array("ack".utf8), retain: false, qos: 1)))
            effects.append(.say("\(key.escapingControlCharacters): ack sent"))
        }
    }
}
