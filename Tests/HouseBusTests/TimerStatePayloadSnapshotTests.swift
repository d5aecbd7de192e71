import HouseBus
import Testing
import TimerModel

/// The MQTT state payload as an encoding of the one ``TimerSnapshot`` (issue 22): snapshot → bytes.
@Suite struct TimerStatePayloadSnapshotTests {
    private static let topics = TimerTopics(node: "kitchen", label: "eggs")
    private static let counting = TimerSnapshot(
        state: .counting, label: "eggs", kind: .egg("Soft"), total: .seconds(360), remaining: .milliseconds(299_500),
        deadline: ContinuousClock.now, deadlineUnixMilliseconds: 1_796_036_523_123, pid: 42)

    /// `counting` changed by `change`.
    private static func counting(_ change: (inout TimerSnapshot) -> Void) -> TimerSnapshot {
        var snapshot = counting
        change(&snapshot)
        return snapshot
    }

    /// When the payloads below are published: 2026-11-30T11:00:00.000Z.
    private static let published: Int64 = 1_796_036_400_000

    static let table: [(TimerSnapshot, (Int64, Bool)?, String)] = [
        (
            counting, nil,
            #"{"state":"counting","label":"eggs","node":"kitchen","duration_s":360,"remaining_s":299.5,"#
                + #""deadline":"2026-11-30T11:02:03.123Z"}"#
        ),
        (
            counting, (published, true),
            #"{"state":"counting","label":"eggs","node":"kitchen","duration_s":360,"remaining_s":299.5,"#
                + #""deadline":"2026-11-30T11:02:03.123Z","instance":"ab","published":"2026-11-30T11:00:00.000Z","#
                + #""clock_synced":true,"interval_s":60}"#
        ),
        (
            counting { ($0.state, $0.deadline, $0.deadlineUnixMilliseconds) = (.paused, nil, nil) }, nil,
            #"{"state":"paused","label":"eggs","node":"kitchen","duration_s":360,"remaining_s":299.5,"deadline":null}"#
        ),
        (
            counting { ($0.state, $0.remaining, $0.device) = (.silent, .zero, .silent("no device")) }, nil,
            #"{"state":"silent","label":"eggs","node":"kitchen","duration_s":360,"remaining_s":0,"#
                + #""deadline":"2026-11-30T11:02:03.123Z","silent":"no device"}"#
        ),
        (
            counting {
                ($0.state, $0.remaining, $0.deadline, $0.deadlineUnixMilliseconds) = (.cancelled, .zero, nil, nil)
            },
            (published, false),
            #"{"state":"cancelled","label":"eggs","node":"kitchen","duration_s":360,"remaining_s":0,"deadline":null,"#
                + #""instance":"ab","published":"2026-11-30T11:00:00.000Z","clock_synced":false,"interval_s":null}"#
        ),
    ]

    @Test(arguments: table)
    func aSnapshotIsEncodedAsItsStatePayload(snapshot: TimerSnapshot, published: (Int64, Bool)?, json: String) throws {
        let payload = try #require(
            TimerStatePayload(
                snapshot, topics: Self.topics, instance: published == nil ? nil : "ab",
                published: published.map { (unixMilliseconds: $0.0, synchronised: $0.1) }, interval: .seconds(60)))
        #expect(String(decoding: payload.json(), as: UTF8.self) == json)
        #expect(payload.timerState == snapshot.state)
    }

    @Test func theMenuHasNoStatePayload() {
        let menu = Self.counting { ($0.state, $0.kind) = (.menu, nil) }
        #expect(
            TimerStatePayload(menu, topics: Self.topics, instance: nil, published: nil, interval: .seconds(60)) == nil)
    }

    @Test(arguments: ["stale", "offline", "Ringing", ""])
    func aWordOutsideTheVocabularyHasNoTimerState(word: String) {
        var payload = TimerStatePayload(
            state: word, label: "l", node: "n", durationSeconds: 1, remainingSeconds: 1, deadlineUnixMilliseconds: nil)
        #expect(payload.timerState == nil)
        payload.state = "silent"
        #expect(payload.timerState?.isRinging == true)
    }
}
