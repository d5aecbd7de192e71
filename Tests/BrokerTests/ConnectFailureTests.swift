import Glibc
import HouseBus
import TestSupport
import Testing

/// A broker that refuses, cannot be found or never answers: one clear `.connectionLost` line within
/// the connect limit, then backoff, and no service() call ever blocks the loop.
@Suite struct ConnectFailureTests {
    /// The longest a service() call may take: it must never block the event loop.
    static let serviceLimit = Duration.milliseconds(50)

    @Test func wrongPasswordIsReportedAndRetriedWithoutStalling() throws {
        let broker = try MosquittoBroker(users: ["kitchen": "right"])
        let driver = try BusDriver(testSettings(port: broker.port, user: "kitchen", password: "wrong"))
        driver.start()
        let first = try #require(driver.run(timeout: .seconds(10), until: isLoss))
        guard case .connectionLost(let line) = first else { return }
        print("wrong password: \(line)")
        // Read after "MQTT: " in a sentence: no "MQTT" again, no capital, no final full stop.
        #expect(line == "broker mqtt://kitchen@127.0.0.1:\(broker.port) refused the connection: not authorised")
        #expect(line.contains("not authorised") && !line.contains("MQTT") && !line.hasSuffix("."), "\(line)")
        #expect(!line.contains("\n") && !line.contains("wrong"))
        // Backing off: nothing to poll, the next attempt due 0.8–1.2 s later.
        #expect(driver.client.pollRequest == nil)
        let wait = driver.events[0].at.duration(to: try #require(driver.client.nextCheck))
        #expect(wait > .milliseconds(750) && wait <= .milliseconds(1200))
        // The backoff continues: a second attempt is refused too, a backoff (0.8–1.2 s) later.
        #expect(driver.run(timeout: .seconds(10), until: isLoss) != nil)
        let losses = driver.events.filter { isLoss($0.event) }.map(\.at)
        #expect(losses.count == 2)
        if losses.count == 2 { #expect(losses[0].duration(to: losses[1]) >= .milliseconds(750)) }
        #expect(!driver.events.contains { $0.event == .connected })
        #expect(driver.longestService < Self.serviceLimit)
        print("wrong password: longest service() \(driver.longestService)")
    }

    @Test func rightPasswordConnects() throws {
        let broker = try MosquittoBroker(users: ["kitchen": "right"])
        let driver = try BusDriver(testSettings(port: broker.port, user: "kitchen", password: "right"))
        driver.start()
        try driver.runUntilConnected()
    }

    /// A name that does not resolve and an address beyond loopback fail within the limit.
    ///
    /// The suite runs in a private
    /// network namespace (scripts/isolated.sh) with only loopback: the resolver's query and the
    /// connect fail at once there, with nothing sent, which is what is tested; outside such a
    /// namespace the test fails before it sends anything.
    @Test(arguments: ["nonexistent.invalid", "192.0.2.1"])
    func unreachableBrokerIsReportedWithinTheConnectLimit(host: String) throws {
        try NetworkIsolation.require()
        let limit = Duration.seconds(2)
        let driver = try BusDriver(testSettings(port: 1883, host: host, connectLimit: limit))
        driver.start()
        let lost = try #require(driver.run(timeout: limit + .seconds(3), until: isLoss))
        let after = driver.startedAt.duration(to: driver.events[0].at)
        print("\(host): \(lost) after \(after); longest service() \(driver.longestService)")
        #expect(after < limit + .milliseconds(200))
        #expect(driver.longestService < Self.serviceLimit)
    }

    /// A listener whose accept queue is full drops every further SYN, so a connect to it hangs in
    /// the kernel's SYN retries: the connect worker is abandoned at the limit.
    @Test func brokerThatNeverAcceptsIsAbandonedAtTheConnectLimit() throws {
        let listener = try FullListener()
        let limit = Duration.seconds(1)
        let driver = try BusDriver(testSettings(port: listener.port, connectLimit: limit))
        driver.start()
        let lost = try #require(driver.run(timeout: limit + .seconds(3), until: isLoss))
        let after = driver.startedAt.duration(to: driver.events[0].at)
        print("full accept queue: \(lost) after \(after); longest service() \(driver.longestService)")
        #expect(
            lost
                == .connectionLost(
                    "broker mqtt://127.0.0.1:\(listener.port) did not answer within 1 s (resolving or connecting)")
        )
        #expect(after >= limit && after < limit + .milliseconds(200))
        #expect(driver.longestService < Self.serviceLimit)
        // The next attempt starts after the backoff and is abandoned the same way.
        #expect(driver.run(timeout: limit + .seconds(3), until: isLoss) != nil)
        #expect(driver.longestService < Self.serviceLimit)
    }

    /// A TCP server that accepts but never says a word: the MQTT handshake times out.
    @Test func brokerThatNeverAnswersTheHandshakeIsDropped() throws {
        let listener = try FullListener(backlog: 8, fill: false)
        let limit = Duration.seconds(1)
        let driver = try BusDriver(testSettings(port: listener.port, connectLimit: limit))
        driver.start()
        let lost = try #require(driver.run(timeout: limit * 2 + .seconds(3), until: isLoss))
        #expect(
            lost
                == .connectionLost(
                    "broker mqtt://127.0.0.1:\(listener.port) accepted the connection but did not complete the "
                        + "handshake within 1 s"))
        #expect(driver.longestService < Self.serviceLimit)
    }

    @Test func tlsWithTheCAConnectsAndWithoutItIsRefused() throws {
        let broker = try MosquittoBroker(tls: true)
        let port = try #require(broker.tlsPort)
        let trusted = try BusDriver(testSettings(port: port, secure: true, caFile: broker.caFile))
        trusted.start()
        try trusted.runUntilConnected()
        let connectTime = trusted.startedAt.duration(to: try #require(trusted.events.first?.at))
        print(
            "TLS connect time (start → .connected, loopback): \(connectTime); longest service() \(trusted.longestService)"
        )
        #expect(trusted.longestService < Self.serviceLimit)
        // The system's CAs (/etc/ssl/certs) did not sign the test broker's certificate.
        let untrusted = try BusDriver(testSettings(port: port, secure: true))
        untrusted.start()
        let lost = try #require(untrusted.run(timeout: .seconds(10)) { isLoss($0) || $0 == .connected })
        print("TLS without the CA: \(lost)")
        #expect(isLoss(lost))
        #expect(untrusted.longestService < Self.serviceLimit)
    }

    @Test func missingCAFileIsASetupError() {
        #expect(throws: BusError.self) {
            try BusClient(
                settings: testSettings(port: 8883, secure: true, caFile: "/nonexistent/eggtimer-test-ca.crt"))
        }
    }
}

/// A listening TCP socket on 127.0.0.1 that never accepts.
///
/// With `fill`, its accept queue (backlog 0: one connection) is filled first, so the kernel drops
/// further SYNs.
final class FullListener {
    let port: Int
    private var descriptors: [Int32] = []

    init(backlog: Int32 = 0, fill: Bool = true) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        descriptors.append(fd)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, backlog) == 0
            }
        }
        guard ready else { throw TestFailure("bind/listen: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard fill else { return }
        // Connect until one hangs: the queue is full once a non-blocking connect stays pending.
        for _ in 0..<8 {
            let client = socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            descriptors.append(client)
            var target = loopback(port: port)
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var request = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            if poll(&request, 1, 200) == 0 { return }
        }
        throw TestFailure("could not fill the accept queue of a listener with backlog \(backlog)")
    }

    deinit { for fd in descriptors { close(fd) } }
}
