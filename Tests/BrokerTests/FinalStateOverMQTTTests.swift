import HouseBus
import TestSupport
import Testing

/// The last state a timer publishes says what the timer was when it ended (issue 22): a minute
/// added while it counted shows in the final state's `duration_s`.
///
/// A real Mosquitto broker per test, mosquitto_sub and mosquitto_pub as the other clients. No
/// test sleeps to wait for an event.
@Suite struct FinalStateOverMQTTTests {
    @Test func aMinuteAddedOverMQTTShowsInTheFinalCancelledState() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let topics = TimerTopics(node: "kitchen", label: "tea")
        let watcher = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        let timer = EggtimerProcess(
            [
                "5m", "--label", "tea", "-D", "null", "--json", "--mqtt", "mqtt://127.0.0.1:\(broker.port)",
                "--node", "kitchen", "--mqtt-keepalive", "5s",
            ])
        #expect(
            watcher.wait(timeout: .seconds(15)) {
                StateLines.states($0, topic: topics.state).contains { $0.state == "counting" }
            })
        try mosquittoPublish(login, topic: topics.command, payload: "add 60", log: broker.log)
        #expect(timer.expect(#""by_s":60"#), "\(timer.stdout)\(timer.stderr)")
        try mosquittoPublish(login, topic: topics.command, payload: "cancel", log: broker.log)
        #expect(timer.finish() == .exited(1))
        #expect(
            watcher.wait(timeout: .seconds(5)) {
                StateLines.states($0, topic: topics.state).contains { $0.state == "cancelled" }
            })
        let final = try #require(StateLines.states(watcher.lines, topic: topics.state).last { $0.state == "cancelled" })
        #expect(final.durationSeconds == 360, "\(final)")
    }
}
