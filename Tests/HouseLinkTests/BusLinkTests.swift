import ControlChannel
import HouseBus
import Synchronization
import Testing
import TimerModel

@testable import HouseLink
@testable import TimerEngine

/// Any instant will do: nothing here reads a clock or sleeps.
private let t0 = ContinuousClock.now

/// The MQTT link as a pure reducer (issue 23): broker reports and states in, commands and
/// effects out, on injected instants, with no broker and no client.
@Suite struct BusLinkTests {
    private let topics = TimerTopics(prefix: "eggtimer", node: "kitchen", label: "tea")
    private static let me = "00000000000000aa"
    private static let other = "0123456789abcdef"

    /// A link of kitchen/tea that has seen nothing yet.
    private func fresh() -> BusLink { BusLink(topics: topics, instance: Self.me) }

    /// Everything `events` make the link do, in order.
    private func feed(_ link: inout BusLink, _ events: [BusEvent], at now: ContinuousClock.Instant = t0)
        -> BusLink.Step
    {
        var all = BusLink.Step()
        for event in events {
            let step = link.handle(event, at: now)
            all.commands += step.commands
            all.effects += step.effects
        }
        return all
    }

    /// The messages among `effects`.
    private func published(_ effects: [BusEffect]) -> [BusMessage] {
        effects.compactMap { if case .publish(let message) = $0 { message } else { nil } }
    }

    /// The notices among `effects`.
    private func notices(_ effects: [BusEffect]) -> [BusEffect.Notice] {
        effects.compactMap { if case .notice(let notice) = $0 { notice } else { nil } }
    }

    /// A link that sees `state` retained on its state topic, then its probe back.
    private func linkSeeing(_ state: TimerStatePayload?) -> (BusLink, BusLink.Step) {
        var link = fresh()
        var events: [BusEvent] = [.connected]
        if let state { events.append(.message(topic: topics.state, payload: state.json(), retained: true)) }
        events.append(.message(topic: link.probe, payload: Array("probe".utf8)))
        let step = feed(&link, events)
        return (link, step)
    }

    /// A link holding its topics (the probe back, nothing on them).
    private func held() -> BusLink { linkSeeing(nil).0 }

    /// A counting state of kitchen/tea published by `instance`.
    private static func counting(instance: String?, state: String = "counting") -> TimerStatePayload {
        TimerStatePayload(
            state: state, label: "tea", node: "kitchen", durationSeconds: 240, remainingSeconds: 100,
            deadlineUnixMilliseconds: 10_000, instance: instance)
    }

    /// The retained state message of `payload`, as the link publishes it.
    private func stateMessage(_ payload: TimerStatePayload) -> BusEffect {
        .publish(
            BusMessage(topic: topics.state, payload: payload.json(), retain: true, qos: 1, expiry: BusLink.stateExpiry))
    }

    /// What taking the topics publishes: `online`, then the discovery configs, then the node's
    /// configs, its `online` and its ringing state (`OFF`: none rings), all retained.
    private var taking: [BusEffect] {
        let node = NodeTopics(of: topics)
        return [.publish(BusLink.online(topics.availability))]
            + HomeAssistantDiscovery.configs(for: topics).map(BusEffect.publish)
            + HomeAssistantDiscovery.nodeConfigs(for: node).map(BusEffect.publish)
            + [
                .publish(BusLink.online(node.availability)),
                .publish(NodeRinging.message(false, on: node)),
            ]
    }

    @Test func theProbeIsThePrefixsProbeTopicOfTheInstance() {
        #expect(fresh().probe == "eggtimer/probe/\(Self.me)")
    }

    /// Connected, it publishes only its probe; the probe back with the topics free, it takes them:
    /// `online` and the discovery configs, then its state at the next update.
    @Test func theProbeThenOnlineAndDiscoveryWhenTheTopicsAreFree() {
        var link = fresh()
        let mine = Self.counting(instance: Self.me)
        #expect(link.update(mine, at: t0).isEmpty && link.nextRefresh == nil && link.claim == .looking)
        #expect(link.finish(final: mine).isEmpty)
        let connected = feed(&link, [.connected])
        #expect(
            connected
                == .init(effects: [
                    .publish(BusMessage(topic: link.probe, payload: Array("probe".utf8), retain: false, qos: 1))
                ]))
        #expect(link.claim == .looking)
        let back = feed(&link, [.message(topic: link.probe, payload: Array("probe".utf8))])
        #expect(back == .init(effects: taking))
        #expect(link.claim == .held)
        #expect(link.update(mine, at: t0 + .milliseconds(5)) == [stateMessage(mine)])
        #expect(link.nextRefresh == t0 + .milliseconds(5) + BusLink.refreshPeriod)
        // A second probe back (a reconnect's) takes nothing again.
        #expect(feed(&link, [.message(topic: link.probe, payload: [])]).effects.isEmpty)
    }

    /// Issue 45: after a reconnect the node's ringing state waits for the probe.
    ///
    /// The broker's copy arriving first (a short outage) leaves nothing to say, none (a broker restart) makes
    /// the keeper say it once. A timer that is not the keeper never says it.
    @Test func afterAReconnectTheKeeperSaysTheRingingStateOnlyWhenTheBrokerLostIt() {
        var link = held()
        let node = NodeTopics(of: topics)
        let rice = TimerTopics(node: "kitchen", label: "rice")
        let ringing = Self.counting(instance: Self.me, state: "ringing")
        let rings = feed(&link, [.message(topic: topics.state, payload: ringing.json())])
        #expect(published(rings.effects) == [NodeRinging.message(true, on: node)])
        let probe = BusMessage(topic: link.probe, payload: Array("probe".utf8), retain: false, qos: 1)
        // A short outage: the broker's ON comes back before the probe.
        _ = feed(&link, [.connectionLost("gone")])
        let blip = feed(
            &link,
            [
                .connected, .message(topic: topics.state, payload: ringing.json(), retained: true),
                .message(topic: node.ringing, payload: NodeRinging.on, retained: true),
                .message(topic: link.probe, payload: []),
            ])
        #expect(published(blip.effects) == [probe])
        // A broker restart: nothing retained, the state replayed before the probe: ON once, after it.
        _ = feed(&link, [.connectionLost("gone")])
        let restart = feed(
            &link,
            [
                .connected, .message(topic: topics.state, payload: ringing.json()),
                .message(topic: link.probe, payload: []),
            ])
        #expect(published(restart.effects) == [probe, NodeRinging.message(true, on: node)])
        // rice comes online: it keeps the node's ringing state now, tea says nothing more.
        let quiet = feed(
            &link,
            [
                .message(topic: rice.availability, payload: Array("online".utf8)),
                .message(topic: topics.state, payload: Self.counting(instance: Self.me, state: "done").json()),
            ])
        #expect(published(quiet.effects).isEmpty)
        let last = link.finish(final: nil)
        #expect(!last.isEmpty && last.allSatisfy { $0.topic != node.ringing })
    }

    @Test func aReconnectMakesAFreshStateDueAtOnce() {
        var link = held()
        let state = Self.counting(instance: Self.me)
        let first = link.update(state, at: t0)
        _ = feed(&link, [.connectionLost("gone"), .connected])
        let connectedAtOnce = link.update(state, at: t0 + .milliseconds(300))
        let unchanged = link.update(state, at: t0 + .seconds(20))
        _ = feed(&link, [.connectionLost("gone"), .connected])
        let reconnected = link.update(state, at: t0 + .seconds(21))
        let again = link.update(state, at: t0 + .seconds(22))
        #expect(first == [stateMessage(state)] && unchanged.isEmpty, "nothing new: refreshed only after a minute")
        #expect(connectedAtOnce.isEmpty, "the state replayed on reconnecting within a second is fresh enough")
        #expect(reconnected == [stateMessage(state)], "the replayed retained state is stale: publish a fresh one now")
        #expect(again.isEmpty)
    }

    /// After an outage: `restored` once (not for a second `connected`), a probe for each (the
    /// node's ringing state waits for it: issue 45), the claim kept, and the state due at once.
    @Test func connectedAfterAnOutageSaysRestoredOnceAndTheStateIsDueAtOnce() {
        var link = held()
        let state = Self.counting(instance: Self.me)
        _ = link.update(state, at: t0)
        let lost = feed(&link, [.connectionLost("broker gone"), .connectionLost("broker gone")], at: t0 + .seconds(5))
        #expect(notices(lost.effects).count == 1 && published(lost.effects).isEmpty)
        let back = feed(&link, [.connected, .connected], at: t0 + .seconds(9))
        let probe = BusEffect.publish(
            BusMessage(topic: link.probe, payload: Array("probe".utf8), retain: false, qos: 1))
        #expect(back.effects == [.notice(.restored("MQTT: connected to the broker again")), probe, probe])
        #expect(link.claim == .held)
        #expect(link.update(state, at: t0 + .seconds(9)) == [stateMessage(state)])
    }

    /// MQTT `status`: the state is published at once though nothing changed, and only when held.
    @Test func aForcedUpdatePublishesAnUnchangedStateAtOnce() {
        var link = fresh()
        let state = Self.counting(instance: Self.me)
        let early = link.update(state, at: t0, force: true)
        _ = feed(&link, [.connected, .message(topic: link.probe, payload: [])])
        let first = link.update(state, at: t0)
        let unchanged = link.update(state, at: t0 + .seconds(5))
        let forced = link.update(state, at: t0 + .seconds(5), force: true)
        let after = link.update(state, at: t0 + .seconds(6))
        #expect(early.isEmpty, "not before the topics are held")
        #expect(first == [stateMessage(state)] && unchanged.isEmpty && forced == [stateMessage(state)])
        #expect(after.isEmpty, "and the minute's refresh counts from it")
    }

    @Test func anUnchangedStateIsRefreshedAfterSixtySecondsAndAFinalOneNever() {
        var link = held()
        let state = Self.counting(instance: Self.me)
        _ = link.update(state, at: t0)
        #expect(link.nextRefresh == t0 + .seconds(60))
        #expect(link.update(state, at: t0 + .seconds(59)).isEmpty)
        #expect(link.update(state, at: t0 + .seconds(60)) == [stateMessage(state)])
        #expect(link.nextRefresh == t0 + .seconds(120))
        let done = Self.counting(instance: Self.me, state: "done")
        #expect(link.update(done, at: t0 + .seconds(61)) == [stateMessage(done)])
        #expect(link.nextRefresh == nil)
    }

    @Test func theMenuAgainClearsItsOwnRetainedState() {
        var link = held()
        #expect(link.update(nil, at: t0).isEmpty, "nothing published yet: nothing to clear")
        _ = link.update(Self.counting(instance: Self.me), at: t0)
        #expect(
            link.update(nil, at: t0 + .seconds(1)) == [
                .publish(BusMessage(topic: topics.state, payload: [], retain: true, qos: 1))
            ])
        #expect(link.update(nil, at: t0 + .seconds(2)).isEmpty && link.nextRefresh == nil)
    }

    @Test func itsOwnStateBackIsClearedAtTheEndWithTheAvailabilityAndDiscovery() {
        var link = held()
        let mine = Self.counting(instance: Self.me)
        _ = link.update(mine, at: t0 + .milliseconds(5))
        _ = feed(&link, [.message(topic: topics.state, payload: mine.json())])
        let done = Self.counting(instance: Self.me, state: "done")
        let final = link.finish(final: done)
        // The discovery configs go before the state is cleared (issue 45): Home Assistant drops
        // the sensors, so the clear reaches none of them.
        #expect(
            final
                == [BusMessage(topic: topics.state, payload: done.json(), retain: false, qos: 1)]
                + HomeAssistantDiscovery.removals(for: topics)
                + [BusMessage(topic: topics.state, payload: [], retain: true, qos: 1)]
                // The last timer of the node it saw: the node's entities stay, said offline.
                + [
                    BusMessage(
                        topic: NodeTopics(of: topics).availability, payload: Array("offline".utf8), retain: true,
                        qos: 1)
                ] + BusLink.leaving(topics.availability))
        #expect(link.finish(final: nil) == Array(final.dropFirst()), "no final state: the rest alike")
    }

    /// Issue 20: the client's word that the broker refused MQTT 5 (so states carry no expiry) is
    /// a log line, not a warning on the screen: the timer works as before.
    @Test func theFallbackToMQTT311IsALogLineNotAWarning() {
        var link = fresh()
        let text = "broker mqtt://127.0.0.1:1 does not speak MQTT 5: using MQTT 3.1.1 with it"
        #expect(feed(&link, [.notice(text)]) == .init(effects: [.notice(.log("MQTT: " + text))]))
    }

    @Test func aLiveStateOfAnotherInstanceMakesItWarnOnceAndStayOffUntilThatTimerIsGone() {
        var (link, seeing) = linkSeeing(Self.counting(instance: Self.other))
        #expect(link.claim == .yielded)
        #expect(published(seeing.effects).count == 1, "only its probe: nothing on the topics")
        let warnings = notices(seeing.effects)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.first.map { if case .warning(let text) = $0 { text.contains("kitchen/tea") } else { false } }
                == true)
        let mine = Self.counting(instance: Self.me)
        #expect(link.update(mine, at: t0 + .seconds(1)).isEmpty && link.nextRefresh == nil)
        #expect(link.finish(final: mine).isEmpty, "it clears nothing of the other timer's")
        // The other timer's commands are not for this one, retained or not: nothing is said either.
        let refused = feed(
            &link,
            [
                .message(topic: topics.command, payload: Array("cancel".utf8)),
                .message(topic: topics.command, payload: Array("ack".utf8), retained: true),
                .message(topic: topics.command, payload: Array("nonsense".utf8)),
            ])
        #expect(refused == .init())
        // Reconnecting, it looks again and stays off without a second warning.
        let again = feed(
            &link,
            [
                .connectionLost("gone"), .connected,
                .message(topic: topics.state, payload: Self.counting(instance: Self.other).json()),
                .message(topic: link.probe, payload: []),
            ])
        #expect(link.claim == .yielded)
        #expect(
            !notices(again.effects).contains {
                if case .warning(let text) = $0 { text.contains("another") } else { false }
            })
        // The other timer ends (its availability offline): this one looks again and takes the topics.
        let gone = feed(&link, [.message(topic: topics.availability, payload: Array("offline".utf8))])
        #expect(link.claim == .looking)
        #expect(
            gone.effects == [
                .publish(BusMessage(topic: link.probe, payload: Array("probe".utf8), retain: false, qos: 1))
            ])
        let taken = feed(&link, [.message(topic: link.probe, payload: [])])
        #expect(link.claim == .held && taken.effects == taking)
        #expect(link.update(mine, at: t0 + .seconds(2)) == [stateMessage(mine)])
        // Its own state is not back yet, the other's is the last seen: nothing is cleared.
        #expect(link.finish(final: nil).isEmpty)
        _ = feed(&link, [.message(topic: topics.state, payload: mine.json())])
        #expect(!link.finish(final: nil).isEmpty)
        // Someone else's state after its own: not cleared at the end, in doubt neither.
        _ = feed(&link, [.message(topic: topics.state, payload: Self.counting(instance: "fedcba").json())])
        #expect(link.finish(final: nil).isEmpty)
        _ = feed(&link, [.message(topic: topics.state, payload: Array("garbage".utf8))])
        #expect(link.finish(final: nil).isEmpty)
        let accepted = feed(&link, [.message(topic: topics.command, payload: Array("cancel".utf8))])
        #expect(accepted == .init(commands: [.cancel]))
    }

    @Test func aClearedAvailabilityOfTheOtherTimerEndsTheWaitToo() {
        var (link, _) = linkSeeing(Self.counting(instance: Self.other))
        _ = feed(&link, [.message(topic: topics.availability, payload: [])])
        #expect(link.claim == .looking)
    }

    /// A Last Will of an earlier process with this node and label, seen while held: `online` again.
    @Test func anOfflineOnItsOwnAvailabilityIsAnsweredWithOnline() {
        var link = held()
        let will = feed(&link, [.message(topic: topics.availability, payload: Array("offline".utf8), retained: true)])
        #expect(will.effects == [.publish(BusLink.online(topics.availability))])
        #expect(link.claim == .held)
    }

    @Test func aRetainedCommandIsIgnoredAndSaidOncePerPayload() {
        var link = held()
        let cancel = BusEvent.message(topic: topics.command, payload: Array("cancel".utf8), retained: true)
        let first = feed(&link, [cancel, .connectionLost("gone"), .connected, cancel])
        #expect(first.commands.isEmpty)
        #expect(
            notices(first.effects).filter { if case .log = $0 { true } else { false } } == [
                .log(BusLink.retainedCommandLine(topics.command, Array("cancel".utf8)))
            ])
        let other = feed(&link, [.message(topic: topics.command, payload: Array("ack".utf8), retained: true)])
        #expect(
            other == .init(effects: [.notice(.log(BusLink.retainedCommandLine(topics.command, Array("ack".utf8))))]))
        #expect(BusLink.retainedCommandLine(topics.command, Array("cancel".utf8)).contains("mosquitto_pub -r -n -t"))
    }

    @Test func anUnparseableCommandIsLoggedAndNotActedOn() {
        var link = held()
        let step = feed(
            &link,
            [
                .message(topic: topics.command, payload: Array("nonsense".utf8)),
                .message(topic: topics.command, payload: Array("ack".utf8)),
            ])
        #expect(step.commands == [.acknowledge])
        let lines = notices(step.effects)
        #expect(lines.count == 1)
        #expect(
            lines.first.map {
                if case .log(let text) = $0 {
                    text.hasPrefix("ignored MQTT command on \(topics.command): ")
                } else {
                    false
                }
            } == true, "\(lines)")
    }

    @Test func commandsBeforeTheProbeIsBackAreActedOn() {
        // As before the reducer: looking is not yielded (a lone timer takes its commands at once).
        var link = fresh()
        #expect(feed(&link, [.message(topic: topics.command, payload: Array("cancel".utf8))]).commands == [.cancel])
    }

    /// Yielded to a timer whose state then goes stale: the next update looks again (a probe).
    @Test func anotherTimersStateGoneStaleMakesTheNextUpdateLookAgain() {
        var left = Self.counting(instance: Self.other, state: "ringing")
        left.publishedUnixMilliseconds = 1_796_036_400_000
        left.publisherClockSynchronised = true
        left.intervalSeconds = 60
        let later = Mutex(Int64(0))
        let clock = HouseClock(
            nowUnixMilliseconds: { 1_796_036_400_000 + later.withLock { $0 } }, isSynchronised: { true })
        var link = BusLink(topics: topics, instance: Self.me, houseClock: clock)
        _ = feed(
            &link,
            [
                .connected, .message(topic: topics.state, payload: left.json(), retained: true),
                .message(topic: link.probe, payload: []),
            ])
        #expect(link.claim == .yielded)
        #expect(link.update(Self.counting(instance: Self.me), at: t0).isEmpty)
        later.withLock { $0 = 180_001 }
        let look = link.update(Self.counting(instance: Self.me), at: t0 + .seconds(181))
        #expect(look == [.publish(BusMessage(topic: link.probe, payload: Array("probe".utf8), retain: false, qos: 1))])
        #expect(link.claim == .looking)
    }

    @Test(arguments: [
        nil, counting(instance: nil, state: "done"), counting(instance: "x", state: "cancelled"),
    ])
    func anEmptyOrFinalStateIsTaken(state: TimerStatePayload?) {
        let (link, step) = linkSeeing(state)
        #expect(link.claim == .held)
        #expect(notices(step.effects).isEmpty)
    }

    @Test func connectionNoticesReadAsOneSentenceAndTheReconnectIsNoWarning() {
        var link = fresh()
        let lost = BusEvent.connectionLost("broker mqtt://127.0.0.1:1 closed the connection")
        #expect(
            notices(feed(&link, [lost, lost]).effects) == [
                .warning(
                    "MQTT: broker mqtt://127.0.0.1:1 closed the connection; the timer counts and rings here anyway, "
                        + "reconnecting")
            ])
        #expect(notices(feed(&link, [.connected]).effects) == [.restored("MQTT: connected to the broker again")])
    }
}
