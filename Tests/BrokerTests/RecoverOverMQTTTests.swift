import Glibc
import HouseBus
import SystemKit
import TestSupport
import Testing

/// Issues 12 and 15 together: a `--mqtt` timer killed with SIGKILL comes back on the bus.
///
/// Started again by `eggtimer recover`, it rejoins the same broker, with the same node, prefix and login, and
/// publishes its retained state and availability again. Its record never holds the password.
///
/// A real Mosquitto broker per test; the timer and `recover` share one set of private XDG folders.
@Suite struct RecoverOverMQTTTests {
    /// The retained state payloads published on `topic` in `lines` (`mosquitto_sub -v` lines).
    private func states(_ lines: some Sequence<String>, topic: String) -> [TimerStatePayload] {
        StateLines.states(lines, topic: topic)
    }

    /// The timer's record file in `process`'s state folder (empty when missing).
    private func record(_ process: EggtimerProcess, label: String) -> String {
        readText(process.directory + "/state/eggtimer/\(LabelRule.key(label)).timer")
    }

    /// The pid in `recover`'s line `LABEL: resumed, rings in M:SS (pid N)`.
    private func pid(in text: String) -> pid_t? {
        guard let start = text.firstRange(of: "(pid ")?.upperBound else { return nil }
        return pid_t(text[start...].prefix { $0.isNumber })
    }

    /// Kills `timer` with SIGKILL once its record names the broker and its state `counting` is
    /// on the broker; then waits until the broker has sent its Last Will (`offline`), so what
    /// follows is the recovered process's doing, not the killed one's (the retained state of the
    /// killed one stays `counting`: only new lines count).
    /// - Returns: The killed timer's `counting` payload.
    private func kill(
        _ timer: EggtimerProcess, label: String, topics: TimerTopics, watcher: MosquittoSubscriber
    ) throws -> TimerStatePayload {
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.contains("\(topics.availability) online")
                    && states(lines, topic: topics.state).contains { $0.state == "counting" }
            }, "\(timer.stderr)")
        let counting = try #require(states(watcher.lines, topic: topics.state).first { $0.state == "counting" })
        // The record is written before the first state is published (the loop's first round).
        #expect(record(timer, label: label).contains("mqtt="))
        timer.signal(SIGKILL)
        #expect(timer.finish() == .signaled(SIGKILL))
        // The kernel closes the killed process's connection: the broker sends the Will at once.
        #expect(watcher.wait(timeout: .seconds(20)) { $0.last == "\(topics.availability) offline" })
        return counting
    }

    /// Runs `eggtimer recover` in `timer`'s folders.
    /// - Returns: The recovered process's pid (the caller ends it), and how many lines `watcher`
    ///   had read before.
    private func recover(_ timer: EggtimerProcess, environment: [String: String] = [:], watcher: MosquittoSubscriber)
        throws -> (pid: pid_t, seen: Int)
    {
        let seen = watcher.lines.count
        let recover = EggtimerProcess(["recover"], environment: environment, in: timer)
        #expect(recover.finish() == .exited(0), "\(recover.stderr)")
        #expect(recover.stdout.contains(": resumed, rings in "), "\(recover.stdout)")
        return (try #require(pid(in: recover.stdout), "\(recover.stdout)\(recover.stderr)"), seen)
    }

    /// Waits until the recovered process is back on the broker: availability `online` and the
    /// state `counting` for the same timer with the same deadline, in the lines after `seen`.
    private func expectBack(
        _ timer: EggtimerProcess, topics: TimerTopics, watcher: MosquittoSubscriber, seen: Int,
        killed: TimerStatePayload
    ) throws {
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                let fresh = lines.dropFirst(seen)
                return fresh.contains("\(topics.availability) online")
                    && states(fresh, topic: topics.state).contains { $0.state == "counting" }
            }, "\(readFile(timer.directory + "/state/eggtimer/\(topics.label).log"))")
        let again = try #require(states(watcher.lines.dropFirst(seen), topic: topics.state).first)
        #expect(again.node == killed.node && again.label == killed.label)
        #expect(again.durationSeconds == killed.durationSeconds)
        // Same boot: the boot clock's deadline, exact; the UTC one is derived from it again.
        let drift = (again.deadlineUnixMilliseconds ?? 0) - (killed.deadlineUnixMilliseconds ?? .max)
        #expect(abs(drift) < 1000, "deadline moved by \(drift) ms")
    }

    /// Cancels the recovered timer over MQTT (it still takes commands there) and waits for its end.
    private func cancel(_ resumed: pid_t, topics: TimerTopics, login: BrokerLogin, log: String) throws {
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", log: log)
        #expect(awaitEnd(of: resumed, timeout: .seconds(10)))
    }

    @Test func aKilledTimerIsRecoveredOntoTheSameTopics() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let topics = TimerTopics(prefix: "house/eggs", node: "pantry", label: "stew")
        let watcher = try MosquittoSubscriber.start(
            login, topics: [topics.availability, topics.state], log: broker.log)
        let timer = EggtimerProcess([
            "30m", "--label", "stew", "-D", "null", "--json", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--node",
            "pantry", "--mqtt-prefix", "house/eggs", "--mqtt-keepalive", "5s",
        ])
        let killed = try kill(timer, label: "stew", topics: topics, watcher: watcher)
        let (resumed, seen) = try recover(timer, watcher: watcher)
        defer { Glibc.kill(resumed, SIGKILL) }  // only when a check failed: cancelled, it is gone by then
        try expectBack(timer, topics: topics, watcher: watcher, seen: seen, killed: killed)
        // Retained at the broker: a client that subscribes now sees the timer back.
        let late = try MosquittoSubscriber.start(
            login, topics: [topics.availability, topics.state], log: broker.log)
        #expect(
            late.wait(timeout: .seconds(5)) { lines in
                lines.contains("\(topics.availability) online")
                    && states(lines, topic: topics.state).last?.state == "counting"
            }, "\(late.lines)")
        try cancel(resumed, topics: topics, login: login, log: broker.log)
        #expect(watcher.wait(timeout: .seconds(5)) { states($0, topic: topics.state).last?.state == "cancelled" })
        #expect(record(timer, label: "stew").isEmpty, "a cancelled timer's record is removed")
    }

    @Test func thePasswordIsNeverRecordedAndIsReadAgainWhenRecovered() throws {
        let broker = try MosquittoBroker(users: ["ann": "env-s3cret", "bob": "file-s3cret"])
        let secrets = makePrivateDirectory("eggtimer-secrets")
        defer { Child.spawn(SystemTool.rm.path, ["-rf", secrets]).wait(timeout: .seconds(30)) }
        try writeFile(secrets + "/password", "file-s3cret\n")
        typealias Room = (
            user: String, password: String, label: String, options: [String], environment: [String: String]
        )
        let rooms: [Room] = [
            ("ann", "env-s3cret", "soup", [], ["EGGTIMER_MQTT_PASSWORD": "env-s3cret"]),
            // The file wins over the environment, whose password would be refused.
            (
                "bob", "file-s3cret", "rice", ["--mqtt-password-file", secrets + "/password"],
                ["EGGTIMER_MQTT_PASSWORD": "wrong"]
            ),
        ]
        for room in rooms {
            let login = BrokerLogin(broker, user: room.user, password: room.password)
            let topics = TimerTopics(node: "kitchen", label: room.label)
            let watcher = try MosquittoSubscriber.start(
                login, topics: [topics.availability, topics.state], log: broker.log)
            let timer = EggtimerProcess(
                [
                    "30m", "--label", room.label, "-D", "null", "--json", "--mqtt",
                    "mqtt://\(room.user)@127.0.0.1:\(broker.port)", "--node", "kitchen", "--mqtt-keepalive", "5s",
                ] + room.options, environment: room.environment)
            let killed = try kill(timer, label: room.label, topics: topics, watcher: watcher)
            let text = record(timer, label: room.label)
            #expect(text.contains("mqtt=mqtt://\(room.user)@127.0.0.1:\(broker.port)\n"), "\(text)")
            #expect(!text.contains("s3cret") && !text.contains("wrong"), "\(text)")
            #expect(room.options.isEmpty || text.contains("mqtt_password_file=\(secrets)/password\n"), "\(text)")
            // recover's environment holds the password again (a service's Environment=), or the file does.
            let (resumed, seen) = try recover(timer, environment: room.environment, watcher: watcher)
            defer { Glibc.kill(resumed, SIGKILL) }
            try expectBack(timer, topics: topics, watcher: watcher, seen: seen, killed: killed)
            try cancel(resumed, topics: topics, login: login, log: broker.log)
        }
    }
}
