import Glibc
import HouseBus
import TestSupport
import Testing

/// Issue 22: `status` on a timer's command topic republishes its retained state at once.
///
/// A real Mosquitto broker, a real eggtimer, mosquitto_sub and mosquitto_pub; no fixed sleeps.
@Suite struct StatusOverMQTTTests {
    /// An hour's countdown publishes its state once, then only when it changes or a minute has
    /// passed: a second state within seconds, with a later `published`, is the answer to `status`.
    @Test func statusRepublishesTheRetainedStateAtOnce() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let topics = TimerTopics(node: "kitchen", label: "stock")
        let watcher = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        let timer = EggtimerProcess(
            [
                "1h", "--label", "stock", "-D", "null", "--json", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--node",
                "kitchen", "--mqtt-keepalive", "5s",
            ])
        #expect(watcher.wait(timeout: .seconds(15)) { !StateLines.states($0, topic: topics.state).isEmpty })
        let first = try #require(StateLines.states(watcher.lines, topic: topics.state).first)
        #expect(first.state == "counting")
        let firstPublished = try #require(first.publishedUnixMilliseconds)

        try mosquittoPublish(login, topic: topics.command, payload: "status", log: broker.log)
        #expect(
            watcher.wait(timeout: .seconds(10)) { StateLines.states($0, topic: topics.state).count >= 2 },
            "no state republished after status: \(watcher.lines)")
        let again = try #require(StateLines.states(watcher.lines, topic: topics.state).last)
        #expect(again.state == "counting" && again.label == "stock" && again.instance == first.instance)
        #expect(try #require(again.publishedUnixMilliseconds) > firstPublished)
        // A state for any subscriber that comes later: it is retained.
        let late = try MosquittoSubscriber.start(login, topics: [topics.state], log: broker.log)
        #expect(late.wait(timeout: .seconds(5)) { StateLines.states($0, topic: topics.state).count == 1 })
        #expect(
            StateLines.states(late.lines, topic: topics.state).first?.publishedUnixMilliseconds
                == again.publishedUnixMilliseconds)
        timer.signal(SIGTERM)
        #expect(timer.finish() == .exited(143))
        #expect(!timer.stderr.contains("ignored"), "\(timer.stderr)")
    }
}
