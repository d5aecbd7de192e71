import Glibc
import HouseBus
import TestSupport
import Testing

/// Issue 41 over a real broker: the kitchen's MQTT start reads the one grammar, and a label with
/// spaces or letters beyond ASCII gets its own topic level and Home Assistant id.
@Suite struct StartGrammarOverMQTTTests {
    @Test func spacedAndWordedStartsRunTheTimersTheyName() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let folder = makePrivateDirectory("eggtimer-grammar-config")
        defer { removeDirectory(folder) }
        try writeFile(folder + "/config", "device = null\n")
        let node = NodeTopics(node: "kitchen")
        let watcher = try MosquittoSubscriber.start(
            login, topics: ["eggtimer/kitchen/#", "homeassistant/sensor/#"], log: broker.log)
        let kitchen = EggtimerProcess(
            ["kitchen", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--node", "kitchen", "--mqtt-keepalive", "5s"],
            environment: ["EGGTIMER_CONFIG": folder + "/config"])
        #expect(kitchen.expect("kitchen: listening on"), "\(kitchen.stdout)")
        #expect(watcher.wait(timeout: .seconds(15)) { $0.contains("\(node.kitchenAvailability) online") })
        let starts: [(payload: String, label: String, seconds: Double)] = [
            ("5 min pasta", "pasta", 300), ("1h 30m roast beef", "roast beef", 5400), ("3m Küche", "Küche", 180),
            ("90 sec", "90 sec", 90),
        ]
        // Refused with one line, nothing started: ambiguous words (read before the starts after it).
        try mosquittoPublish(login, topic: node.start, payload: "5 30", log: broker.log)
        for start in starts {
            try mosquittoPublish(login, topic: node.start, payload: start.payload, log: broker.log)
        }
        for start in starts {
            let topics = TimerTopics(node: "kitchen", label: start.label)
            #expect(
                watcher.wait(timeout: .seconds(15)) { lines in
                    StateLines.states(lines, topic: topics.state).last?.state == "counting"
                }, "\(start.payload): \(watcher.lines)")
            let state = StateLines.states(watcher.lines, topic: topics.state).last
            #expect(state?.durationSeconds == start.seconds && state?.label == start.label, "\(start.payload)")
            let id = HomeAssistantDiscovery.objectID(for: topics)
            #expect(
                watcher.lines.contains { $0.hasPrefix("homeassistant/sensor/\(id)/deadline/config ") },
                "\(start.label): \(id)")
        }
        #expect(
            kitchen.stderr.contains(
                "ignored MQTT start on eggtimer/kitchen/start: '30': give one duration; a label may not read as another"
            ),
            "\(kitchen.stderr)")
        let cancel = EggtimerProcess(["cancel", "--all"], in: kitchen)
        #expect(cancel.finish() == .exited(0), "\(cancel.stderr)")
        for start in starts { #expect(kitchen.expect("\(start.label): ended"), "\(kitchen.stdout)") }
        kitchen.signal(SIGTERM)
        #expect(kitchen.finish() == .exited(0), "\(kitchen.stderr)")
    }
}
