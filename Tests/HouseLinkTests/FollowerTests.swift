import AlarmAudio
import Glibc
import HouseBus
import Testing

@testable import HouseLink
@testable import TimerEngine

private let t0 = ContinuousClock.now
/// Any wall time will do: the reducer reads no clock (2027-01-15, an arbitrary date).
private let w0: Int64 = 1_800_000_000_000
private let availability = "eggtimer/hall/follow/availability"

/// A follower that has seen nothing, its device working unless `deviceDown`.
private func follower(deviceDown: Bool = false) -> FollowerCore {
    FollowerCore(prefix: "eggtimer", availabilityTopic: availability, deviceDown: deviceDown)
}

private func wall(_ offset: Int64 = 0, synchronised: Bool = true) -> WallReading {
    WallReading(unixMilliseconds: w0 + offset, synchronised: synchronised)
}

/// A retained state of `node/label` as the broker delivers it, published at `w0 + published`
/// with a 1 s interval (stale after `w0 + published + 3000`).
private func state(
    _ word: String, _ node: String = "kitchen", _ label: String = "tea", published: Int64 = 0
) -> FollowerCore.Event {
    let payload = TimerStatePayload(
        state: word, label: label, node: node, durationSeconds: 60, remainingSeconds: 0,
        deadlineUnixMilliseconds: nil, publishedUnixMilliseconds: w0 + published,
        publisherClockSynchronised: true, intervalSeconds: 1)
    return .bus(.message(topic: TimerTopics(node: node, label: label).state, payload: payload.json()))
}

private func message(_ topic: String, _ payload: String) -> FollowerCore.Event {
    .bus(.message(topic: topic, payload: Array(payload.utf8)))
}

private func ack(_ node: String, _ label: String) -> FollowerEffect {
    .publish(
        BusMessage(
            topic: TimerTopics(node: node, label: label).command, payload: Array("ack".utf8), retain: false,
            qos: 1))
}

/// `follow`'s decisions on injected instants and wall readings, with no broker and no player.
@Suite struct FollowerTests {
    @Test func startSubscribesAvailabilityFirstThenSaysOnlineAndFollowing() {
        #expect(
            follower().start(node: "hall") == [
                .subscribe("eggtimer/+/+/availability"), .subscribe("eggtimer/+/+/state"), .subscribe(availability),
                .publish(BusLink.online(availability)), .say("following eggtimer/+/+/state as hall"),
            ])
    }

    @Test(arguments: [
        (message("eggtimer/kitchen/tea/state", ""), "kitchen/tea: ended"),
        (
            FollowerCore.Event.bus(
                .message(
                    topic: "eggtimer/kitchen/tea/state",
                    payload: TimerStatePayload(
                        state: "done", label: "tea", node: "kitchen", durationSeconds: 60, remainingSeconds: 0,
                        deadlineUnixMilliseconds: nil
                    ).json())), "kitchen/tea: done"
        ),
        (message("eggtimer/kitchen/tea/availability", "offline"), "kitchen/tea: offline"),
    ])
    func aRingingStateStartsTheRingAndItsClearDoneOrOfflineStopsIt(end: FollowerCore.Event, line: String) {
        var core = follower()
        #expect(core.handle(state("ringing"), at: t0, wall: wall()) == [.say("kitchen/tea: ringing"), .startRinging])
        #expect(core.playing)
        #expect(core.handle(.tick, at: t0 + .milliseconds(100), wall: wall(100)) == [])
        #expect(core.handle(end, at: t0 + .milliseconds(200), wall: wall(200)) == [.say(line), .stopRinging])
        #expect(!core.playing)
        #expect(core.handle(.tick, at: t0 + .milliseconds(300), wall: wall(300)) == [])
    }

    @Test func aSilentStateRingsToo() {
        var core = follower()
        #expect(core.handle(state("silent"), at: t0, wall: wall()) == [.say("kitchen/tea: ringing"), .startRinging])
    }

    @Test func aRingingStateThatGoesStaleStopsAtItsNextWakeAndSaysStale() throws {
        var core = follower()
        _ = core.handle(state("ringing"), at: t0, wall: wall(500))
        // Stale after w0 + 3000: the wake is a millisecond past it, 2501 ms on.
        let wake = try #require(core.nextWake(at: t0, wall: wall(500)))
        #expect(wake == t0 + .milliseconds(2501))
        #expect(core.handle(.tick, at: t0 + .milliseconds(2500), wall: wall(3000)) == [])
        #expect(core.playing)
        #expect(
            core.handle(.tick, at: wake, wall: wall(3001)) == [.say("kitchen/tea: stale"), .stopRinging])
        #expect(core.nextWake(at: wake, wall: wall(3001)) == nil)
        #expect(core.handle(.tick, at: wake + .seconds(1), wall: wall(4001)) == [])
    }

    @Test func aFreshStateKeepsItRingingPastTheFirstLimit() {
        var core = follower()
        _ = core.handle(state("ringing"), at: t0, wall: wall())
        #expect(core.handle(state("ringing", published: 2000), at: t0 + .seconds(2), wall: wall(2000)) == [])
        #expect(core.handle(.tick, at: t0 + .seconds(4), wall: wall(4000)) == [])
        #expect(core.nextWake(at: t0 + .seconds(4), wall: wall(4000)) == t0 + .milliseconds(5001))
    }

    @Test func aStaleStateNeverStartsTheRing() {
        var core = follower()
        #expect(core.handle(state("ringing", published: -10_000), at: t0, wall: wall()) == [.say("kitchen/tea: stale")])
        #expect(core.handle(.tick, at: t0 + .seconds(1), wall: wall(1000)) == [])
        #expect(core.nextWake(at: t0, wall: wall()) == nil)
        #expect(core.handle(.key, at: t0 + .seconds(2), wall: wall(2000)) == [])
    }

    @Test func nothingIsStaleWhileTheWallClockIsNotSynchronised() {
        var core = follower()
        let unsynchronised = wall(synchronised: false)
        #expect(
            core.handle(state("ringing", published: -10_000), at: t0, wall: unsynchronised) == [
                .say("kitchen/tea: ringing"), .startRinging,
            ])
        #expect(core.nextWake(at: t0, wall: unsynchronised) == nil)
    }

    @Test(arguments: [FollowerCore.Event.key, .signal(SIGUSR1)])
    func acknowledgeSendsAckToEachRingingTimerSortedAndOnlyThose(event: FollowerCore.Event) {
        var core = follower()
        _ = core.handle(state("ringing", "kitchen", "tea"), at: t0, wall: wall())
        _ = core.handle(state("silent", "attic", "egg"), at: t0, wall: wall())
        _ = core.handle(state("counting", "bath", "soak"), at: t0, wall: wall())
        _ = core.handle(state("ringing", "cellar", "wine"), at: t0, wall: wall())
        _ = core.handle(message("eggtimer/cellar/wine/availability", "offline"), at: t0, wall: wall())
        _ = core.handle(state("ringing", "garden", "old", published: -10_000), at: t0, wall: wall())
        #expect(
            core.handle(event, at: t0 + .milliseconds(10), wall: wall(10)) == [
                ack("attic", "egg"), .say("attic/egg: ack sent"), ack("kitchen", "tea"), .say("kitchen/tea: ack sent"),
            ])
    }

    /// The one "acknowledge all" rule (TimerState.isCoveredByAcknowledgeAll): a snoozed timer,
    /// which would ring again unasked, is acknowledged too; it does not ring the follower.
    @Test func acknowledgeCoversASnoozedTimerWhichDoesNotRing() {
        var core = follower()
        #expect(core.handle(state("snoozed", "kitchen", "tea"), at: t0, wall: wall()).contains(.startRinging) == false)
        #expect(core.ringing(at: wall()).isEmpty)
        _ = core.handle(state("paused", "bath", "soak"), at: t0, wall: wall())
        #expect(
            core.handle(.key, at: t0 + .milliseconds(10), wall: wall(10)) == [
                ack("kitchen", "tea"), .say("kitchen/tea: ack sent"),
            ])
    }

    @Test func withTheDeviceDownTheBellRingsOnceASecondWhileItRings() throws {
        var core = follower(deviceDown: true)
        #expect(
            core.handle(state("ringing"), at: t0, wall: wall()) == [
                .say("kitchen/tea: ringing"), .startRinging, .ringBell,
            ])
        #expect(core.nextWake(at: t0, wall: wall()) == t0 + .seconds(1))
        #expect(core.handle(.tick, at: t0 + .milliseconds(999), wall: wall(999)) == [])
        #expect(core.handle(.tick, at: t0 + .seconds(1), wall: wall(1000)) == [.ringBell])
        #expect(core.nextWake(at: t0 + .seconds(1), wall: wall(1000)) == t0 + .seconds(2))
        // A played frame: the device works, the bell stops.
        #expect(core.handle(.audio(.firstFrame(at: t0 + .seconds(1))), at: t0 + .seconds(1), wall: wall(1000)) == [])
        #expect(core.handle(.tick, at: t0 + .seconds(3), wall: wall(1000)) == [])
        // Only the state's stale limit (w0 + 3000) is left to wake for, no bell.
        #expect(core.nextWake(at: t0 + .seconds(3), wall: wall(1000)) == t0 + .milliseconds(5001))
    }

    @Test func aFailingDeviceIsSaidOnceAndTheBellTakesOver() {
        var core = follower()
        _ = core.handle(state("ringing"), at: t0, wall: wall())
        let failed = AlarmError.deviceUnavailable(device: "default", reason: "no such device")
        #expect(
            core.handle(.audio(.deviceUnavailable(failed)), at: t0, wall: wall()) == [
                .warn("warning: \(failed); the terminal bell rings instead"), .ringBell,
            ])
        #expect(core.handle(.audio(.deviceUnavailable(failed)), at: t0 + .milliseconds(100), wall: wall(100)) == [])
    }

    @Test func aStalledDeviceRingsTheBellWhileThePlayerTriesAgain() {
        var core = follower()
        _ = core.handle(state("ringing"), at: t0, wall: wall())
        let hung = AlarmError.deviceHung(device: "default", call: "snd_pcm_writei")
        #expect(
            core.handle(.audio(.stalled(hung)), at: t0, wall: wall()) == [
                .warn("warning: \(hung); the terminal bell rings instead"), .ringBell,
            ])
        #expect(core.playing, "the player goes on trying: no second ringing is started")
        #expect(
            core.handle(.audio(.deviceRecovered(device: "default")), at: t0, wall: wall())
                == [.say("audio device back (default)")])
        #expect(core.handle(.audio(.deviceRecovered(device: "default")), at: t0, wall: wall()) == [])
    }

    @Test func aHungDeviceStartsTheRingAgainWithTheBell() {
        var core = follower()
        _ = core.handle(state("ringing"), at: t0, wall: wall())
        let hung = AlarmError.deviceHung(device: "default", call: "snd_pcm_writei")
        #expect(
            core.handle(.audio(.hung(hung)), at: t0, wall: wall()) == [
                .warn("warning: \(hung)"), .startRinging, .ringBell,
            ])
    }

    @Test func reconnectingForgetsTheStatesAndTheLossIsSaidOnce() {
        var core = follower()
        #expect(core.handle(.bus(.connected), at: t0, wall: wall()) == [.say("connected to the MQTT broker")])
        _ = core.handle(state("ringing"), at: t0, wall: wall())
        #expect(
            core.handle(.bus(.connectionLost("broker closed the connection")), at: t0, wall: wall()) == [
                .warn("warning: MQTT: broker closed the connection; reconnecting")
            ])
        #expect(core.handle(.bus(.connectionLost("unreachable")), at: t0, wall: wall()) == [])
        #expect(core.playing, "a lost connection alone does not stop the ring")
        #expect(
            core.handle(.bus(.connected), at: t0 + .seconds(1), wall: wall(1000)) == [
                .say("connected to the MQTT broker again"), .stopRinging,
            ])
        #expect(core.handle(.key, at: t0 + .seconds(2), wall: wall(2000)) == [])
    }

    @Test(arguments: [("offline", true), ("", true), ("online", false)])
    func anotherFollowersEndOrLastWillGetsOnlineAgain(payload: String, answered: Bool) {
        var core = follower()
        #expect(
            core.handle(message(availability, payload), at: t0, wall: wall())
                == (answered ? [.publish(BusLink.online(availability))] : []))
    }

    @Test func aFollowersOwnLabelIsNotATimer() {
        var core = follower()
        #expect(core.handle(state("ringing", "garden", "follow"), at: t0, wall: wall()) == [])
    }

    @Test func aMalformedStateIsSaidOnceAndLeavesTheRingAlone() {
        var core = follower()
        _ = core.handle(state("ringing"), at: t0, wall: wall())
        #expect(
            core.handle(message("eggtimer/kitchen/tea/state", "{"), at: t0, wall: wall()) == [
                .warn("ignored a malformed state on eggtimer/kitchen/tea/state")
            ])
        #expect(core.handle(.tick, at: t0 + .milliseconds(10), wall: wall(10)) == [])
        #expect(core.playing)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aTerminatingSignalStopsTheRingAndExits(number: Int32) {
        var core = follower()
        _ = core.handle(state("ringing"), at: t0, wall: wall())
        #expect(core.handle(.signal(number), at: t0, wall: wall()) == [.stopRinging, .exit(.signal(number))])
        var quiet = follower()
        #expect(quiet.handle(.signal(number), at: t0, wall: wall()) == [.exit(.signal(number))])
    }

    @Test func controlCharactersInATopicAreEscapedInLines() {
        var core = follower()
        let effects = core.handle(state("ringing", "kit\u{1B}chen"), at: t0, wall: wall())
        #expect(effects.first == .say("\("kit\u{1B}chen/tea".escapingControlCharacters): ringing"))
        #expect(effects.first != .say("kit\u{1B}chen/tea: ringing"))
    }
}
