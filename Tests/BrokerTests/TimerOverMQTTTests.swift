import Glibc
import HouseBus
import SystemKit
import TestSupport
import Testing

/// Issue 15 end to end: real eggtimer processes as rooms of a house.
///
/// A real Mosquitto broker per test, and mosquitto_sub/mosquitto_pub as a third client. No test
/// sleeps to wait for an event.
@Suite struct TimerOverMQTTTests {
    /// A timer's broker arguments: the broker's plain listener, the node, the shortest keepalive (5 s).
    private func bus(_ broker: MosquittoBroker, node: String = "kitchen") -> [String] {
        follow(broker, node: node) + ["--mqtt-keepalive", "5s"]
    }

    /// A follower's broker arguments (the hidden keepalive is for timers only).
    private func follow(_ broker: MosquittoBroker, node: String) -> [String] {
        ["--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--node", node]
    }

    /// A test's own broker, a login to it, and one timer of the kitchen node: its topics, a
    /// subscriber to `watched` (started first; retained messages come to it either way) and the
    /// process `eggtimer <length> --label <label> -D null <options>` with the bus options.
    private func kitchenTimer(
        _ label: String, _ length: String, _ options: [String] = ["--json"],
        watching watched: (TimerTopics) -> [String] = { [$0.state] }
    ) throws -> (
        broker: MosquittoBroker, login: BrokerLogin, topics: TimerTopics, watcher: MosquittoSubscriber,
        timer: EggtimerProcess
    ) {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let topics = TimerTopics(node: "kitchen", label: label)
        let watcher = try MosquittoSubscriber.start(login, topics: watched(topics), log: broker.log)
        let timer = EggtimerProcess([length, "--label", label, "-D", "null"] + options + bus(broker))
        return (broker, login, topics, watcher, timer)
    }

    /// The `state` payload of the subscriber line `topic payload`, parsed.
    private func state(_ line: String, topic: String) -> TimerStatePayload? { StateLines.state(line, topic: topic) }

    /// The states published on `topic`, in order.
    private func states(_ lines: [String], topic: String) -> [String] {
        lines.compactMap { state($0, topic: topic)?.state }
    }

    /// Whether `line` clears `topic` (an empty retained payload: `mosquitto_sub -v` prints `(null)`).
    private func isClear(_ line: String, topic: String) -> Bool { line == topic + " (null)" }

    /// A file's size in bytes (0 when missing).
    private func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The alarm rings until it is acknowledged (over MQTT): with `--loops 1` on the null device
    /// its one pass ended in microseconds, the audio thread starts it at the deadline by itself,
    /// and a main loop woken late under load (CI) took the ring's start and end in one round, so
    /// `ringing` was never a state to publish.
    @Test func stateIsRetainedUpdatedThroughRingingAndDoneThenCleared() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer(
            "tea", "2s", ["--json"], watching: { [$0.state, $0.availability] })
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        // Retained: a client that subscribes later gets it at once.
        let late = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        #expect(late.wait(timeout: .seconds(5)) { !states($0, topic: topics.state).isEmpty })
        let counting = try #require(late.lines.compactMap { state($0, topic: topics.state) }.first)
        #expect(counting.node == "kitchen" && counting.label == "tea" && counting.durationSeconds == 2)
        #expect(counting.deadlineUnixMilliseconds != nil)

        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("ringing") })
        try mosquittoPublish(login, topic: topics.command, payload: "ack", log: broker.log)
        #expect(timer.finish() == .exited(0))
        #expect(watcher.wait(timeout: .seconds(5)) { $0.contains { isClear($0, topic: topics.state) } })
        let lines = watcher.lines
        // In order; a state may come twice (a refresh, or a fresh one after the first connect).
        let seen = states(lines, topic: topics.state)
        #expect(
            seen.enumerated().filter { $0.offset == 0 || seen[$0.offset - 1] != $0.element }.map(\.element) == [
                "counting", "ringing", "done",
            ])
        let clear = try #require(lines.lastIndex { isClear($0, topic: topics.state) })
        let done = try #require(lines.lastIndex { state($0, topic: topics.state)?.state == "done" })
        #expect(done < clear)
        #expect(lines.contains("\(topics.availability) online"))
        #expect(
            watcher.wait(timeout: .seconds(5)) {
                $0.suffix(2) == ["\(topics.availability) offline", "\(topics.availability) (null)"]
            }, "\(watcher.lines)")
        // Nothing retained is left: the subscriber's start waits for its own retained marker,
        // which the broker sends after every retained message of the filters.
        // Of the node, only its pinned entities stay (nodeLeftovers).
        let after = try MosquittoSubscriber.start(login, topics: ["eggtimer/#", "homeassistant/#"], log: broker.log)
        #expect(Set(after.lines) == nodeLeftovers() && after.lines.count == nodeLeftovers().count, "\(after.lines)")
    }

    /// A Last Will `offline` of an earlier process with the same node and label, delivered by the
    /// broker after this one came online (a power cut shorter than 1.5 × keepalive), is answered
    /// with `online` again.
    @Test func aStaleOfflineForARunningTimerIsAnsweredWithOnline() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer("tea", "1h", watching: { [$0.availability] })
        #expect(watcher.wait(timeout: .seconds(15)) { $0.contains("\(topics.availability) online") })
        try mosquittoPublish(login, topic: topics.availability, payload: "offline", retain: true, log: broker.log)
        #expect(
            watcher.wait(timeout: .seconds(5)) {
                $0.suffix(2) == ["\(topics.availability) offline", "\(topics.availability) online"]
            },
            "\(watcher.lines)")
        let late = try MosquittoSubscriber.start(login, topics: [topics.availability], log: broker.log)
        #expect(late.lines == ["\(topics.availability) online"], "retained: \(late.lines)")
        timer.signal(SIGTERM)
        #expect(timer.finish() == .exited(143))
    }

    @Test func ackOverMQTTEndsTheRingingProcessWithZeroWithin300ms() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer("eggs", "1s")
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("ringing") })
        let sent = ContinuousClock.now
        try mosquittoPublish(login, topic: topics.command, payload: "ack", log: broker.log)
        let termination = timer.finish(timeout: .seconds(5))
        let took = ContinuousClock.now - sent
        #expect(termination == .exited(0), "\(timer.stderr)")
        print("ack over MQTT (mosquitto_pub start-up included) → exit: \(took)")
        #expect(took < .milliseconds(300))
        #expect(timer.stdout.contains(#""by":"mqtt""#))
    }

    /// `ack --all --mqtt` (issue 24): one command reaches every ringing timer on the broker, a
    /// line each, and both end acknowledged; with none left it exits 3.
    @Test func ackAllOverMQTTReachesEveryRingingTimer() throws {
        let (broker, login, eggs, watcher, first) = try kitchenTimer(
            "eggs", "1s",
            watching: {
                [$0.state, TimerTopics(node: "kitchen", label: "tea").state]
            })
        let tea = TimerTopics(node: "kitchen", label: "tea")
        let second = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) {
                states($0, topic: eggs.state).contains("ringing") && states($0, topic: tea.state).contains("ringing")
            }, "\(watcher.lines)")
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let all = EggtimerProcess.run(["ack", "--all", "--mqtt", url])
        #expect(all.termination == .exited(0), "\(all.stderr)")
        #expect(
            all.stdout.split(separator: "\n").sorted() == ["kitchen/eggs: ack sent", "kitchen/tea: ack sent"],
            "\(all.stdout)")
        #expect(first.finish() == .exited(0) && second.finish() == .exited(0))
        let again = EggtimerProcess.run(["ack", "--all", "--mqtt", url])
        #expect(again.termination == .exited(3), "\(again.stdout)")
        #expect(again.stderr == "eggtimer: no timer is ringing or snoozed on the MQTT broker\n")
        _ = login
    }

    @Test func commandsForAnotherTimerAndGarbageAreIgnored() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer("rice", "30m")
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        let oversized = String(repeating: "a", count: 5000)
        for payload in ["frobnicate", "add lots", "cancel cancel", oversized, "\u{1}\u{2}"] {
            try mosquittoPublish(login, topic: topics.command, payload: payload, log: broker.log)
        }
        try mosquittoPublish(login, topic: "eggtimer/garden/rice/command", payload: "cancel", log: broker.log)
        try mosquittoPublish(login, topic: "eggtimer/kitchen/tea/command", payload: "cancel", log: broker.log)
        // Each publisher finished before the next began: once this one acts, the others were read.
        try mosquittoPublish(login, topic: topics.command, payload: " add 60\n", log: broker.log)
        #expect(timer.expect(#""by_s":60"#))
        #expect(timer.stderr.lines(containing: "ignored MQTT command").count == 5, "\(timer.stderr)")
        #expect(!timer.stdout.contains(#""event":"cancelled""#))
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", log: broker.log)
        #expect(timer.finish() == .exited(1))
    }

    /// A command is an event, not a state (issue 20).
    ///
    /// A `cancel` (and an `add -250`) left retained on the command topic before the timer starts
    /// is ignored with one line, not acted on.
    @Test func aRetainedCommandIsIgnoredWithOneLine() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let topics = TimerTopics(node: "kitchen", label: "tea")
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", retain: true, log: broker.log)
        let watcher = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        let timer = EggtimerProcess(["30m", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        // A live command after it: once it acts, the retained one was read (it came first).
        try mosquittoPublish(login, topic: topics.command, payload: "add 60", log: broker.log)
        #expect(timer.expect(#""by_s":60"#), "\(timer.stdout)\(timer.stderr)")
        #expect(!timer.stdout.contains(#""event":"cancelled""#), "\(timer.stdout)")
        let ignored = timer.stderr.lines(containing: "retained").map(String.init)
        #expect(
            ignored == [
                "eggtimer: ignored a retained MQTT command on \(topics.command) ('cancel'): commands are not kept; "
                    + "clear it with mosquitto_pub -r -n -t '\(topics.command)'"
            ], "\(timer.stderr)")
        // Replaced by a retained `add -250`: the next timer ignores that too, and keeps its length.
        try mosquittoPublish(login, topic: topics.command, payload: "add -250", retain: true, log: broker.log)
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", log: broker.log)
        #expect(timer.finish() == .exited(1))
        let next = EggtimerProcess(["5m", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.contains { state($0, topic: topics.state)?.durationSeconds == 300 }
            })
        try mosquittoPublish(login, topic: topics.command, payload: "add 30", log: broker.log)
        #expect(next.expect(#""by_s":30"#), "\(next.stdout)\(next.stderr)")
        #expect(!next.stdout.contains(#""by_s":-250"#), "\(next.stdout)")
        #expect(next.stderr.lines(containing: "ignored a retained MQTT command").count == 1, "\(next.stderr)")
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", log: broker.log)
        #expect(next.finish() == .exited(1))
    }

    /// Two timers with one node and label on one broker (two Pis both called `raspberrypi`;
    /// issue 20).
    ///
    /// The second to arrive warns once and stays off the topics; ending, it clears nothing of
    /// the first's, which stays in `status --mqtt` and can be cancelled there. Once the first is
    /// gone, a waiting one takes the topics.
    @Test func aSecondTimerWithTheSameNodeAndLabelWarnsOnceStaysOffAndClearsNothing() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let topics = TimerTopics(node: "kitchen", label: "tea")
        let warning = "another timer already runs as kitchen/tea on the broker"
        let watcher = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        let availability = try MosquittoSubscriber.start(login, topics: [topics.availability], log: broker.log)
        let first = EggtimerProcess(["30m", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        let held = try #require(watcher.lines.compactMap { state($0, topic: topics.state) }.first)
        let firstID = held.instance ?? "none"
        #expect(held.instance?.count == 16, "\(held)")

        let second = EggtimerProcess(["5m", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(second.expect(#""event":"started""#), "\(second.stderr)")
        try eventually(
            "the warning on standard error: \(second.stderr)", deadline: .now + .seconds(15), every: .milliseconds(20)
        ) {
            second.stderr.contains(warning)
        }
        second.signal(SIGTERM)
        #expect(second.finish() == .exited(143))
        #expect(second.stderr.split(separator: "\n").filter { $0.contains(warning) }.count == 1, "\(second.stderr)")
        // Only the first timer's states were ever on the topic, and its state is still retained.
        #expect(
            watcher.lines.compactMap { state($0, topic: topics.state) }.allSatisfy { $0.instance == firstID },
            "\(watcher.lines)")
        #expect(!watcher.lines.contains { isClear($0, topic: topics.state) }, "\(watcher.lines)")
        let late = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        #expect(late.lines.compactMap { state($0, topic: topics.state)?.instance } == [firstID], "\(late.lines)")
        let status = EggtimerProcess.run(["status", "--mqtt", url])
        #expect(
            status.stdout.split(separator: "\n").dropFirst().map { $0.hasPrefix("kitchen/tea  counting") } == [true],
            "\(status.stdout)")

        // A third one waits; cancelling the first over MQTT reaches the first, then the third
        // takes the topics.
        let third = EggtimerProcess(["5m", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        try eventually(
            "the warning on standard error: \(third.stderr)", deadline: .now + .seconds(15), every: .milliseconds(20)
        ) {
            third.stderr.contains(warning)
        }
        let cancel = EggtimerProcess.run(["cancel", "--mqtt", url, "kitchen/tea"])
        #expect(cancel.termination == .exited(0), "\(cancel.stderr)")
        #expect(first.finish() == .exited(1))
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.contains { state($0, topic: topics.state).map { $0.instance != firstID } == true }
            }, "\(watcher.lines)")
        let taken = try #require(watcher.lines.compactMap { state($0, topic: topics.state) }.last)
        #expect(taken.durationSeconds == 300 && taken.state == "counting", "\(taken)")
        let cancelThird = EggtimerProcess.run(["cancel", "--mqtt", url, "kitchen/tea"])
        #expect(cancelThird.termination == .exited(0), "\(cancelThird.stderr)\(third.stderr)\(availability.lines)")
        #expect(third.finish() == .exited(1))
    }

    /// The state carries when it was published, whether the publisher's clock was synchronised
    /// and its republish interval (issue 20); a retained state older than three intervals is stale.
    ///
    /// The stale one stands for a timer acknowledged while the broker was down, the broker
    /// restarted with its retained messages: `ringing` and `online` for ever. Readers judge it
    /// stale only while their own clock is synchronised, so what `status`, `ack` and `follow` do
    /// with it depends on this machine's clock (adjtimex), and both outcomes are checked.
    @Test func theStateSaysWhenItWasPublishedAndAStaleOneIsNotBelievedOnASynchronisedClock() throws {
        let synchronised = (try? kernelClockState())?.isSynchronised ?? true
        print("this machine's clock is \(synchronised ? "" : "not ")synchronised")
        let (broker, login, topics, watcher, timer) = try kitchenTimer("tea", "30m")
        let url = "mqtt://127.0.0.1:\(broker.port)"
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        let payload = try #require(watcher.lines.compactMap { state($0, topic: topics.state) }.first)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let wall = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        let published = try #require(payload.publishedUnixMilliseconds, "\(watcher.lines)")
        #expect(abs(wall - published) < 10_000, "published \(published), wall clock \(wall)")
        #expect(payload.intervalSeconds == 60 && payload.publisherClockSynchronised == synchronised)
        #expect(payload.instance?.count == 16)
        let raw = try #require(watcher.lines.first { $0.hasPrefix(topics.state + " {") })
        for key in [#""published":""#, #""interval_s":60"#, #""clock_synced":"#, #""instance":""#] {
            #expect(raw.contains(key), "\(raw)")
        }
        timer.signal(SIGTERM)
        #expect(timer.finish() == .exited(143))

        // Left behind an hour ago, by a publisher whose clock was synchronised.
        let pie = TimerTopics(node: "garden", label: "pie")
        let left = TimerStatePayload(
            state: "ringing", label: "pie", node: "garden", durationSeconds: 60, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil, instance: "0123456789abcdef", publishedUnixMilliseconds: wall - 3_600_000,
            publisherClockSynchronised: true, intervalSeconds: 60)
        try mosquittoPublish(
            login, topic: pie.state, payload: String(decoding: left.json(), as: UTF8.self), retain: true,
            log: broker.log)
        try mosquittoPublish(login, topic: pie.availability, payload: "online", retain: true, log: broker.log)
        let listed = EggtimerProcess.run(["status", "--mqtt", url])
        let row = listed.stdout.split(separator: "\n").first { $0.hasPrefix("garden/pie") } ?? ""
        #expect(row.hasPrefix(synchronised ? "garden/pie  stale" : "garden/pie  ringing"), "\(listed.stdout)")
        let ack = EggtimerProcess.run(["ack", "--mqtt", url, "garden/pie"])
        if synchronised {
            #expect(ack.termination == .exited(3) && ack.stdout.isEmpty)
            #expect(ack.stderr.hasPrefix("eggtimer: garden/pie is stale: "), "\(ack.stderr)")
        } else {
            #expect(ack.termination == .exited(0) && ack.stdout == "garden/pie: ack sent\n", "\(ack.stderr)")
        }
        let follower = EggtimerProcess(["follow", "-D", "null"] + follow(broker, node: "hall"))
        #expect(
            follower.expect(synchronised ? "garden/pie: stale" : "garden/pie: ringing", timeout: .seconds(15)),
            "\(follower.stdout)\(follower.stderr)")
        follower.signal(SIGTERM)
        #expect(follower.finish() == .exited(143))
        #expect(!follower.stdout.contains("garden/pie: ringing") || !synchronised, "\(follower.stdout)")
    }

    /// Anyone who can publish can send `add` the extreme numbers: each is ignored with one line
    /// naming the amount and the timer counts on (`add -9223372036854775808` trapped it, exit 132).
    @Test func addWithExtremeAmountsIsIgnoredAndTheTimerCountsOn() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer("soup", "30m")
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        let amounts = [
            "-9223372036854775808", "9223372036854775807", "-9223372036854775809", "-2147483648", "1e999", "NaN", "-0",
        ]
        for amount in amounts {
            try mosquittoPublish(login, topic: topics.command, payload: "add \(amount)", log: broker.log)
        }
        // Each publisher finished before the next began: once this one acts, the others were read.
        try mosquittoPublish(login, topic: topics.command, payload: "add 60", log: broker.log)
        #expect(timer.expect(#""by_s":60"#), "\(timer.stderr)")
        #expect(timer.stderr.lines(containing: "ignored MQTT command").count == amounts.count, "\(timer.stderr)")
        for amount in amounts {
            #expect(timer.stderr.contains("bad amount \"\(amount)\" for add"), "\(timer.stderr)")
        }
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", log: broker.log)
        #expect(timer.finish() == .exited(1))
    }

    @Test func pauseResumeAndAddArriveAsTheKeysWould() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer("bread", "30m")
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        try mosquittoPublish(login, topic: topics.command, payload: "pause", log: broker.log)
        #expect(timer.expect(#""event":"paused""#))
        #expect(watcher.wait(timeout: .seconds(5)) { states($0, topic: topics.state).last == "paused" })
        try mosquittoPublish(login, topic: topics.command, payload: "resume", log: broker.log)
        #expect(timer.expect(#""event":"resumed""#))
        try mosquittoPublish(login, topic: topics.command, payload: "add -600", log: broker.log)
        #expect(timer.expect(#""by_s":-600"#))
        #expect(
            watcher.wait(timeout: .seconds(5)) { lines in
                lines.compactMap { state($0, topic: topics.state) }.last.map { $0.remainingSeconds < 1201 } == true
            })
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", log: broker.log)
        #expect(timer.finish() == .exited(1))
    }

    @Test func discoveryConfigsCarryTheKeysAndAreRemovedAtTheEnd() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let watcher = try MosquittoSubscriber.start(login, topics: ["homeassistant/#"], log: broker.log)
        let timer = EggtimerProcess(["30m", "--label", "soup", "-D", "null", "--json"] + bus(broker))
        let sensorTopic = "homeassistant/sensor/kitchen__soup/deadline/config"
        let buttonTopic = "homeassistant/button/kitchen__soup/ack/config"
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.contains { $0.hasPrefix(sensorTopic + " {") }
                    && lines.contains { $0.hasPrefix(buttonTopic + " {") }
            })
        let sensor = try #require(watcher.lines.first { $0.hasPrefix(sensorTopic + " ") })
        let button = try #require(watcher.lines.first { $0.hasPrefix(buttonTopic + " ") })
        let sensorConfig = try #require(JSONValue.parse(Array(sensor.dropFirst(sensorTopic.count + 1).utf8)))
        let buttonConfig = try #require(JSONValue.parse(Array(button.dropFirst(buttonTopic.count + 1).utf8)))
        for key in ["name", "unique_id", "state_topic", "value_template", "availability_topic", "device"] {
            #expect(sensorConfig[key] != nil, "sensor lacks \(key)")
        }
        #expect(sensorConfig["device_class"]?.stringValue == "timestamp")
        #expect(sensorConfig["state_topic"]?.stringValue == "eggtimer/kitchen/soup/state")
        #expect(sensorConfig["availability_topic"]?.stringValue == "eggtimer/kitchen/soup/availability")
        // The timer's own device, under the node's (issue 45).
        #expect(sensorConfig["device"]?["identifiers"]?.arrayValue?.first?.stringValue == "eggtimer_kitchen__soup")
        #expect(sensorConfig["device"]?["via_device"]?.stringValue == "eggtimer_kitchen")
        #expect(buttonConfig["command_topic"]?.stringValue == "eggtimer/kitchen/soup/command")
        #expect(buttonConfig["payload_press"]?.stringValue == "ack")
        timer.signal(SIGTERM)
        #expect(timer.finish() == .exited(143))
        #expect(
            watcher.wait(timeout: .seconds(5)) { lines in
                lines.contains { isClear($0, topic: sensorTopic) } && lines.contains { isClear($0, topic: buttonTopic) }
            })
    }

    @Test func availabilityGoesOfflineAfterKill9() throws {
        let (broker, _, topics, watcher, timer) = try kitchenTimer(
            "stew", "30m", [], watching: { [$0.availability, $0.state] })
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.contains("\(topics.availability) online") && states(lines, topic: topics.state) == ["counting"]
            })
        timer.signal(SIGKILL)
        #expect(timer.finish() == .signaled(SIGKILL))
        #expect(watcher.wait(timeout: .seconds(10)) { $0.last == "\(topics.availability) offline" })
        // Its retained state is stale now: status says so.
        let status = EggtimerProcess.run(["status", "--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(
            status.stdout.split(separator: "\n").last?.hasPrefix("kitchen/stew  offline") == true,
            "\(status.stdout)\(status.stderr)")
        // Nothing would answer a command: refused, not "sent".
        for verb in ["cancel", "ack", "snooze"] {
            let refused = EggtimerProcess.run([verb, "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "kitchen/stew"])
            #expect(refused.termination == .exited(3), "\(verb): \(refused.stdout)")
            #expect(refused.stderr == "eggtimer: kitchen/stew is offline\n" && refused.stdout.isEmpty)
        }
    }

    /// Issue 20: where the broker speaks MQTT 5 (Mosquitto 2 does), the retained state carries a
    /// message expiry of three intervals (3 × `interval_s`), so a broker drops a state nobody
    /// refreshes; availability and discovery carry none (the Last Will's `offline` stays).
    @Test func theRetainedStateExpiresAfterThreeIntervalsOverMQTT5() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer(
            "rice", "30m", [], watching: { [$0.state, $0.availability] })
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.contains("\(topics.availability) online") && states(lines, topic: topics.state) == ["counting"]
            })
        let sensorTopic = "homeassistant/sensor/kitchen__rice/deadline/config"
        // An MQTT 5 subscriber that came later gets the retained copies with the expiry left (%E).
        let later = try MosquittoSubscriber.start(
            login, topics: [topics.state, topics.availability, sensorTopic],
            format: ["-V", "mqttv5", "-F", "%t %p expiry=%E"], log: broker.log)
        #expect(later.wait(timeout: .seconds(10)) { $0.count >= 3 }, "\(later.lines)")
        let stateLine = try #require(later.lines.first { $0.hasPrefix(topics.state + " {") })
        let parts = stateLine.split(separator: " expiry=")
        #expect(parts.count == 2, "\(stateLine)")
        let interval = try #require(state(String(parts[0]), topic: topics.state)?.intervalSeconds)
        #expect(interval == 60)
        let expiry = try #require(parts.last.flatMap { Double($0) }, "\(stateLine)")
        // The broker counts it down from 3 × interval_s (180 s) as the copy waits.
        #expect(expiry <= 3 * interval && expiry >= 3 * interval - 10, "\(stateLine)")
        #expect(later.lines.contains("\(topics.availability) online expiry="), "\(later.lines)")
        #expect(
            later.lines.contains { $0.hasPrefix(sensorTopic + " {") && $0.hasSuffix("} expiry=") }, "\(later.lines)")
        timer.signal(SIGKILL)
        #expect(timer.finish() == .signaled(SIGKILL))
    }

    @Test func availabilityGoesOfflineAfterSIGSTOPPastTheKeepalive() throws {
        let (broker, _, topics, watcher, timer) = try kitchenTimer(
            "jam", "30m", [], watching: { [$0.availability] })
        #expect(watcher.wait(timeout: .seconds(15)) { $0.last == "\(topics.availability) online" })
        let stopped = ContinuousClock.now
        timer.signal(SIGSTOP)
        // The broker gives up after 1.5 × the 5 s keepalive (it looks every few seconds).
        #expect(watcher.wait(timeout: .seconds(30)) { $0.last == "\(topics.availability) offline" })
        let took = ContinuousClock.now - stopped
        print("availability offline after SIGSTOP (keepalive 5 s): \(took)")
        #expect(took >= .seconds(5))
        timer.signal(SIGCONT)
        // Continued, it reconnects and says it is online again.
        #expect(watcher.wait(timeout: .seconds(15)) { $0.last == "\(topics.availability) online" })
        timer.signal(SIGTERM)
        #expect(timer.finish() == .exited(143))
        withExtendedLifetime(broker) {}  // the broker runs until the end
    }

    @Test func aBrokerKilledMidCountdownDoesNotDelayTheAlarmAndTheStateComesBack() throws {
        let (broker, login, topics, watcher, timer) = try kitchenTimer("pasta", "4s")
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        watcher.stop()
        broker.kill()
        #expect(timer.expect(#""event":"sounding""#, timeout: .seconds(15)))
        let lateness = try soundingLateness(timer.stdout)
        print("alarm lateness with the broker killed: \(lateness)")
        #expect(lateness < .milliseconds(50))
        #expect(timer.stderr.lines(containing: "warning: MQTT: ").count == 1, "\(timer.stderr)")
        // One sentence: "eggtimer: warning: MQTT: broker mqtt://… closed the connection; the timer …".
        let warning = timer.stderr.lines(containing: "warning: MQTT: ").first.map(String.init) ?? ""
        #expect(
            warning
                == "eggtimer: warning: MQTT: broker mqtt://127.0.0.1:\(broker.port) closed the connection; "
                + "the timer counts and rings here anyway, reconnecting", "\(timer.stderr)")
        try broker.restart()
        let again = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        #expect(again.wait(timeout: .seconds(40)) { states($0, topic: topics.state).contains("ringing") })
        try mosquittoPublish(login, topic: topics.command, payload: "ack", log: broker.log)
        #expect(timer.finish() == .exited(0))
    }

    @Test(arguments: [
        (url: "mqtt://kim@127.0.0.1", password: "wrong"),
        (url: "mqtt://nosuchhost.invalid", password: ""),
    ])
    func aRefusedOrUnresolvableBrokerWarnsOnceAndTheTimerRingsOnTime(url: String, password: String) throws {
        let broker = try MosquittoBroker(users: ["kim": "right"])
        let address = url.hasSuffix("127.0.0.1") ? url + ":\(broker.port)" : url
        let timer = EggtimerProcess(
            ["2s", "--label", "tea", "-D", "null", "--json", "--mqtt", address, "--node", "kitchen"],
            environment: ["EGGTIMER_MQTT_PASSWORD": password])
        #expect(timer.expect(#""event":"sounding""#, timeout: .seconds(15)))
        let lateness = try soundingLateness(timer.stdout)
        print("alarm lateness with \(url): \(lateness)")
        #expect(lateness < .milliseconds(50))
        timer.signal(SIGUSR1)
        #expect(timer.finish() == .exited(0))
        #expect(timer.stderr.lines(containing: "warning: MQTT: ").count == 1, "\(timer.stderr)")
    }

    @Test func tlsWithTheCAAndAPasswordFilePublishesAndWithoutTheCAOnlyWarns() throws {
        let broker = try MosquittoBroker(users: ["kim": "right"], tls: true)
        let tlsPort = try #require(broker.tlsPort)
        let secrets = makePrivateDirectory("eggtimer-secrets")
        defer { Child.spawn(SystemTool.rm.path, ["-rf", secrets]).wait(timeout: .seconds(30)) }
        try writeFile(secrets + "/password", "right\nnot this line\n")
        let login = BrokerLogin(broker, user: "kim", password: "right")
        let topics = TimerTopics(node: "kitchen", label: "tart")
        let watcher = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        let secure = [
            "--mqtt", "mqtts://kim@localhost:\(tlsPort)", "--node", "kitchen", "--mqtt-password-file",
            secrets + "/password",
        ]
        let timer = EggtimerProcess(["30m", "--label", "tart", "-D", "null", "--mqtt-cafile", broker.caFile] + secure)
        #expect(watcher.wait(timeout: .seconds(15)) { states($0, topic: topics.state).contains("counting") })
        timer.signal(SIGTERM)
        #expect(timer.finish() == .exited(143))
        #expect(!timer.stderr.contains("warning"), "\(timer.stderr)")

        // Without the CA the broker's certificate is not trusted: a warning, and the timer rings.
        let untrusted = EggtimerProcess(["1s", "--label", "pie", "-D", "null", "--json"] + secure)
        #expect(untrusted.expect(#""event":"sounding""#))
        untrusted.signal(SIGUSR1)
        #expect(untrusted.finish() == .exited(0))
        #expect(untrusted.stderr.lines(containing: "warning: MQTT: ").count == 1, "\(untrusted.stderr)")
        #expect(!watcher.lines.contains { $0.contains("/pie/") })
    }

    @Test func aFollowerRingsWhileAKitchenTimerRingsAndStopsWhenAThirdClientAcks() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let scratch = makePrivateDirectory("eggtimer-follow")
        defer { Child.spawn(SystemTool.rm.path, ["-rf", scratch]).wait(timeout: .seconds(30)) }
        let capture = scratch + "/garden.raw"
        let follower = EggtimerProcess(["follow", "-D", "file:'\(capture)',raw"] + follow(broker, node: "garden"))
        let availability = "eggtimer/garden/follow/availability"
        let watcher = try MosquittoSubscriber.start(login, topics: [availability], log: broker.log)
        #expect(watcher.wait(timeout: .seconds(15)) { $0.last == "\(availability) online" })
        #expect(size(capture) == 0)
        let kitchen = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(follower.expect("kitchen/tea: ringing", timeout: .seconds(15)), "\(follower.stdout)\(follower.stderr)")
        let early = size(capture)
        follower.readOutput(until: .now + .milliseconds(300))
        #expect(size(capture) > early, "the follower's capture grows while the kitchen rings")
        try mosquittoPublish(login, topic: "eggtimer/kitchen/tea/command", payload: "ack", log: broker.log)
        #expect(kitchen.finish() == .exited(0))
        #expect(follower.expect("kitchen/tea: done", timeout: .seconds(5)), "\(follower.stdout)")
        follower.readOutput(until: .now + .milliseconds(100))
        let stopped = size(capture)
        follower.readOutput(until: .now + .milliseconds(300))
        #expect(size(capture) == stopped, "the follower stopped ringing")
        follower.signal(SIGINT)
        #expect(follower.finish() == .exited(130))
        let leaving = ["\(availability) offline", "\(availability) (null)"]
        #expect(watcher.wait(timeout: .seconds(5)) { $0.suffix(2) == leaving })
        let after = try MosquittoSubscriber.start(login, topics: ["eggtimer/#", "homeassistant/#"], log: broker.log)
        #expect(
            Set(after.lines) == nodeLeftovers() && after.lines.count == nodeLeftovers().count,
            "nothing retained after a clean end but the node's entities: \(after.lines)")
    }

    /// A second follower of the same node that ends (offline, then its retained clear) leaves the
    /// first one online.
    @Test func aSecondFollowerOfTheNodeEndingLeavesTheFirstOnline() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let availability = "eggtimer/garden/follow/availability"
        let watcher = try MosquittoSubscriber.start(login, topics: [availability], log: broker.log)
        let first = EggtimerProcess(["follow", "-D", "null"] + follow(broker, node: "garden"))
        #expect(first.expect("following", timeout: .seconds(15)))
        #expect(watcher.wait(timeout: .seconds(15)) { $0.last == "\(availability) online" })
        let second = EggtimerProcess(["follow", "-D", "null"] + follow(broker, node: "garden"))
        #expect(second.expect("following", timeout: .seconds(15)))
        #expect(watcher.wait(timeout: .seconds(15)) { $0.filter { $0 == "\(availability) online" }.count >= 2 })
        second.signal(SIGTERM)
        #expect(second.finish() == .exited(143))
        #expect(
            watcher.wait(timeout: .seconds(5)) { lines in
                lines.contains("\(availability) (null)") && lines.last == "\(availability) online"
            }, "\(watcher.lines)")
        // What stays retained is the first one's `online`. (More `online` lines may follow it live:
        // the first answers the second's `offline` and its clear each with `online`, and under
        // load those answers can reach a subscriber that has just started.)
        let late = try MosquittoSubscriber.start(login, topics: [availability], log: broker.log)
        #expect(late.lines.first == "\(availability) online", "retained: \(late.lines)")
        #expect(late.lines.allSatisfy { $0 == "\(availability) online" }, "retained: \(late.lines)")
        first.signal(SIGTERM)
        #expect(first.finish() == .exited(143))
    }

    @Test func aFollowersSIGUSR1OrKeyAcknowledgesEveryRingingTimer() throws {
        let broker = try MosquittoBroker()
        let follower = EggtimerProcess(["follow", "-D", "null"] + follow(broker, node: "hall"))
        #expect(follower.expect("following", timeout: .seconds(15)))
        let tea = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        let eggs = EggtimerProcess(["1s", "--label", "eggs", "-D", "null", "--json"] + bus(broker, node: "attic"))
        #expect(follower.expect("kitchen/tea: ringing", timeout: .seconds(15)))
        #expect(follower.expect("attic/eggs: ringing", timeout: .seconds(15)))
        follower.signal(SIGUSR1)
        #expect(tea.finish() == .exited(0))
        #expect(eggs.finish() == .exited(0))
        // It keeps running across timers; a key (here from a pipe) acknowledges too.
        let rice = EggtimerProcess(["1s", "--label", "rice", "-D", "null", "--json"] + bus(broker))
        #expect(follower.expect("kitchen/rice: ringing", timeout: .seconds(15)))
        follower.type("x")
        #expect(rice.finish() == .exited(0))
        #expect(rice.stdout.contains(#""by":"mqtt""#))
        follower.signal(SIGTERM)
        #expect(follower.finish() == .exited(143))
    }

    @Test func aFollowerStopsForAKilledTimerAndANewOneIgnoresItsStaleState() throws {
        let broker = try MosquittoBroker()
        let follower = EggtimerProcess(["follow", "-D", "null"] + follow(broker, node: "hall"))
        #expect(follower.expect("following", timeout: .seconds(15)))
        let tea = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(follower.expect("kitchen/tea: ringing", timeout: .seconds(15)))
        tea.signal(SIGKILL)
        #expect(tea.finish() == .signaled(SIGKILL))
        #expect(follower.expect("kitchen/tea: offline", timeout: .seconds(10)), "\(follower.stdout)")
        // The retained `ringing` state is still there, with the Last Will's `offline` beside it.
        let late = EggtimerProcess(["follow", "-D", "null"] + follow(broker, node: "attic"))
        #expect(late.expect("connected to the MQTT broker", timeout: .seconds(15)))
        // Published after the late follower subscribed: once it shows this, it had the retained ones.
        let pie = TimerStatePayload(
            state: "ringing", label: "pie", node: "garden", durationSeconds: 1, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil)
        try mosquittoPublish(
            BrokerLogin(broker), topic: "eggtimer/garden/pie/state",
            payload: String(decoding: pie.json(), as: UTF8.self),
            log: broker.log)
        #expect(late.expect("garden/pie: ringing", timeout: .seconds(10)), "\(late.stdout)")
        #expect(!late.stdout.contains("kitchen/tea"), "\(late.stdout)")
        late.signal(SIGTERM)
        #expect(late.finish() == .exited(143))
        follower.signal(SIGTERM)
        #expect(follower.finish() == .exited(143))
    }

    /// `eggtimer 1:30` (label `1:30`) and `--label 1_30` on one node have topics of their own:
    /// cancelling one leaves the other running.
    @Test func labelsThatOnceSharedATopicAreCancelledApart() throws {
        let broker = try MosquittoBroker()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let watcher = try MosquittoSubscriber.start(
            BrokerLogin(broker), topics: ["eggtimer/kitchen/+/state"], log: broker.log)
        let duration = EggtimerProcess(["1:30", "-D", "null", "--json"] + bus(broker))
        let labelled = EggtimerProcess(["5m", "--label", "1_30", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) { lines in
                lines.contains { $0.hasPrefix("eggtimer/kitchen/1:30/state {") }
                    && lines.contains { $0.hasPrefix("eggtimer/kitchen/1_30/state {") }
            }, "\(watcher.lines)")
        let cancel = EggtimerProcess.run(["cancel", "--mqtt", url, "kitchen/1_30"])
        #expect(cancel.termination == .exited(0) && cancel.stdout == "kitchen/1_30: cancel sent\n", "\(cancel.stderr)")
        #expect(labelled.finish() == .exited(1))
        #expect(duration.expect(#""event":"started""#))
        let status = EggtimerProcess.run(["status", "--mqtt", url])
        #expect(
            status.stdout.split(separator: "\n").dropFirst().map { $0.prefix(12) } == ["kitchen/1:30"],
            "\(status.stdout)")
        #expect(EggtimerProcess.run(["cancel", "--mqtt", url, "kitchen/1:30"]).termination == .exited(0))
        #expect(duration.finish() == .exited(1))
    }

    @Test func statusAckCancelAndTheirFailuresAcrossTheHouse() throws {
        let broker = try MosquittoBroker()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let none = EggtimerProcess.run(["ack", "--mqtt", url])
        #expect(none.termination == .exited(3), "\(none.stderr)")
        let tea = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        let eggs = EggtimerProcess(["1s", "--label", "eggs", "-D", "null", "--json"] + bus(broker, node: "attic"))
        let soup = EggtimerProcess(["30m", "--label", "soup", "-D", "null", "--json"] + bus(broker, node: "attic"))
        #expect(tea.expect(#""event":"sounding""#, timeout: .seconds(15)))
        #expect(eggs.expect(#""event":"sounding""#, timeout: .seconds(15)))
        #expect(soup.expect(#""event":"started""#, timeout: .seconds(15)))
        let watcher = try MosquittoSubscriber.start(
            BrokerLogin(broker), topics: ["eggtimer/+/+/state"], log: broker.log)
        #expect(
            watcher.wait(timeout: .seconds(10)) { lines in
                lines.filter { $0.contains(#""state":"ringing""#) }.count >= 2
                    && lines.contains { $0.hasPrefix("eggtimer/attic/soup/state ") }
            })

        let status = EggtimerProcess.run(["status", "--mqtt", url])
        #expect(status.termination == .exited(0))
        let rows = status.stdout.split(separator: "\n")
        #expect(rows.count == 4, "\(status.stdout)")
        #expect(rows.contains { $0.hasPrefix("attic/eggs") && $0.contains("ringing") }, "\(status.stdout)")
        #expect(rows.contains { $0.hasPrefix("attic/soup") && $0.contains("counting") }, "\(status.stdout)")
        #expect(rows.contains { $0.hasPrefix("kitchen/tea") && $0.contains("ringing") }, "\(status.stdout)")
        let json = EggtimerProcess.run(["status", "--mqtt", url, "--json"])
        #expect(json.stdout.hasPrefix("[{") && json.stdout.contains(#""state":"counting""#), "\(json.stdout)")

        let ambiguous = EggtimerProcess.run(["ack", "--mqtt", url])
        #expect(ambiguous.termination == .exited(64))
        #expect(ambiguous.stderr.contains("attic/eggs (ringing)") && ambiguous.stderr.contains("kitchen/tea (ringing)"))
        #expect(EggtimerProcess.run(["cancel", "--mqtt", url, "garden/soup"]).termination == .exited(3))
        let counting = EggtimerProcess.run(["ack", "--mqtt", url, "attic/soup"])
        #expect(counting.termination == .exited(3) && counting.stdout.isEmpty)
        #expect(counting.stderr == "eggtimer: soup is counting, not ringing\n")

        let ack = EggtimerProcess.run(["ack", "--mqtt", url, "kitchen/tea"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(ack.stdout == "kitchen/tea: ack sent\n")
        #expect(tea.finish() == .exited(0))
        #expect(
            watcher.wait(timeout: .seconds(10)) {
                $0.last.map { isClear($0, topic: "eggtimer/kitchen/tea/state") } == true
            })
        #expect(EggtimerProcess.run(["ack", "--mqtt", url]).termination == .exited(0))  // the only ringing one now
        #expect(eggs.finish() == .exited(0))
        // A label on any node.
        #expect(EggtimerProcess.run(["cancel", "--mqtt", url, "soup"]).termination == .exited(0))
        #expect(soup.finish() == .exited(1))

        let started = ContinuousClock.now
        let unreachable = EggtimerProcess.run(["status", "--mqtt", "mqtt://127.0.0.1:\(try freePort())"])
        #expect(unreachable.termination == .exited(69))
        #expect(unreachable.stderr.split(separator: "\n").count == 1, "\(unreachable.stderr)")
        #expect(ContinuousClock.now - started < .seconds(6))
    }

    /// How late the alarm's first frame was, from the JSON `sounding` event's
    /// `t_mono_ns` against its `deadline_t_mono_ns`.
    private func soundingLateness(_ output: String) throws -> Duration {
        let line = try #require(output.split(separator: "\n").first { $0.contains(#""event":"sounding""#) })
        func number(_ key: String) throws -> Int64 {
            let start = try #require(line.firstRange(of: "\"\(key)\":")).upperBound
            return try #require(Int64(line[start...].prefix { $0.isNumber }))
        }
        return .nanoseconds(try number("t_mono_ns") - number("deadline_t_mono_ns"))
    }
}

extension String {
    /// The lines of this text that contain `text`.
    fileprivate func lines(containing text: String) -> [Substring] {
        split(separator: "\n").filter { $0.contains(text) }
    }
}
