import Glibc
import HouseBus
import TestSupport
import Testing

/// Issue 45: the node's ringing state is said once per change, however many timers the node runs,
/// and a broker restart does not make it flip while a timer rings.
///
/// Real eggtimer processes on one node, `mosquitto_sub`/`mosquitto_pub` as Home Assistant. No test
/// sleeps: each count is taken behind a barrier (a `status` to every timer, whose republished
/// state comes after anything it published before it).
@Suite struct NodeRingingOverMQTTTests {
    private func bus(_ broker: MosquittoBroker) -> [String] {
        ["--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--node", "kitchen", "--mqtt-keepalive", "5s"]
    }

    /// The node's ringing payloads in `lines` (`mosquitto_sub -v`), in order.
    private func ringing(_ lines: [String], _ node: NodeTopics) -> [String] {
        lines.filter { $0.hasPrefix(node.ringing + " ") }.map { String($0.dropFirst(node.ringing.count + 1)) }
    }

    /// Sends `status` to each timer and waits until each has republished its state: whatever a
    /// timer published before its answer has reached the watcher by then.
    private func barrier(_ timers: [TimerTopics], _ watcher: MosquittoSubscriber, _ login: BrokerLogin, log: String)
        throws -> Bool
    {
        let before = timers.map { StateLines.states(watcher.lines, topic: $0.state).count }
        for timer in timers { try mosquittoPublish(login, topic: timer.command, payload: "status", log: log) }
        return watcher.wait(timeout: .seconds(10)) { lines in
            zip(timers, before).allSatisfy { StateLines.states(lines, topic: $0.state).count > $1 }
        }
    }

    @Test func threeTimersSayTheNodeRingsOnceAndStopsOnce() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let node = NodeTopics(node: "kitchen")
        let watcher = try MosquittoSubscriber.start(login, topics: [node.ringing, node.timerStates], log: broker.log)
        let labels = ["rice", "soup", "tea"]
        let timers = labels.map { TimerTopics(node: "kitchen", label: $0) }
        // One after the other: two timers taking their topics at once may both say the first OFF.
        var processes: [EggtimerProcess] = []
        for timer in timers.prefix(2) {
            processes.append(EggtimerProcess(["30m", "--label", timer.label, "-D", "null", "--json"] + bus(broker)))
            #expect(
                watcher.wait(timeout: .seconds(15)) {
                    StateLines.states($0, topic: timer.state).last?.state == "counting"
                })
        }
        let tea = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) {
                StateLines.states($0, topic: timers[2].state).last?.state == "ringing"
            })
        #expect(try barrier(timers, watcher, login, log: broker.log))
        #expect(ringing(watcher.lines, node) == ["OFF", "ON"], "\(watcher.lines)")

        try mosquittoPublish(login, topic: timers[2].command, payload: "ack", log: broker.log)
        #expect(tea.finish(timeout: .seconds(5)) == .exited(0), "\(tea.stderr)")
        #expect(try barrier(Array(timers.prefix(2)), watcher, login, log: broker.log))
        #expect(ringing(watcher.lines, node) == ["OFF", "ON", "OFF"], "\(watcher.lines)")
        for process in processes { process.signal(SIGTERM) }
        for process in processes { #expect(process.finish() == .exited(143)) }
    }

    @Test func aBrokerRestartWhileATimerRingsDoesNotTurnTheNodeOff() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let node = NodeTopics(node: "kitchen")
        let watcher = try MosquittoSubscriber.start(login, topics: [node.ringing, node.timerStates], log: broker.log)
        let (rice, soup, tea) = (
            TimerTopics(node: "kitchen", label: "rice"), TimerTopics(node: "kitchen", label: "soup"),
            TimerTopics(node: "kitchen", label: "tea")
        )
        let riceTimer = EggtimerProcess(["30m", "--label", "rice", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) { StateLines.states($0, topic: rice.state).last?.state == "counting" })
        let soupTimer = EggtimerProcess(["30m", "--label", "soup", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) { StateLines.states($0, topic: soup.state).last?.state == "counting" })
        let teaTimer = EggtimerProcess(["1s", "--label", "tea", "-D", "null", "--json"] + bus(broker))
        #expect(
            watcher.wait(timeout: .seconds(15)) { StateLines.states($0, topic: tea.state).last?.state == "ringing" })
        #expect(try barrier([rice, soup, tea], watcher, login, log: broker.log))
        #expect(ringing(watcher.lines, node).last == "ON", "\(watcher.lines)")
        watcher.stop()

        try broker.restart()
        // Subscribed before the timers are back (their first retry waits a second or more), so
        // every ringing message they send after the restart is seen.
        let after = try MosquittoSubscriber.start(login, topics: [node.ringing, node.timerStates], log: broker.log)
        #expect(
            after.wait(timeout: .seconds(40)) { lines in
                [rice, soup, tea].allSatisfy { !StateLines.states(lines, topic: $0.state).isEmpty }
            })
        #expect(try barrier([rice, soup, tea], after, login, log: broker.log))
        #expect(ringing(after.lines, node) == ["ON"], "\(after.lines)")
        try mosquittoPublish(login, topic: tea.command, payload: "ack", log: broker.log)
        #expect(teaTimer.finish(timeout: .seconds(5)) == .exited(0), "\(teaTimer.stderr)")
        for timer in [riceTimer, soupTimer] { timer.signal(SIGTERM) }
        for timer in [riceTimer, soupTimer] { #expect(timer.finish() == .exited(143)) }
    }
}
