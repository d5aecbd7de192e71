import ControlChannel
import HouseBus
import Testing
import TimerEngine
import TimerModel

@testable import HouseLink
@testable import TimerEngine

/// Any instant will do: nothing here reads a clock or sleeps.
private let t0 = ContinuousClock.now

/// The MQTT link's pure helpers: its topics, the state payload of a snapshot, when a state is
/// news or due, and whose a retained state is.
@Suite struct BusLinkPayloadTests {
    private let topics = TimerTopics(prefix: "eggtimer", node: "kitchen", label: "tea")

    /// A counting state of kitchen/tea published by `instance`.
    private static func counting(instance: String?, state: String = "counting") -> TimerStatePayload {
        TimerStatePayload(
            state: state, label: "tea", node: "kitchen", durationSeconds: 240, remainingSeconds: 100,
            deadlineUnixMilliseconds: 10_000, instance: instance)
    }

    @Test func labelsThatDifferKeepTheirOwnTopics() {
        var options = BusOptions()
        options.node = "kitchen"
        let duration = BusLink.topics(options, label: "1:30")
        let label = BusLink.topics(options, label: "1_30")
        #expect(duration.state == "eggtimer/kitchen/1:30/state")
        #expect(label.state == "eggtimer/kitchen/1_30/state")
        #expect(BusLink.topics(options, label: "").label == "timer")
        #expect(BusOptions.isValidTarget("kitchen/1:30") && BusOptions.isValidTarget("2 hours"))
        #expect(!BusOptions.isValidTarget("kit chen/1:30") && !BusOptions.isValidTarget("kitchen/"))
    }

    @Test func theSnapshotBecomesTheStatePayload() throws {
        let snapshot = TimerSnapshot(
            state: .counting, label: "tea", kind: .plain, total: .seconds(240), remaining: .milliseconds(61_500),
            deadline: nil, deadlineUnixMilliseconds: 1_795_000_000_123, pid: 7)
        let payload = try #require(BusLink.payload(snapshot, topics: topics))
        #expect(
            payload
                == TimerStatePayload(
                    state: "counting", label: "tea", node: "kitchen", durationSeconds: 240, remainingSeconds: 61.5,
                    deadlineUnixMilliseconds: 1_795_000_000_123))
        #expect(TimerStatePayload.parse(payload.json()) == payload)
    }

    @Test func instanceIDsAreSixteenHexDigitsAndDiffer() {
        let ids = (0..<100).map { _ in TimerStatePayload.newInstanceID() }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { $0.count == 16 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }

    @Test(arguments: [
        (counting(instance: "other"), false, true),
        (counting(instance: nil), false, true),  // an eggtimer before instance ids: live all the same
        (counting(instance: "other"), true, false),  // its availability offline or cleared: gone
        (counting(instance: "other", state: "done"), false, false),
        (counting(instance: "me"), false, false),
    ])
    func anotherLiveTimerHoldsTheTopic(state: TimerStatePayload, gone: Bool, held: Bool) {
        #expect(BusLink.isHeldByAnother(state, gone: gone, instance: "me") == held)
        #expect(!BusLink.isHeldByAnother(nil, gone: gone, instance: "me"))
    }

    @Test func aStaleStateOfAnotherInstanceIsNoLiveTimerWhileTheClockIsSynchronised() {
        // Published 2026-11-30T11:00:00Z, promising 60 s: stale after 11:03:00.
        var left = Self.counting(instance: "other", state: "ringing")
        left.publishedUnixMilliseconds = 1_796_036_400_000
        left.publisherClockSynchronised = true
        left.intervalSeconds = 60
        func clock(after milliseconds: Int64, synchronised: Bool) -> HouseClock {
            HouseClock(nowUnixMilliseconds: { 1_796_036_400_000 + milliseconds }, isSynchronised: { synchronised })
        }
        #expect(
            BusLink.isHeldByAnother(left, gone: false, instance: "me", clock: clock(after: 180_000, synchronised: true))
        )
        #expect(
            !BusLink.isHeldByAnother(
                left, gone: false, instance: "me", clock: clock(after: 180_001, synchronised: true)))
        #expect(
            BusLink.isHeldByAnother(
                left, gone: false, instance: "me", clock: clock(after: 180_001, synchronised: false)))
    }

    @Test func theMenuPublishesNoState() {
        let menu = TimerSnapshot(
            state: .menu, label: "menu-1", kind: nil, total: .zero, remaining: .zero, deadline: nil,
            deadlineUnixMilliseconds: nil, pid: 1)
        #expect(BusLink.payload(menu, topics: topics) == nil)
    }

    @Test func onlyAStateLengthOrDeadlineChangeIsNews() {
        let base = TimerStatePayload(
            state: "counting", label: "tea", node: "kitchen", durationSeconds: 240, remainingSeconds: 100,
            deadlineUnixMilliseconds: 10_000)
        var later = base
        later.remainingSeconds = 40
        later.deadlineUnixMilliseconds = 10_050
        #expect(!BusLink.differs(later, from: base))
        var moved = base
        moved.deadlineUnixMilliseconds = 70_000
        #expect(BusLink.differs(moved, from: base))
        var paused = base
        paused.state = "paused"
        paused.deadlineUnixMilliseconds = nil
        #expect(BusLink.differs(paused, from: base))
        var ringing = base
        ringing.state = "ringing"
        #expect(BusLink.differs(ringing, from: base))
        var silent = base
        silent.silent = "cannot open audio device 'hw:0': No such file or directory"
        #expect(BusLink.differs(silent, from: base), "a device found down at once is news")
    }

    /// Issue 37: the state payload says why the alarm reaches no device while the timer runs, and
    /// once it is over whether it rang unheard; nothing when it is heard.
    @Test(arguments: [
        (
            TimerState.counting,
            TimerSnapshot.DeviceHealth.silent("cannot open audio device 'hw:0': No such file or directory"),
            #","silent":"cannot open audio device 'hw:0': No such file or directory"}"#
        ),
        (
            .silent, .silent("lost audio device 'x': Input/output error"),
            #","silent":"lost audio device 'x': Input/output error"}"#
        ),
        (
            .done, .silent("cannot open audio device 'hw:0': No such file or directory"),
            #","silent":"cannot open audio device 'hw:0': No such file or directory"}"#
        ),
        (.ringing, .ok, #""deadline":null}"#),
        (.done, .ok, #""deadline":null}"#),
    ])
    func theStatePayloadSaysWhyTheAlarmIsSilent(
        state: TimerState, device: TimerSnapshot.DeviceHealth, ending: String
    ) throws {
        let snapshot = TimerSnapshot(
            state: state, label: "tea", kind: .plain, total: .seconds(240), remaining: .zero, deadline: nil,
            deadlineUnixMilliseconds: nil, device: device, pid: 7)
        let payload = try #require(BusLink.payload(snapshot, topics: topics))
        let json = String(decoding: payload.json(), as: UTF8.self)
        #expect(json.hasSuffix(ending), "\(json)")
        #expect(TimerStatePayload.parse(payload.json())?.silent == device.silentReason)
    }

    @Test func theStateIsPublishedOnChangeAndAtLeastOnceAMinute() {
        let counting = TimerStatePayload(
            state: "counting", label: "tea", node: "kitchen", durationSeconds: 600, remainingSeconds: 600,
            deadlineUnixMilliseconds: 600_000)
        #expect(BusLink.isDue(counting, after: nil, at: t0))
        var later = counting
        later.remainingSeconds = 541
        #expect(!BusLink.isDue(later, after: (counting, t0), at: t0 + .seconds(59)))
        #expect(BusLink.isDue(later, after: (counting, t0), at: t0 + .seconds(60)))
        var ringing = counting
        ringing.state = "ringing"
        #expect(BusLink.isDue(ringing, after: (counting, t0), at: t0 + .seconds(1)))
    }

    @Test func finalStatesAreFinal() {
        #expect(BusLink.isFinal("done") && BusLink.isFinal("cancelled") && BusLink.isFinal("missed"))
        #expect(!BusLink.isFinal("ringing") && !BusLink.isFinal("snoozed") && !BusLink.isFinal("nonsense"))
    }
}
