import KitchenWeb
import SystemKit
import TextCoding

/// The house's timers in the kitchen's picture (`--http` with `--mqtt`): other nodes' retained
/// MQTT states, by node and label, bounded so that one event of the picture always fits an
/// event stream (issue 43).
///
/// Anyone who can publish to the broker can retain states, as many as they like: unbounded, they
/// grew one `timers` event past the stream's 64 KiB (`HTTPServer.streamBacklogLimit`), the stream
/// closed before it sent anything, and phones never rang. So the picture holds at most
/// ``perNodeLimit`` timers of one node and ``limit`` in all, and only timers whose node and
/// label can be shown (`KitchenAPI.canShow(houseName:)`: 1 to 64 bytes, no control character).
/// Other nodes name their timers, not this kitchen: a name with markup, quotes or any script is
/// data, shown as text, not refused. Each row is then at most `KitchenAPI.houseRowBytes` (730
/// bytes of JSON, names escaped at their worst), and the house's part of an event at most
/// ``limit`` of them (23 391 bytes with their commas: under two fifths of the stream's 64 KiB,
/// the rest for this box's timers). With this box's rows at their largest too (616 bytes), twice
/// the default `--max-timers` of them (running, and as many ended in the same round), the worst
/// event is 38 507 bytes: under three fifths of it, which HousePictureTests checks.
///
/// A new timer past a bound makes room by dropping, in this order: a stale one (its publisher
/// stopped refreshing it: not shown anyway), then the oldest (whose latest state came first)
/// that does not ring. A ringing timer (`ringing` or `silent`) that is not stale is dropped only
/// when ringing timers hold every place: then the node holding the most gives way (its oldest),
/// if it holds more than the new timer's node would, so that anyone who floods the broker with
/// ringing states from a few nodes cannot hide a real alarm of another node; otherwise the new
/// one is left out (a flood from as many nodes as places still can: their publisher is trusted
/// as the broker trusts it). Each kind of drop is said once
/// (``update(_:timer:staleAfter:atWall:)`` returns it) until the picture has room again.
///
/// A plain value; pure: the wall clock comes in as Unix milliseconds. Owned by the main thread.
package struct HousePicture {
    /// The most timers of one node the picture holds: the default `--max-timers` (12) of a
    /// kitchen on that node.
    package static let perNodeLimit = 12
    /// The most house timers the picture holds in all.
    package static let limit = 32

    /// A house timer's node and label.
    struct Key: Hashable {
        /// The node it runs on.
        let node: String
        /// Its label.
        let label: String
    }

    /// A house timer's latest state.
    struct Entry {
        /// The timer, as the picture shows it.
        let timer: WebTimer
        /// When its state goes stale (Unix milliseconds); nil: never.
        let staleAfter: Int64?
        /// When its latest state came, in arrival order (larger is newer).
        let arrival: UInt64

        /// Whether it is stale at `now` (Unix milliseconds).
        func isStale(atWall now: Int64) -> Bool { staleAfter.map { now > $0 } ?? false }
    }

    /// What became of a state that met a bound, each said once (one line) until there is room.
    enum Drop: Hashable, CaseIterable {
        /// A stale timer was dropped to make room.
        case stale
        /// The oldest timer that does not ring was dropped to make room.
        case oldest
        /// Every place rang: the oldest ringing timer of the node holding the most was dropped.
        case crowded
        /// The new timer was left out: only ringing timers held the place.
        case leftOut
        /// The timer was left out: its node or label cannot be shown (`KitchenAPI.canShow(houseName:)`).
        case unshowable
    }

    /// The timers held.
    private(set) var entries: [Key: Entry] = [:]
    /// The next state's arrival number.
    private var arrivals: UInt64 = 0
    /// The kinds of drop said since the picture last had room.
    private(set) var said: Set<Drop> = []

    /// The entry of `key`, or nil.
    subscript(_ key: Key) -> Entry? { entries[key] }

    /// How many timers are held.
    var count: Int { entries.count }

    /// The timers to show at `now`: those not stale, in no order.
    /// - Parameter now: The wall clock, Unix milliseconds.
    /// - Returns: The timers.
    /// - Complexity: O(n) in ``count``.
    func shown(atWall now: Int64) -> [WebTimer] {
        entries.values.filter { !$0.isStale(atWall: now) }.map(\.timer)
    }

    /// Takes the latest state of the timer `key`, within the bounds, and says which kinds of drop
    /// it caused that were not said yet.
    ///
    /// A timer already held is replaced (and becomes the newest). A new one past ``perNodeLimit``
    /// or ``limit`` drops a stale one, else the oldest that does not ring (of its node for the
    /// node's bound, of any node for the whole), else it is left out. One whose node or label
    /// cannot be shown is left out (``Drop/unshowable``).
    /// - Parameters:
    ///   - key: Its node and label, as its topic names them.
    ///   - timer: Its state as the picture shows it.
    ///   - staleAfter: When the state goes stale (Unix milliseconds); nil: never.
    ///   - now: The wall clock, Unix milliseconds.
    /// - Returns: The kinds of drop this state caused that are to be said now (each once until
    ///   the picture has room again), in ``Drop`` order.
    /// - Complexity: O(n) in ``count``.
    mutating func update(_ key: Key, timer: WebTimer, staleAfter: Int64?, atWall now: Int64) -> [Drop] {
        var drops: [Drop] = []
        defer { arrivals += 1 }
        let entry = Entry(timer: timer, staleAfter: staleAfter, arrival: arrivals)
        if entries[key] != nil {
            entries[key] = entry
        } else if !KitchenAPI.canShow(houseName: key.node) || !KitchenAPI.canShow(houseName: key.label) {
            drops.append(.unshowable)
        } else if let made = makeRoom(for: key, atWall: now) {
            drops.append(made)
            if made != .leftOut { entries[key] = entry }
        } else {
            entries[key] = entry
        }
        return said(drops)
    }

    /// Forgets the timer `key` (its node cleared its retained state, or sent one unreadable).
    /// - Parameter key: Its node and label.
    mutating func remove(_ key: Key) {
        entries[key] = nil
        if hasRoom { said = [] }
    }

    /// Whether every node and the whole are below their bounds.
    private var hasRoom: Bool {
        guard entries.count < Self.limit else { return false }
        var nodes: [String: Int] = [:]
        for key in entries.keys { nodes[key.node, default: 0] += 1 }
        return nodes.values.allSatisfy { $0 < Self.perNodeLimit }
    }

    /// The kinds of `drops` not said yet, now marked said; with none, and room again, the said
    /// ones are forgotten (a later flood is said again).
    private mutating func said(_ drops: [Drop]) -> [Drop] {
        if drops.isEmpty {
            if hasRoom { said = [] }
            return []
        }
        let new = drops.filter { !said.contains($0) }
        said.formUnion(new)
        return new
    }

    /// Drops one timer to make room for the new timer `key` when its node or the whole is at
    /// its bound.
    /// - Returns: nil when there was room; else what was dropped, or ``Drop/leftOut`` when
    ///   nothing could be (the new timer is then not taken).
    private mutating func makeRoom(for key: Key, atWall now: Int64) -> Drop? {
        let ofNode = entries.filter { $0.key.node == key.node }
        if ofNode.count >= Self.perNodeLimit {
            return dropOne(among: ofNode, atWall: now)
        }
        if entries.count >= Self.limit {
            let dropped = dropOne(among: entries, atWall: now)
            return dropped == .leftOut ? giveWay(to: key.node, newOf: ofNode.count) : dropped
        }
        return nil
    }

    /// Every place rings: drops the oldest timer of the node holding the most, when it holds more
    /// than one more than `node`, which holds `held`.
    /// - Returns: ``Drop/crowded``, or ``Drop/leftOut`` when no node holds that many.
    private mutating func giveWay(to node: String, newOf held: Int) -> Drop {
        var perNode: [String: Int] = [:]
        for key in entries.keys { perNode[key.node, default: 0] += 1 }
        guard let most = perNode.values.max(), most > held + 1 else { return .leftOut }
        let oldest = entries.filter { perNode[$0.key.node] == most }.min { $0.value.arrival < $1.value.arrival }
        guard let oldest else { return .leftOut }
        entries[oldest.key] = nil
        return .crowded
    }

    /// Drops the oldest stale timer of `candidates`, else the oldest that does not ring.
    /// - Returns: What was dropped, or ``Drop/leftOut`` when every candidate rings and is not stale.
    private mutating func dropOne(among candidates: [Key: Entry], atWall now: Int64) -> Drop {
        let oldestFirst = candidates.sorted { $0.value.arrival < $1.value.arrival }
        if let stale = oldestFirst.first(where: { $0.value.isStale(atWall: now) }) {
            entries[stale.key] = nil
            return .stale
        }
        if let quiet = oldestFirst.first(where: { !$0.value.timer.state.isRinging }) {
            entries[quiet.key] = nil
            return .oldest
        }
        return .leftOut
    }

    /// The line the kitchen says for a kind of drop, naming the timer `key` that caused it.
    /// - Parameters:
    ///   - drop: The kind.
    ///   - key: The timer whose state met the bound.
    /// - Returns: One line, without a newline.
    static func line(_ drop: Drop, for key: Key) -> String {
        let bounds = "at most \(limit) house timers, \(perNodeLimit) of one node"
        let named = "\(key.node.controlCharactersAsQuestionMarks())/\(key.label.controlCharactersAsQuestionMarks())"
        switch drop {
        case .stale:
            return "HTTP: the house picture is full (\(bounds)): stale timers are dropped first (for \(named))"
        case .oldest:
            return "HTTP: the house picture is full (\(bounds)): the oldest timers that do not ring are dropped "
                + "(for \(named))"
        case .crowded:
            return "HTTP: the house picture is full of ringing timers (\(bounds)): the node holding the most "
                + "gives way, its oldest first (for \(named))"
        case .leftOut:
            return "HTTP: the house picture is full of ringing timers (\(bounds)): new ones are left out "
                + "(first \(named))"
        case .unshowable:
            return "HTTP: house timers whose node or label cannot be shown (empty, over \(LabelRule.limit) bytes "
                + "or holding a control character) are left out (first \(named))"
        }
    }
}
