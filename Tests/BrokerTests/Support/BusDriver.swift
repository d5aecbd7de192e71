import Glibc
import HouseBus
import TestSupport

/// Runs a ``BusClient`` the way the event loop does: poll its ``BusClient/pollRequest`` until its
/// ``BusClient/nextCheck``, then ``BusClient/service(revents:at:)``; records every event with
/// its instant, and the longest service call.
final class BusDriver {
    let client: BusClient
    /// Every event so far, with when it was returned (boot clock).
    private(set) var events: [(at: ContinuousClock.Instant, event: BusEvent)] = []
    /// The longest single service call so far.
    private(set) var longestService = Duration.zero
    /// When ``start()`` ran.
    private(set) var startedAt = ContinuousClock.now

    /// Makes the client; does not start it.
    /// - Throws: `BusError` from the client.
    init(_ settings: BusSettings) throws {
        client = try BusClient(settings: settings)
    }

    /// Starts connecting.
    func start() {
        startedAt = .now
        client.start(at: startedAt)
    }

    /// Drives the client until an event satisfies `stop` (returned) or `timeout` passes (nil).
    @discardableResult
    func run(timeout: Duration, until stop: (BusEvent) -> Bool) -> BusEvent? {
        run(timeout: timeout, until: stop, orWhen: { false }, checking: false)
    }

    /// Drives the client until `condition` holds (something outside it, such as a subscriber's
    /// line; checked at least every 20 ms) or `timeout` passes.
    /// - Returns: Whether `condition` held.
    @discardableResult
    func run(timeout: Duration, until condition: () -> Bool) -> Bool {
        run(timeout: timeout, until: { _ in false }, orWhen: condition, checking: true)
        return condition()
    }

    @discardableResult
    private func run(
        timeout: Duration, until stop: (BusEvent) -> Bool, orWhen condition: () -> Bool, checking: Bool
    ) -> BusEvent? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if checking && condition() { return nil }
            var wake = min(client.nextCheck ?? deadline, deadline)
            if checking { wake = min(wake, ContinuousClock.now + .milliseconds(20)) }
            var request = pollfd(fd: -1, events: 0, revents: 0)
            if let (descriptor, events) = client.pollRequest {
                request = pollfd(fd: descriptor, events: events, revents: 0)
            }
            let ready = poll(&request, 1, milliseconds(ContinuousClock.now.duration(to: wake)))
            if ready < 0 && errno != EINTR { return nil }
            let before = ContinuousClock.now
            let new = client.service(revents: ready > 0 ? request.revents : 0, at: before)
            let after = ContinuousClock.now
            longestService = max(longestService, before.duration(to: after))
            for event in new {
                events.append((after, event))
                if stop(event) { return event }
            }
        }
        return nil
    }

    /// Drives the client until it reports `.connected`.
    /// - Throws: `TestFailure` with the events so far if it does not within `timeout`.
    func runUntilConnected(timeout: Duration = .seconds(10)) throws {
        guard run(timeout: timeout, until: { $0 == .connected }) != nil else {
            throw TestFailure("no .connected within \(timeout); events: \(events.map(\.event))")
        }
    }
}

/// Whether `event` is a lost connection.
func isLoss(_ event: BusEvent) -> Bool {
    if case .connectionLost = event { true } else { false }
}

/// Settings for a test client of `broker` (plain listener, anonymous unless a user is given).
func testSettings(
    port: Int, host: String = "127.0.0.1", secure: Bool = false, user: String? = nil, password: String? = nil,
    caFile: String? = nil, keepalive: Duration = .seconds(5), will: BusMessage? = nil,
    connectLimit: Duration = .seconds(2)
) -> BusSettings {
    BusSettings(
        address: BrokerAddress(secure: secure, user: user, host: host, port: port), password: password, caFile: caFile,
        clientID: "eggtimer-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", keepalive: keepalive, will: will,
        connectLimit: connectLimit)
}
