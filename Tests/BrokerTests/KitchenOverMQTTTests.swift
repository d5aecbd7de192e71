import Glibc
import HouseBus
import TestSupport
import Testing

@testable import Kitchen

/// Issue 26 end to end: `eggtimer kitchen --mqtt` over a real Mosquitto broker, with
/// mosquitto_pub and mosquitto_sub as Home Assistant.
///
/// The kitchen starts real timer processes (on the null device, from a config file of the test's
/// own); every test cancels them through their sockets before ending the kitchen. No test sleeps
/// to wait for an event: a good start published after the bad ones is the barrier that the
/// kitchen has read them all (one broker connection, in order).
@Suite struct KitchenOverMQTTTests {
    private static let node = NodeTopics(node: "kitchen")

    /// The line `mosquitto_sub -v` prints for `message`.
    private func line(_ message: BusMessage) -> String {
        "\(message.topic) \(String(decoding: message.payload, as: UTF8.self))"
    }

    /// The kitchen's retained messages: its availability `online` and its four discovery configs.
    private var kitchenLines: [String] {
        ["\(Self.node.kitchenAvailability) online"]
            + HomeAssistantDiscovery.kitchenConfigs(
                for: Self.node, presets: ["Soft", "Medium", "Hard"], text: KitchenBus.startText
            ).map(line)
    }

    /// Cancels every timer the kitchen started (through their sockets), waits for the kitchen to
    /// see each end, then ends the kitchen with SIGTERM: exit 0.
    private func end(_ kitchen: EggtimerProcess, labels: [String]) {
        let cancel = EggtimerProcess(["cancel", "--all"], in: kitchen)
        #expect(cancel.finish() == .exited(0), "\(cancel.stderr)")
        for label in labels {
            #expect(kitchen.expect("\(label): ended"), "\(kitchen.stdout)")
        }
        kitchen.signal(SIGTERM)
        #expect(kitchen.finish() == .exited(0), "\(kitchen.stderr)")
    }

    @Test func startPayloadsRunTimersTheThirdIsRefusedAndTheEntitiesAreRetained() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let (folder, environment) = try KitchenOnBroker.config()
        defer { removeDirectory(folder) }
        let soft = TimerTopics(node: "kitchen", label: "Soft")
        let pasta = TimerTopics(node: "kitchen", label: "pasta")
        let watcher = try MosquittoSubscriber.start(
            login, topics: ["eggtimer/kitchen/#", "homeassistant/+/kitchen/#"], log: broker.log)
        let kitchen = EggtimerProcess(
            ["kitchen", "--max-timers", "2"] + KitchenOnBroker.bus(broker), environment: environment)
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in kitchenLines.allSatisfy(lines.contains) },
            "\(watcher.lines)")
        // Retained: a subscriber that comes later gets them from the broker.
        let late = try MosquittoSubscriber.start(
            login, topics: [Self.node.kitchenAvailability, "homeassistant/+/kitchen/#"], log: broker.log)
        #expect(late.wait(timeout: .seconds(10)) { lines in kitchenLines.allSatisfy(lines.contains) }, "\(late.lines)")

        try mosquittoPublish(login, topic: Self.node.start, payload: "soft", log: broker.log)
        try mosquittoPublish(login, topic: Self.node.start, payload: "7m30s pasta", log: broker.log)
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                StateLines.states(lines, topic: soft.state).last?.state == "counting"
                    && StateLines.states(lines, topic: pasta.state).last?.state == "counting"
            }, "\(watcher.lines)")
        let softState = try #require(StateLines.states(watcher.lines, topic: soft.state).last)
        let pastaState = try #require(StateLines.states(watcher.lines, topic: pasta.state).last)
        #expect(softState.durationSeconds == 300 && pastaState.durationSeconds == 450)
        #expect(kitchen.expect("Soft: started, rings in 5:00"), "\(kitchen.stdout)")
        #expect(kitchen.expect("pasta: started, rings in 7:30"), "\(kitchen.stdout)")

        // --max-timers 2: the third start is refused with one line, and nothing runs for it.
        try mosquittoPublish(login, topic: Self.node.start, payload: "1m third", log: broker.log)
        #expect(kitchen.expect("third: not started: 2 timers run already"), "\(kitchen.stdout)")
        #expect(kitchen.stdout.split(separator: "\n").filter { $0.contains("third") }.count == 1, "\(kitchen.stdout)")
        #expect(!watcher.lines.contains { $0.hasPrefix("eggtimer/kitchen/third/") })

        end(kitchen, labels: ["Soft", "pasta"])
        // A clean end: the kitchen's availability stays offline (retained) and its entities stay.
        let after = try MosquittoSubscriber.start(
            login, topics: [Self.node.kitchenAvailability, "homeassistant/+/kitchen/#"], log: broker.log)
        let stays = ["\(Self.node.kitchenAvailability) offline"] + kitchenLines.dropFirst()
        #expect(after.wait(timeout: .seconds(10)) { lines in stays.allSatisfy(lines.contains) }, "\(after.lines)")
    }

    @Test func badRetainedOversizedAndSmugglingPayloadsAreOneLineEachAndStartNothing() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let (folder, environment) = try KitchenOnBroker.config()
        defer { removeDirectory(folder) }
        // Left retained before the kitchen starts: a state of the broker, not a start.
        try mosquittoPublish(login, topic: Self.node.start, payload: "hard", retain: true, log: broker.log)
        let watcher = try MosquittoSubscriber.start(login, topics: ["eggtimer/kitchen/#"], log: broker.log)
        let kitchen = EggtimerProcess(["kitchen"] + KitchenOnBroker.bus(broker), environment: environment)
        #expect(
            watcher.wait(timeout: .seconds(15)) { $0.contains("\(Self.node.kitchenAvailability) online") },
            "\(watcher.lines)")
        let touched = folder + "/smuggled"
        let bad = [
            "lunch", String(repeating: "7", count: 4096), "7m --on-done 'touch \(touched)'", "7m kitchen",
        ]
        for payload in bad { try mosquittoPublish(login, topic: Self.node.start, payload: payload, log: broker.log) }
        // The barrier: a good start after them.
        try mosquittoPublish(login, topic: Self.node.start, payload: "10m last", log: broker.log)
        #expect(kitchen.expect("last: started, rings in 10:00"), "\(kitchen.stdout)")
        let last = TimerTopics(node: "kitchen", label: "last")
        #expect(
            watcher.wait(timeout: .seconds(15)) { StateLines.states($0, topic: last.state).last?.state == "counting" },
            "\(watcher.lines)")

        let lines = kitchen.stderr.split(separator: "\n").map(String.init)
        let expected = [
            "ignored a retained MQTT start on eggtimer/kitchen/start ('hard'): starts are not kept",
            "'lunch' is neither a preset (soft, medium, hard) nor a duration",
            "a start request of 4096 bytes is longer than 160",
            "'--on-done': a start request takes no options",
            "the label 'kitchen' is the kitchen's on the broker",
        ]
        for fragment in expected {
            #expect(lines.filter { $0.contains(fragment) }.count == 1, "\(fragment): \(kitchen.stderr)")
        }
        #expect(lines.count == expected.count, "\(kitchen.stderr)")
        // Only "last" started: no other timer's topics, no smuggled command ran.
        let timers = Set(
            watcher.lines.compactMap { TimerTopics.parse(String($0.prefix { $0 != " " }), prefix: "eggtimer")?.0.label }
        )
        #expect(timers == ["last", NodeTopics.kitchenLabel], "\(watcher.lines)")
        #expect(access(touched, F_OK) != 0)
        #expect(!kitchen.stdout.contains("Hard"), "\(kitchen.stdout)")

        end(kitchen, labels: ["last"])
        try mosquittoPublish(login, topic: Self.node.start, payload: nil, retain: true, log: broker.log)
    }
}
