import Glibc
import HouseBus
import TestSupport
import Testing

/// What stays retained of a node after its last timer ended cleanly: the node's pinned Home
/// Assistant entities, its ringing state `OFF` and its availability `offline` (lines as
/// `mosquitto_sub -v` prints them), and nothing of any timer.
/// - Parameter node: The node's name.
/// - Returns: The lines, in no order.
func nodeLeftovers(_ node: String = "kitchen") -> Set<String> {
    let topics = NodeTopics(node: node)
    let configs = HomeAssistantDiscovery.nodeConfigs(for: topics).map {
        "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self))"
    }
    return Set(configs + ["\(topics.ringing) OFF", "\(topics.availability) offline"])
}

/// Issue 24 end to end: the node's own entities over a real Mosquitto broker.
///
/// Several real eggtimer processes on one node, and mosquitto_sub/mosquitto_pub as Home
/// Assistant. No test sleeps to wait for an event.
@Suite struct NodeOverMQTTTests {
    private func bus(_ broker: MosquittoBroker) -> [String] {
        ["--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--node", "kitchen", "--mqtt-keepalive", "5s"]
    }

    /// The state words published on `topic`, in order (`mosquitto_sub -v` lines).
    private func states(_ lines: [String], topic: String) -> [String] {
        StateLines.states(lines, topic: topic).map(\.state)
    }

    @Test func oneAcknowledgeAllPressEndsEveryRingingTimerOfTheNodeAndTheNodeStays() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let node = NodeTopics(node: "kitchen")
        let watcher = try MosquittoSubscriber.start(
            login, topics: [node.ringing, node.availability, node.timerStates, "homeassistant/#"], log: broker.log)
        let (tea, soup, rice) = (
            TimerTopics(node: "kitchen", label: "tea"), TimerTopics(node: "kitchen", label: "soup"),
            TimerTopics(node: "kitchen", label: "rice")
        )
        // rice counts on: the press is not for it, and it ends last, cleanly.
        let riceTimer = EggtimerProcess(["30m", "--label", "rice", "-D", "null", "--json"] + bus(broker))
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: rice.state).contains("counting") })
        let teaTimer = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        let soupTimer = EggtimerProcess(["1s", "--label", "soup", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                states(lines, topic: tea.state).last == "ringing" && states(lines, topic: soup.state).last == "ringing"
                    && lines.last { $0.hasPrefix(node.ringing + " ") } == "\(node.ringing) ON"
            }, "\(watcher.lines)")
        #expect(watcher.lines.contains("\(node.availability) online"))
        for config in HomeAssistantDiscovery.nodeConfigs(for: node) {
            #expect(watcher.lines.contains("\(config.topic) \(String(decoding: config.payload, as: UTF8.self))"))
        }

        try mosquittoPublish(login, topic: node.ackAll, payload: "ack", log: broker.log)
        #expect(teaTimer.finish(timeout: .seconds(5)) == .exited(0), "\(teaTimer.stderr)")
        #expect(soupTimer.finish(timeout: .seconds(5)) == .exited(0), "\(soupTimer.stderr)")
        #expect(teaTimer.stdout.contains(#""by":"mqtt""#) && soupTimer.stdout.contains(#""by":"mqtt""#))
        #expect(
            watcher.wait(timeout: .seconds(5)) { lines in
                lines.last { $0.hasPrefix(node.ringing + " ") } == "\(node.ringing) OFF"
            }, "\(watcher.lines)")
        // Each ringing timer's configs are removed; rice's stay while it runs.
        for topics in [tea, soup] {
            for config in HomeAssistantDiscovery.configs(for: topics) {
                #expect(watcher.wait(timeout: .seconds(5)) { $0.contains("\(config.topic) (null)") }, "\(config.topic)")
            }
        }
        #expect(states(watcher.lines, topic: rice.state).allSatisfy { $0 == "counting" })
        #expect(!watcher.lines.contains("\(node.availability) offline"), "rice still runs on the node")

        // A barrier, not a sleep: tea and soup ended, their availability clears are on the broker
        // (QoS 1, sent before they exit); a `status` to rice comes to it after them (one connection,
        // in order), and its republished state says it has taken them in, so at its end it knows
        // it is the node's last timer.
        let riceStates = states(watcher.lines, topic: rice.state).count
        try mosquittoPublish(login, topic: rice.command, payload: "status", log: broker.log)
        #expect(watcher.wait(timeout: .seconds(5)) { states($0, topic: rice.state).count > riceStates })
        riceTimer.signal(SIGTERM)
        #expect(riceTimer.finish() == .exited(143))
        #expect(watcher.wait(timeout: .seconds(5)) { $0.contains("\(node.availability) offline") }, "\(watcher.lines)")
        // The node's entities stay, pinned; nothing of any timer is left.
        let after = try MosquittoSubscriber.start(login, topics: ["eggtimer/#", "homeassistant/#"], log: broker.log)
        #expect(Set(after.lines) == nodeLeftovers(), "\(after.lines)")
        #expect(after.lines.count == nodeLeftovers().count)
    }
}
