import Glibc
import Testing

/// The support code leaves no process behind: mosquitto_sub reconnects forever, so a subscriber
/// that is not ended when dropped outlives the test run.
@Suite struct SupportHygieneTests {
    @Test func droppedSubscriberAndBrokerLeaveNoProcess() throws {
        var pids: [pid_t] = []
        do {
            let broker = try MosquittoBroker()
            let subscriber = try MosquittoSubscriber.start(
                BrokerLogin(broker), topics: ["eggtimer/x/y/state"], log: broker.log)
            pids = [try #require(broker.server).pid, subscriber.child.pid]
        }
        for pid in pids {
            // Reaped already: no such process (a reused pid would not be our child).
            #expect(waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD)
            #expect(kill(pid, 0) == -1)
        }
    }
}
