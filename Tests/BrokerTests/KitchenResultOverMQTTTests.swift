import Glibc
import HouseBus
import TestSupport
import Testing

/// Issue 42 end to end over a real Mosquitto broker: an MQTT start with a request id acts once
/// however often it comes, every answer to a start is published on `P/NODE/kitchen/result`, and
/// of two kitchens with one node name only one takes starts until it is gone.
///
/// mosquitto_pub stands for Home Assistant and mosquitto_sub watches; the kitchens start real
/// timer processes on the null device and every test cancels them through their sockets. No test
/// sleeps: each waits for a message or a line, and a later message the same kitchen reads is the
/// barrier that it read the earlier ones (one broker connection, in order).
@Suite struct KitchenResultOverMQTTTests {
    private static let node = NodeTopics(node: "kitchen")

    /// The results among `mosquitto_sub -v` lines, parsed, in order.
    private static func results(_ lines: [String]) -> [JSONValue] {
        let prefix = node.kitchenResult + " "
        return lines.filter { $0.hasPrefix(prefix) }.compactMap {
            JSONValue.parse(Array($0.dropFirst(prefix.count).utf8))
        }
    }

    /// The results with `id`.
    private static func results(_ lines: [String], id: String) -> [JSONValue] {
        results(lines).filter { $0["id"] == .string(id) }
    }

    /// The labels of the timers whose topics appear in `lines` (the kitchen's own excepted).
    private static func timerLabels(_ lines: [String]) -> Set<String> {
        Set(
            lines.compactMap { TimerTopics.parse(String($0.prefix { $0 != " " }), prefix: "eggtimer")?.0.label }
                .filter { $0 != NodeTopics.kitchenLabel })
    }

    /// Cancels every timer started from `room` (through their sockets).
    private func cancelAll(in room: EggtimerProcess) {
        let cancel = EggtimerProcess(["cancel", "--all"], in: room)
        #expect(cancel.finish() == .exited(0), "\(cancel.stderr)")
    }

    /// Cancels the kitchen's timers, waits for it to see each end, then ends it with SIGTERM: exit 0.
    private func end(_ kitchen: EggtimerProcess, labels: [String]) {
        cancelAll(in: kitchen)
        for label in labels { #expect(kitchen.expect("\(label): ended"), "\(kitchen.stdout)") }
        kitchen.signal(SIGTERM)
        #expect(kitchen.finish() == .exited(0), "\(kitchen.stderr)")
    }

    @Test func oneIDPublishedThreeTimesStartsOneTimerAndEveryDeliveryIsAnsweredWithIt() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let (folder, environment) = try KitchenOnBroker.config()
        defer { removeDirectory(folder) }
        let watcher = try MosquittoSubscriber.start(login, topics: ["eggtimer/kitchen/#"], log: broker.log)
        let kitchen = EggtimerProcess(["kitchen"] + KitchenOnBroker.bus(broker), environment: environment)
        #expect(
            watcher.wait(timeout: .seconds(15)) { $0.contains("\(Self.node.kitchenAvailability) online") },
            "\(watcher.lines) \(kitchen.stderr)")

        let start = #"{"start": "5 min pasta", "id": "t-1"}"#
        try mosquittoPublish(login, topic: Self.node.start, payload: start, log: broker.log)
        try mosquittoPublish(login, topic: Self.node.start, payload: start, log: broker.log)
        #expect(
            watcher.wait(timeout: .seconds(15)) { Self.results($0, id: "t-1").count == 2 }, "\(watcher.lines)")
        // Once more after it runs.
        try mosquittoPublish(login, topic: Self.node.start, payload: start, log: broker.log)
        #expect(
            watcher.wait(timeout: .seconds(15)) { Self.results($0, id: "t-1").count == 3 }, "\(watcher.lines)")
        let answers = Self.results(watcher.lines, id: "t-1")
        #expect(answers.allSatisfy { $0 == answers[0] }, "\(answers)")
        #expect(answers[0]["ok"] == .bool(true) && answers[0]["label"] == .string("pasta"))
        #expect(answers[0]["status"] == .number(0))
        #expect(answers[0]["text"]?.stringValue?.hasPrefix("pasta: started, rings in 5:00 (pid ") == true)
        // The same id for other words is refused, naming it; nothing starts for it.
        try mosquittoPublish(
            login, topic: Self.node.start, payload: #"{"start": "soft", "id": "t-1"}"#, log: broker.log)
        #expect(
            watcher.wait(timeout: .seconds(15)) { Self.results($0, id: "t-1").count == 4 }, "\(watcher.lines)")
        let other = try #require(Self.results(watcher.lines, id: "t-1").last)
        #expect(other["ok"] == .bool(false) && other["status"] == .number(64), "\(other)")
        #expect(other["text"]?.stringValue?.contains("request id 't-1' was given to another start") == true)

        // One timer: one pasta on the broker, no pasta-2, no Soft; one spawn in the kitchen's log
        // (read up to its line for the last start).
        #expect(kitchen.expect("request id 't-1' was given to another start"), "\(kitchen.stdout)")
        #expect(Self.timerLabels(watcher.lines) == ["pasta"], "\(watcher.lines)")
        let said = kitchen.stdout.split(separator: "\n")
        #expect(said.filter { $0.hasPrefix("following pasta") || $0.contains("pasta-2") }.isEmpty, "\(kitchen.stdout)")
        #expect(said.filter { $0.hasPrefix("a repeat of request t-1") }.count == 2, "\(kitchen.stdout)")
        let status = EggtimerProcess(["status"], in: kitchen)
        #expect(status.finish() == .exited(0), "\(status.stderr)")
        #expect(status.stdout.split(separator: "\n").filter { $0.contains("pasta") }.count == 1, "\(status.stdout)")
        end(kitchen, labels: ["pasta"])
    }

    @Test func refusedStartsAreAnsweredOnTheResultTopicWithTheirReasonAndStatus() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let (folder, environment) = try KitchenOnBroker.config()
        defer { removeDirectory(folder) }
        let watcher = try MosquittoSubscriber.start(login, topics: [Self.node.kitchenResult], log: broker.log)
        let online = try MosquittoSubscriber.start(login, topics: [Self.node.kitchenAvailability], log: broker.log)
        let kitchen = EggtimerProcess(
            ["kitchen", "--max-timers", "1"] + KitchenOnBroker.bus(broker), environment: environment)
        #expect(
            online.wait(timeout: .seconds(15)) { $0.contains("\(Self.node.kitchenAvailability) online") },
            "\(online.lines) \(kitchen.stderr)")
        try mosquittoPublish(
            login, topic: Self.node.start, payload: #"{"start": "10m first", "id": "r-1"}"#, log: broker.log)
        #expect(watcher.wait(timeout: .seconds(15)) { !Self.results($0, id: "r-1").isEmpty }, "\(watcher.lines)")
        #expect(Self.results(watcher.lines, id: "r-1").first?["ok"] == .bool(true), "\(watcher.lines)")

        for payload in [
            #"{"start": "tea", "id": "r-2"}"#, "tea", #"{"start": "1m rice", "id": "r-3"}"#,
            #"{"start": "soft", "id": "r 4"}"#, #"{"start": "soft", "id": "r-5""#,
        ] {
            try mosquittoPublish(login, topic: Self.node.start, payload: payload, log: broker.log)
        }
        #expect(watcher.wait(timeout: .seconds(15)) { Self.results($0).count == 6 }, "\(watcher.lines)")
        let answers = Self.results(watcher.lines).dropFirst()
        let expected: [(id: JSONValue, label: JSONValue, status: Double, text: String)] = [
            (.string("r-2"), .null, 64, "'tea' is neither a preset (soft, medium, hard) nor a duration"),
            (.null, .null, 64, "'tea' is neither a preset (soft, medium, hard) nor a duration"),
            (.string("r-3"), .string("rice"), 75, "rice: not started: 1 timers run already (the most: max-timers)"),
            (.null, .null, 64, "bad request id 'r 4'"),
            (.null, .null, 64, "not a JSON object"),
        ]
        for (answer, want) in zip(answers, expected) {
            #expect(answer["ok"] == .bool(false), "\(answer)")
            #expect(answer["id"] == want.id && answer["label"] == want.label, "\(answer)")
            #expect(answer["status"] == .number(want.status), "\(answer)")
            #expect(answer["text"]?.stringValue?.hasPrefix(want.text) == true, "\(answer)")
        }
        // Each refusal is the kitchen's line too: standard error for a bad payload, its log for the limit.
        #expect(kitchen.expect("rice: not started: 1 timers run already"), "\(kitchen.stdout)")
        #expect(kitchen.stderr.contains("ignored MQTT start on eggtimer/kitchen/start: bad request id 'r 4'"))
        end(kitchen, labels: ["first"])
    }

    @Test func ofTwoKitchensOnOneNodeOnlyOneTakesStartsUntilItIsGone() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let (folder, environment) = try KitchenOnBroker.config()
        defer { removeDirectory(folder) }
        let watcher = try MosquittoSubscriber.start(login, topics: ["eggtimer/kitchen/#"], log: broker.log)
        let first = EggtimerProcess(["kitchen"] + KitchenOnBroker.bus(broker), environment: environment)
        #expect(
            watcher.wait(timeout: .seconds(15)) { $0.contains("\(Self.node.kitchenAvailability) online") },
            "\(watcher.lines) \(first.stderr)")
        let claim = try #require(watcher.lines.first { $0.hasPrefix(Self.node.kitchenInstance + " ") })
        let firstID = String(claim.dropFirst(Self.node.kitchenInstance.count + 1))
        #expect(firstID.count == 16, "\(claim)")

        // A second kitchen (its own runtime folder: another machine) with the same node name.
        let second = EggtimerProcess(["kitchen"] + KitchenOnBroker.bus(broker), environment: environment)
        #expect(
            second.expect(
                "kitchen: another kitchen (instance \(firstID)) serves node kitchen on the broker: "
                    + "not taking MQTT starts until it is gone"), "\(second.stdout) \(second.stderr)")
        try mosquittoPublish(
            login, topic: Self.node.start, payload: #"{"start": "6m once", "id": "k-1"}"#, log: broker.log)
        #expect(first.expect("once: started, rings in 6:00"), "\(first.stdout)")
        #expect(watcher.wait(timeout: .seconds(15)) { !Self.results($0, id: "k-1").isEmpty }, "\(watcher.lines)")

        // The first ends (SIGTERM: its clean end says offline); the second takes over.
        first.signal(SIGTERM)
        #expect(first.finish() == .exited(0), "\(first.stderr)")
        #expect(
            second.expect(
                "kitchen: the other kitchen (instance \(firstID)) is gone from the broker: claiming node kitchen"),
            "\(second.stdout) \(second.stderr)")
        // Its `online` after the first's `offline`: it holds the starts.
        let offline = "\(Self.node.kitchenAvailability) offline"
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.firstIndex(of: offline).map { lines[$0...].contains("\(Self.node.kitchenAvailability) online") }
                    == true
            }, "\(watcher.lines)")
        // The second read the first start long before it took over: it started nothing for it.
        #expect(Self.results(watcher.lines, id: "k-1").count == 1, "\(watcher.lines)")
        #expect(!second.stdout.contains("once"), "\(second.stdout)")

        try mosquittoPublish(
            login, topic: Self.node.start, payload: #"{"start": "7m twice", "id": "k-2"}"#, log: broker.log)
        #expect(second.expect("twice: started, rings in 7:00"), "\(second.stdout)")
        #expect(watcher.wait(timeout: .seconds(15)) { Self.results($0, id: "k-2").count == 1 }, "\(watcher.lines)")
        #expect(Self.results(watcher.lines, id: "k-2").first?["ok"] == .bool(true))
        let twice = TimerTopics(node: "kitchen", label: "twice")
        #expect(
            watcher.wait(timeout: .seconds(15)) { StateLines.states($0, topic: twice.state).last?.state == "counting" },
            "\(watcher.lines)")
        #expect(Self.timerLabels(watcher.lines) == ["once", "twice"], "\(watcher.lines)")
        cancelAll(in: first)
        end(second, labels: ["twice"])
        #expect(Self.results(watcher.lines, id: "k-2").count == 1, "\(watcher.lines)")
    }
}
