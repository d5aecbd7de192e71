import Glibc
import Testing

@testable import HouseBus

/// BusClient against a real Mosquitto broker per test (free port, private folder).
@Suite struct BusClientTests {
    @Test func connectsAndEveryDescriptorItMadeIsCloseOnExec() throws {
        let broker = try MosquittoBroker()
        let before = CloseOnExec.openDescriptors()
        let driver = try BusDriver(testSettings(port: broker.port))
        driver.start()
        try driver.runUntilConnected()
        let connectTime = driver.startedAt.duration(to: try #require(driver.events.first?.at))
        print("bus connect time (start → .connected, loopback): \(connectTime)")
        #expect(driver.client.isConnected)
        let socket = try #require(driver.client.pollRequest?.descriptor)
        #expect(fcntl(socket, F_GETFD) & FD_CLOEXEC != 0)
        // libmosquitto's own socketpair (made in mosquitto_new) too. Only Unix sockets are looked
        // at: tests running alongside may hold a TCP socket that their abandoned connect worker
        // has not marked yet.
        let unixSockets = CloseOnExec.openDescriptors().subtracting(before).filter { socketDomain($0) == AF_UNIX }
        #expect(!unixSockets.isEmpty)
        for descriptor in unixSockets { #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0) }
        #expect(driver.events.map(\.event) == [.connected])
    }

    @Test func subscribeAndPublishRoundTrip() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let driver = try BusDriver(testSettings(port: broker.port))
        // Retained before the client subscribes: it comes from the broker's store, flagged so.
        try mosquittoPublish(
            login, topic: "eggtimer/kitchen/eggs/command", payload: "add 60", retain: true, log: broker.log)
        driver.client.subscribe("eggtimer/kitchen/+/command", qos: 1)
        driver.start()
        try driver.runUntilConnected()
        let received = driver.run(timeout: .seconds(10)) {
            if case .message = $0 { true } else { false }
        }
        #expect(
            received
                == .message(topic: "eggtimer/kitchen/eggs/command", payload: Array("add 60".utf8), retained: true))
        // Published while subscribed (the retained one proved the subscription): an event, not retained.
        try mosquittoPublish(login, topic: "eggtimer/kitchen/eggs/command", payload: "add 30", log: broker.log)
        let live = driver.run(timeout: .seconds(10)) {
            if case .message = $0 { true } else { false }
        }
        #expect(live == .message(topic: "eggtimer/kitchen/eggs/command", payload: Array("add 30".utf8)))

        let subscriber = try MosquittoSubscriber.start(login, topics: ["eggtimer/kitchen/eggs/state"], log: broker.log)
        let messageID = try #require(
            driver.client.publish(BusMessage(topic: "eggtimer/kitchen/eggs/state", text: "{\"state\":\"counting\"}")))
        #expect(driver.run(timeout: .seconds(10)) { $0 == .published(messageID: messageID) } != nil)
        #expect(
            subscriber.wait(timeout: .seconds(10)) {
                $0.contains("eggtimer/kitchen/eggs/state {\"state\":\"counting\"}")
            })
    }

    @Test func retainedTableIsRepublishedAfterTheBrokerIsKilledAndRestarted() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let driver = try BusDriver(testSettings(port: broker.port))
        driver.start()
        try driver.runUntilConnected()
        driver.client.publish(BusMessage(topic: "eggtimer/kitchen/eggs/state", text: "counting", retain: true))
        driver.client.publish(BusMessage(topic: "eggtimer/kitchen/tea/state", text: "done", retain: true))
        // The tea clear leaves the table once sent: it must not come back after the restart.
        driver.client.publish(BusMessage(topic: "eggtimer/kitchen/tea/state", payload: [], retain: true))
        let first = try MosquittoSubscriber.start(login, topics: ["eggtimer/kitchen/+/state"], log: broker.log)
        #expect(first.wait(timeout: .seconds(10)) { $0.contains("eggtimer/kitchen/eggs/state counting") })
        first.stop()

        broker.kill()
        let lost = driver.run(timeout: .seconds(10), until: isLoss)
        #expect(lost != nil)
        #expect(!driver.client.isConnected)
        // While disconnected: a plain message is dropped, a retained one replaces the table's.
        #expect(driver.client.publish(BusMessage(topic: "eggtimer/kitchen/eggs/log", text: "dropped")) == nil)
        #expect(
            driver.client.publish(BusMessage(topic: "eggtimer/kitchen/eggs/state", text: "paused", retain: true))
                == nil)
        try broker.restart()
        try driver.runUntilConnected(timeout: .seconds(15))
        driver.client.publish(BusMessage(topic: "eggtimer/kitchen/eggs/marker", text: "after", retain: true))
        let second = try MosquittoSubscriber.start(
            login, topics: ["eggtimer/kitchen/+/state", "eggtimer/kitchen/eggs/marker"], log: broker.log)
        // The marker was published after the republish, so once it is there the table is too.
        #expect(driver.run(timeout: .seconds(10)) { second.lines.contains("eggtimer/kitchen/eggs/marker after") })
        #expect(second.lines.contains("eggtimer/kitchen/eggs/state paused"))
        #expect(!second.lines.contains("eggtimer/kitchen/eggs/state counting"))
        #expect(!second.lines.contains { $0.hasPrefix("eggtimer/kitchen/tea/state") })
    }

    @Test func lastWillIsSentWhenTheClientStopsAnswering() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let availability = "eggtimer/kitchen/eggs/availability"
        let will = BusMessage(topic: availability, text: "offline", retain: true)
        let driver = try BusDriver(testSettings(port: broker.port, keepalive: .seconds(5), will: will))
        driver.start()
        try driver.runUntilConnected()
        driver.client.publish(BusMessage(topic: availability, text: "online", retain: true))
        let subscriber = try MosquittoSubscriber.start(login, topics: [availability], log: broker.log)
        #expect(driver.run(timeout: .seconds(10)) { subscriber.lines.contains("\(availability) online") })
        // The client is no longer serviced, like a process stopped or a Pi without power: no
        // PINGREQ goes out, and the broker ends it after 1.5 × keepalive and sends the will.
        let stoppedAt = ContinuousClock.now
        #expect(subscriber.wait(timeout: .seconds(20)) { $0.contains("\(availability) offline") })
        print(
            "will seen \(stoppedAt.duration(to: .now)) after the client stopped answering (keepalive 5 s: libmosquitto's least)"
        )
    }

    @Test func finishPublishesTheFinalMessagesAndNoWill() throws {
        let broker = try MosquittoBroker()
        let login = BrokerLogin(broker)
        let availability = "eggtimer/kitchen/eggs/availability"
        let will = BusMessage(topic: availability, text: "offline (will)", retain: true)
        let driver = try BusDriver(testSettings(port: broker.port, will: will))
        driver.start()
        try driver.runUntilConnected()
        let subscriber = try MosquittoSubscriber.start(login, topics: [availability], log: broker.log)
        let before = ContinuousClock.now
        driver.client.finish(
            publishing: [BusMessage(topic: availability, text: "offline", retain: true)], limit: .seconds(2))
        let took = before.duration(to: .now)
        #expect(took < .seconds(2))
        #expect(driver.client.pollRequest == nil && driver.client.nextCheck == nil)
        #expect(subscriber.wait(timeout: .seconds(10)) { $0.contains("\(availability) offline") })
        // A will would follow the clean message at once; a retained one would greet a new subscriber.
        let late = try MosquittoSubscriber.start(login, topics: [availability], log: broker.log)
        #expect(late.wait(timeout: .seconds(10)) { $0.contains("\(availability) offline") })
        #expect(!(subscriber.lines + late.lines).contains { $0.contains("(will)") })
    }

    @Test func finishIsBoundedWhenTheBrokerDoesNotAnswer() throws {
        let broker = try MosquittoBroker()
        let driver = try BusDriver(testSettings(port: broker.port))
        driver.start()
        try driver.runUntilConnected()
        broker.freeze()
        defer { broker.thaw() }
        let limit = Duration.milliseconds(500)
        let before = ContinuousClock.now
        driver.client.finish(
            publishing: [BusMessage(topic: "eggtimer/kitchen/eggs/availability", text: "offline", retain: true)],
            limit: limit)
        let took = before.duration(to: .now)
        print("finish with a frozen broker took \(took) (limit \(limit))")
        // No PUBACK and no close ever come, so it waits out the limit, and no longer.
        #expect(took >= limit - .milliseconds(5) && took < limit + .milliseconds(150))
        #expect(!driver.client.isConnected && driver.client.pollRequest == nil)
    }

    @Test func aBrokerThatFallsSilentIsDetectedByTheKeepalive() throws {
        let broker = try MosquittoBroker()
        let driver = try BusDriver(testSettings(port: broker.port, keepalive: .seconds(5)))
        driver.start()
        try driver.runUntilConnected()
        broker.freeze()
        defer { broker.thaw() }
        let frozenAt = ContinuousClock.now
        // PINGREQ after 5 s of silence, no PINGRESP by the next 5 s: the connection is dropped.
        let lost = try #require(driver.run(timeout: .seconds(20), until: isLoss))
        let after = frozenAt.duration(to: .now)
        print("silent broker: \(lost) after \(after); longest service() \(driver.longestService)")
        #expect(after < .seconds(16))
        #expect(
            lost
                == .connectionLost(
                    "lost the connection to broker mqtt://127.0.0.1:\(broker.port): \(keepaliveText)"))
        #expect(driver.longestService < .milliseconds(50))
    }
}

/// HouseBus's text for MOSQ_ERR_KEEPALIVE.
private let keepaliveText = "no answer within the keepalive"
