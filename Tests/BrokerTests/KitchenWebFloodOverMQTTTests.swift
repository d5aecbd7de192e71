import Glibc
import HouseBus
import TestSupport
import Testing

@testable import Kitchen

/// Issue 43 end to end, a bounded picture: a flood of retained house states on a real broker.
///
/// The broker holds more retained house states than the kitchen's picture may show, from many
/// nodes with long names and labels of markup and of the characters JSON escapes (anyone who can
/// publish can make them, and other nodes' names are theirs: none is refused for its characters).
/// The kitchen's event stream still delivers a picture, of exactly `HousePicture.limit` timers,
/// and a ringing timer that comes on top of the flood is in it and stays while newer quiet states
/// of its node push the older ones out.
@Suite struct KitchenWebFloodOverMQTTTests {
    /// Nodes of 64 bytes of markup, quotes and backslashes, each with more timers than a node may show.
    private static let nodes = (0..<4).map { String(repeating: "<\"\\>", count: 15) + "&n0\($0)" }
    /// Timers a flood node publishes: past `HousePicture.perNodeLimit`.
    private static let perNode = HousePicture.perNodeLimit + 1

    /// A label of 64 bytes, quotes and backslashes (JSON writes them in twice their bytes) and
    /// markup, numbered.
    private static func label(_ number: Int) -> String {
        String(repeating: "\"\\", count: 27) + "<b>Spä" + String(number + 100)
    }

    /// Reads `stream` until an event's picture satisfies `fits`.
    private func awaitPicture(on stream: HTTPTestConnection, _ fits: ([JSONValue]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            guard let events = try? stream.events(until: deadline), !events.isEmpty else { return false }
            for event in events where event.event == "timers" {
                if let timers = JSONValue.parse(Array(event.data.utf8))?["timers"]?.arrayValue, fits(timers) {
                    return true
                }
            }
        }
        return false
    }

    @Test func aFloodOfRetainedStatesStillGivesABoundedPictureWithTheRingingTimer() throws {
        #expect(Self.nodes.allSatisfy { $0.utf8.count == 64 } && Self.label(0).utf8.count == 64)
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        // The flood, retained before the kitchen starts: it comes at once when it subscribes.
        // Each state carries a long `silent` reason, as a hostile publisher's would.
        let reason = "cannot open audio device '" + String(repeating: "d", count: 1000) + "': gone"
        for node in Self.nodes {
            for number in 0..<Self.perNode {
                let state = TimerStatePayload(
                    state: "paused", label: Self.label(number), node: node, durationSeconds: 600,
                    remainingSeconds: 300, deadlineUnixMilliseconds: nil, silent: reason)
                try mosquittoPublish(
                    login, topic: TimerTopics(node: node, label: Self.label(number)).state,
                    payload: String(decoding: state.json(), as: UTF8.self), retain: true, log: broker.log)
            }
        }
        #expect(Self.nodes.count * Self.perNode > HousePicture.limit, "more than the picture holds")

        let (folder, environment) = try KitchenOnBroker.config()
        defer { removeDirectory(folder) }
        let kitchen = EggtimerProcess(
            ["kitchen", "--keys", "none", "--http", "127.0.0.1:0"] + KitchenOnBroker.bus(broker),
            environment: environment)
        #expect(kitchen.expect("kitchen: listening on"), "\(kitchen.stdout) \(kitchen.stderr)")
        let prefix = "kitchen: HTTP API on http://127.0.0.1:"
        let line = try #require(kitchen.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) })
        let port = try #require(UInt16(line.dropFirst(prefix.count).prefix { $0.isNumber }))
        let pair = EggtimerProcess(["kitchen", "--pair"], in: kitchen)
        #expect(pair.finish() == .exited(0), "\(pair.stderr)")
        let code = try #require(pair.stdout.split(separator: " ").dropFirst(2).first.map { String($0.dropLast()) })
        let paired = try HTTPTestClient.request(
            method: "POST", path: "/api/pair", headers: [HTTPTestField("Content-Type", "application/json")],
            body: Array("{\"code\":\"\(code)\"}".utf8), port: port)
        let cookie = try #require(paired.header("Set-Cookie")?.split(separator: ";").first.map(String.init))

        let stream = try HTTPTestConnection(port: port)
        try stream.sendRequest(method: "GET", path: "/api/events", headers: [HTTPTestField("Cookie", cookie)])
        let bounded = awaitPicture(on: stream) { timers in
            timers.count == HousePicture.limit && timers.allSatisfy { $0["local"] == .bool(false) }
        }
        #expect(bounded, "the stream delivers a picture of \(HousePicture.limit) house timers")

        // A ringing timer on top of the flood, on a node that is full: the oldest quiet timer goes.
        let bread = TimerTopics(node: Self.nodes[0], label: "bread")
        let ringing = TimerStatePayload(
            state: "ringing", label: "bread", node: Self.nodes[0], durationSeconds: 60, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil)
        try mosquittoPublish(
            login, topic: bread.state, payload: String(decoding: ringing.json(), as: UTF8.self), retain: true,
            log: broker.log)
        let rings = awaitPicture(on: stream) { timers in
            timers.count == HousePicture.limit
                && timers.contains {
                    $0["node"]?.stringValue == Self.nodes[0] && $0["label"]?.stringValue == "bread"
                        && $0["state"]?.stringValue == "ringing"
                }
        }
        #expect(rings, "the ringing timer is in a picture of \(HousePicture.limit)")

        // More quiet states on that node than it may show: each drops its oldest quiet one,
        // until the ringing timer is its oldest; it stays all the same.
        let later = (0...HousePicture.perNodeLimit).map { "later \($0)" }
        for label in later {
            let quiet = TimerStatePayload(
                state: "paused", label: label, node: Self.nodes[0], durationSeconds: 60, remainingSeconds: 30,
                deadlineUnixMilliseconds: nil)
            try mosquittoPublish(
                login, topic: TimerTopics(node: Self.nodes[0], label: label).state,
                payload: String(decoding: quiet.json(), as: UTF8.self), retain: true, log: broker.log)
        }
        let stays = awaitPicture(on: stream) { timers in
            let ofNode = timers.filter { $0["node"]?.stringValue == Self.nodes[0] }
            return timers.count == HousePicture.limit && ofNode.count == HousePicture.perNodeLimit
                && ofNode.contains { $0["label"]?.stringValue == later.last }
                && ofNode.contains { $0["label"]?.stringValue == "bread" && $0["state"]?.stringValue == "ringing" }
        }
        #expect(stays, "the ringing timer outlives \(later.count) newer quiet ones on its node")
        let dropped = "the oldest timers that do not ring are dropped"
        #expect(kitchen.expect(dropped), "\(kitchen.stdout)")

        kitchen.signal(SIGTERM)
        #expect(kitchen.finish() == .exited(0), "\(kitchen.stderr)")
        let said = kitchen.stdout.split(separator: "\n").filter { $0.contains(dropped) }
        #expect(said.count == 1, "said once: \(kitchen.stdout)")
    }
}
