import ControlChannel
import HouseBus
import KitchenWeb
import SystemKit
import Testing
import TimerCore
import TimerModel

@testable import Kitchen

/// Issue 43, a bounded picture: the house's timers in the kitchen's picture stay within bounds.
///
/// Per node and in all, dropping stale ones first, then the oldest that do not ring, never a
/// ringing one; each kind of drop is said once; and the worst event that can come of it fits an
/// event stream with room. Pure: the wall clock is a number passed in.
@Suite struct HousePictureTests {
    private let now: Int64 = 1_800_000_000_000  // any wall clock: nothing reads one

    /// `number` in decimal, padded with `0` on the left to `width` characters.
    private static func padded(_ number: Int, width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func key(_ node: String, _ label: String) -> HousePicture.Key {
        HousePicture.Key(node: node, label: label)
    }

    /// A house timer in `state`, as the picture shows it.
    private static func timer(_ key: HousePicture.Key, _ state: TimerState = .counting) -> WebTimer {
        let payload = TimerStatePayload(
            state: state.rawValue, label: key.label, node: key.node, durationSeconds: 60, remainingSeconds: 30,
            deadlineUnixMilliseconds: nil)
        guard let timer = KitchenAPI.timer(payload) else { preconditionFailure("a state of the vocabulary") }
        return timer
    }

    /// Takes `key`'s state (not stale unless `staleAfter` says so) and returns the drops said.
    @discardableResult
    private func update(
        _ house: inout HousePicture, _ key: HousePicture.Key, _ state: TimerState = .counting,
        staleAfter: Int64? = nil
    ) -> [HousePicture.Drop] {
        house.update(key, timer: Self.timer(key, state), staleAfter: staleAfter, atWall: now)
    }

    /// A picture full to its bound in all: ``HousePicture/limit`` timers, node `nI` label `tJ`,
    /// `perNode` to a node, in that order (the first is the oldest).
    private func full(perNode: Int = 4, _ state: (Int) -> TimerState = { _ in .counting }) -> HousePicture {
        var house = HousePicture()
        for index in 0..<HousePicture.limit {
            update(&house, Self.key("n\(index / perNode)", "t\(index % perNode)"), state(index))
        }
        return house
    }

    @Test func aNodeHoldsAtMostItsBoundAndItsOldestQuietTimerGoes() {
        var house = HousePicture()
        for index in 0..<HousePicture.perNodeLimit { #expect(update(&house, Self.key("attic", "t\(index)")).isEmpty) }
        update(&house, Self.key("cellar", "bread"))
        #expect(update(&house, Self.key("attic", "new")) == [.oldest])
        #expect(house.count == HousePicture.perNodeLimit + 1)
        #expect(house[Self.key("attic", "t0")] == nil, "the node's oldest went")
        #expect(house[Self.key("attic", "new")] != nil)
        #expect(house[Self.key("cellar", "bread")] != nil, "another node's timer is not the node's to drop")
    }

    @Test func theWholeHoldsAtMostItsBoundAndTheOldestQuietTimerGoes() {
        var house = full()
        #expect(house.count == HousePicture.limit)
        #expect(update(&house, Self.key("garden", "soup")) == [.oldest])
        #expect(house.count == HousePicture.limit)
        #expect(house[Self.key("n0", "t0")] == nil)
        #expect(house[Self.key("garden", "soup")] != nil)
    }

    @Test func aStaleTimerGoesBeforeAnOlderOne() {
        var house = full()
        // A later state of n3/t1 that went stale a second ago: not the oldest, but the first to go.
        update(&house, Self.key("n3", "t1"), staleAfter: now - 1000)
        #expect(house.shown(atWall: now).count == HousePicture.limit - 1, "a stale timer is not shown")
        #expect(update(&house, Self.key("garden", "soup")) == [.stale])
        #expect(house[Self.key("n3", "t1")] == nil)
        #expect(house[Self.key("n0", "t0")] != nil)
    }

    @Test func aRingingTimerIsNeverTheOneDropped() {
        // The first half rings: the oldest quiet one is the first of the second half.
        var house = full { $0 < HousePicture.limit / 2 ? .ringing : .counting }
        let first = HousePicture.limit / 2
        let oldestQuiet = Self.key("n\(first / 4)", "t\(first % 4)")
        #expect(update(&house, Self.key("garden", "soup"), .silent) == [.oldest])
        #expect(house[oldestQuiet] == nil)
        #expect(house.entries.values.filter { $0.timer.state.isRinging }.count == HousePicture.limit / 2 + 1)
    }

    @Test(arguments: [TimerState.ringing, .counting, .done])
    func aNewTimerIsLeftOutWhenOnlyRingingTimersOfAsManyNodesHoldThePlace(state: TimerState) {
        var house = full(perNode: 1) { $0.isMultiple(of: 2) ? .ringing : .silent }
        let before = Set(house.entries.keys)
        #expect(update(&house, Self.key("garden", "soup"), state) == [.leftOut])
        #expect(Set(house.entries.keys) == before)
    }

    @Test func ringingTimersOfAFewNodesGiveWayToAnotherNodesTimer() {
        // 32 ringing states from three nodes (a flood on the broker) and a real alarm elsewhere.
        var house = HousePicture()
        for (node, count) in [("n0", 12), ("n1", 12), ("n2", 8)] {
            for index in 0..<count { update(&house, Self.key(node, "t\(index)"), .ringing) }
        }
        #expect(update(&house, Self.key("garden", "soup"), .ringing) == [.crowded])
        #expect(house[Self.key("garden", "soup")] != nil && house[Self.key("n0", "t0")] == nil)
        #expect(house.count == HousePicture.limit)
        // The flood goes on: each new state of it takes the place of its own node's oldest.
        for index in 12..<40 { update(&house, Self.key("n\(index % 3)", "t\(index)"), .ringing) }
        #expect(house[Self.key("garden", "soup")] != nil, "the real alarm stays")
        #expect(house.count == HousePicture.limit)
    }

    @Test func aNodeFullOfRingingTimersLeavesItsNewOneOut() {
        var house = HousePicture()
        for index in 0..<HousePicture.perNodeLimit { update(&house, Self.key("attic", "t\(index)"), .ringing) }
        #expect(update(&house, Self.key("attic", "new"), .ringing) == [.leftOut])
        #expect(house[Self.key("attic", "new")] == nil)
        #expect(update(&house, Self.key("cellar", "bread"), .ringing).isEmpty, "another node has room")
    }

    @Test func aRefreshedTimerBecomesTheNewest() {
        var house = full()
        #expect(update(&house, Self.key("n0", "t0"), .paused).isEmpty, "a held timer's new state takes no room")
        update(&house, Self.key("garden", "soup"))
        #expect(house[Self.key("n0", "t0")]?.timer.state == .paused)
        #expect(house[Self.key("n0", "t1")] == nil, "the oldest is now the second")
    }

    /// Other nodes name their timers, not this kitchen: any node and label of 1 to 64 bytes
    /// without a control character is taken, markup, quotes and all (the page shows it as text).
    @Test(arguments: [
        ("<i>attic</i>", "<b id=\"bold\">tea</b><img src=x id=\"injected\">"), ("two words", "bread"),
        ("attic", "a/b"), ("-attic", "say \"hi\""), ("attic", "C:\\eggs & <script>"), ("Küche", "🍳 Spätzle"),
        (String(repeating: "\"", count: 64), String(repeating: "\\", count: 64)),
    ])
    func aTimerWithMarkupOrAnyTextInItsNamesIsTaken(node: String, label: String) {
        var house = HousePicture()
        #expect(update(&house, Self.key(node, label), .ringing).isEmpty)
        #expect(house[Self.key(node, label)] != nil)
        #expect(house.shown(atWall: now).map(\.label) == [label])
    }

    /// What cannot be shown is left out: an empty name, one over 64 bytes, or one holding a
    /// control character (C0, DEL, C1).
    @Test(arguments: [
        ("attic", ""), ("", "bread"), ("attic", String(repeating: "x", count: 65)),
        (String(repeating: "n", count: 65), "bread"), ("attic", "bad\u{1}label"), ("at\u{7F}tic", "bread"),
        ("attic", "tea\u{9B}2J"), ("attic", "tea\n"),
    ])
    func aTimerWhoseNameCannotBeShownIsLeftOut(node: String, label: String) {
        var house = HousePicture()
        #expect(update(&house, Self.key(node, label), .ringing) == [.unshowable])
        #expect(house.count == 0)
    }

    /// A percent-escaped topic level whose bytes are not UTF-8 names no timer: such a state
    /// never reaches the picture.
    @Test(arguments: ["eggtimer/attic/%FF/state", "eggtimer/%C3(/bread/state", "eggtimer/attic/%ED%A0%80/state"])
    func aTopicLevelThatIsNotUTF8NamesNoTimer(topic: String) {
        #expect(TimerTopics.parse(topic, prefix: "eggtimer") == nil)
    }

    @Test func eachKindOfDropIsSaidOnceUntilThePictureHasRoom() {
        var house = full()
        #expect(update(&house, Self.key("garden", "a")) == [.oldest])
        #expect(update(&house, Self.key("garden", "b")).isEmpty, "said once")
        #expect(update(&house, Self.key("bad\u{1}node", "b")) == [.unshowable])
        #expect(update(&house, Self.key("bad\u{1}node", "c")).isEmpty)
        #expect(house.said == [.oldest, .unshowable])
        // Room again: a node cleared two of its states.
        house.remove(Self.key("garden", "a"))
        house.remove(Self.key("garden", "b"))
        #expect(house.said.isEmpty)
        update(&house, Self.key("garden", "a"))
        #expect(update(&house, Self.key("garden", "b")).isEmpty)
        #expect(update(&house, Self.key("garden", "c")) == [.oldest], "a new flood is said again")
    }

    @Test func aFloodKeepsTheBoundsAndItsRingingTimers() {
        var house = HousePicture()
        let ringing = [Self.key("node7", "alarm"), Self.key("node30", "bread")]
        for round in 0..<20 {
            for node in 0..<40 {
                let key = Self.key("node\(node)", "timer\(round)")
                update(&house, key, round == 3 && node == 11 ? .done : .counting)
            }
            if round == 2 { for key in ringing { update(&house, key, .ringing) } }
        }
        #expect(house.count == HousePicture.limit)
        var perNode: [String: Int] = [:]
        for key in house.entries.keys { perNode[key.node, default: 0] += 1 }
        #expect(perNode.values.allSatisfy { $0 <= HousePicture.perNodeLimit })
        for key in ringing { #expect(house[key]?.timer.state == .ringing, "\(key)") }
    }

    /// A name of 64 bytes that JSON writes in 128, numbered: `"` and `\\`, the first eight
    /// spelling `number` in binary (`\\` a one).
    private static func worstName(_ number: Int) -> String {
        String((0..<LabelRule.limit).map { $0 < 8 && (number >> $0) & 1 == 1 ? "\\" : "\"" })
    }

    /// The worst event: ``HousePicture/limit`` house rows at their largest (names of the
    /// characters JSON writes in twice their bytes), and this box's at their largest, twice the
    /// default `--max-timers` (running, and as many ended in the same round), all shown at once.
    @Test func theWorstEventFitsAStreamWithRoom() throws {
        let latest = try #require(UTCTimestamp.unixMilliseconds("9999-12-31T23:59:59.999Z"))
        let seconds = TimerStatePayload.secondsLimit - 0.001
        let node = String(repeating: "n", count: LabelRule.limit)
        let quotes = String(repeating: "\"", count: WebTimer.silentLimit)
        var house = HousePicture()
        for index in 0..<(HousePicture.limit * 2) {
            let label = Self.worstName(index)
            let payload = TimerStatePayload(
                state: "cancelled", label: label, node: Self.worstName(index / HousePicture.perNodeLimit),
                durationSeconds: seconds, remainingSeconds: seconds, deadlineUnixMilliseconds: latest, silent: quotes)
            let parsed = try #require(TimerStatePayload.parse(payload.json()))
            let timer = try #require(KitchenAPI.timer(parsed))
            house.update(
                HousePicture.Key(node: timer.node, label: timer.label), timer: timer, staleAfter: nil, atWall: now)
        }
        let houseRows = house.shown(atWall: now)
        #expect(houseRows.count == HousePicture.limit)
        #expect(houseRows.allSatisfy { KitchenAPI.json($0).count == KitchenAPI.houseRowBytes })
        let local = (0..<(2 * KitchenSettings().maxTimers)).map { index in
            KitchenAPI.timer(
                TimerStatus(
                    label: Self.padded(index, width: LabelRule.limit), pid: 1, state: .cancelled,
                    remaining: .milliseconds(Int64(seconds * 1000)), deadlineUnixMilliseconds: latest,
                    total: .milliseconds(Int64(seconds * 1000)), kind: .pomodoro(phase: "short break"),
                    deviceDown: true,
                    silentReason: quotes),
                node: node)
        }
        let picture = KitchenAPI.picture(node: node, presets: Preset.eggs, local: local, house: houseRows)
        let houseBytes = KitchenAPI.json(
            KitchenAPI.picture(node: node, presets: [], local: [], house: houseRows)
        ).count
        let event = KitchenWebFront.event(picture)
        #expect(houseBytes <= KitchenWebFront.eventByteLimit * 2 / 5, "\(houseBytes)")
        #expect(event.count <= KitchenWebFront.eventByteLimit * 3 / 5, "\(event.count)")
    }
}
