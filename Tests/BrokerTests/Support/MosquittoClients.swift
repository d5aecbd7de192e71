import Dispatch
import Glibc
import Synchronization
import TestSupport

/// How the command-line clients reach a test broker.
struct BrokerLogin {
    var port: Int
    var user: String?
    var password: String?

    /// Creates a login for the broker's plain listener.
    init(_ broker: MosquittoBroker, user: String? = nil, password: String? = nil) {
        port = broker.port
        self.user = user
        self.password = password
    }

    /// The connection options of mosquitto_pub and mosquitto_sub.
    var arguments: [String] {
        ["-h", "127.0.0.1", "-p", String(port)] + (user.map { ["-u", $0] } ?? [])
            + (password.map { ["-P", $0] } ?? [])
    }
}

/// Publishes one message with `mosquitto_pub` (QoS 1) and waits for it to exit.
/// - Parameters:
///   - login: The broker and credentials.
///   - topic: The topic.
///   - payload: The payload text; nil sends an empty payload (`-n`, with `retain` a retained clear).
///   - retain: Whether the broker retains it.
///   - log: Where mosquitto_pub's standard error goes.
/// - Throws: `TestFailure` unless it exits 0 within 10 s.
func mosquittoPublish(_ login: BrokerLogin, topic: String, payload: String?, retain: Bool = false, log: String)
    throws
{
    let message = payload.map { ["-m", $0] } ?? ["-n"]
    try Child.run(
        SystemTool.mosquittoPub.path, login.arguments + ["-q", "1", "-t", topic] + message + (retain ? ["-r"] : []),
        stderrPath: log, timeout: .seconds(10))
}

/// A `mosquitto_sub -v` child whose output lines (`topic payload`) are read on their own thread.
///
/// ``start(_:topics:log:)`` returns once the subscription is active: it first publishes a
/// retained marker on a private topic, subscribes to it together with `topics` (one SUBSCRIBE),
/// and waits for the marker's line.
///
/// Ownership: the reader thread holds only the ``Output`` (never the subscriber), so dropping the
/// subscriber runs its `deinit`, which ends mosquitto_sub; that ends the reader at end of file.
/// (mosquitto_sub itself never exits on its own: it reconnects to a broker that went away.)
final class MosquittoSubscriber: Sendable {
    /// The lines read, shared with the reader thread.
    private final class Output: Sendable {
        struct State {
            var lines: [String] = []
            var ended = false
        }
        let state = Mutex(State())
        /// Signalled after every line and at the end of the output.
        let arrived = DispatchSemaphore(value: 0)
    }

    let child: Child
    private let output = Output()
    private let stopped = Mutex(false)
    private let marker: String

    /// Starts `mosquitto_sub -v -t …` for `topics` and waits until it is subscribed.
    /// - Parameters:
    ///   - login: The broker and credentials.
    ///   - topics: The topic filters.
    ///   - format: The output options; `-v` by default (`topic payload`). Another format must
    ///     print the topic, a space and the payload first (the readiness marker is found so).
    ///   - log: Where mosquitto_sub's standard error goes.
    /// - Returns: The subscriber, subscribed.
    /// - Throws: `TestFailure` if the marker does not arrive within 10 s.
    static func start(_ login: BrokerLogin, topics: [String], format: [String] = ["-v"], log: String) throws
        -> MosquittoSubscriber
    {
        let marker = "eggtimer-test/ready/\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try mosquittoPublish(login, topic: marker, payload: "ready", retain: true, log: log)
        let subscriber = MosquittoSubscriber(login, topics: topics + [marker], format: format, marker: marker, log: log)
        guard subscriber.wait(timeout: .seconds(10), until: { $0.contains { $0.hasPrefix("\(marker) ready") } }) else {
            subscriber.stop()
            throw TestFailure("mosquitto_sub did not subscribe within 10 s; see \(log)")
        }
        return subscriber
    }

    private init(_ login: BrokerLogin, topics: [String], format: [String], marker: String, log: String) {
        self.marker = marker
        let ends = makePipe()
        child = Child.spawn(
            SystemTool.mosquittoSub.path, login.arguments + format + topics.flatMap { ["-t", $0] }, stdout: ends.write,
            stderrPath: log)
        close(ends.write)
        let reader = ends.read
        let output = output
        DispatchQueue(label: "mosquitto-sub").async {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(reader, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    output.state.withLock { $0.lines.append(line) }
                    output.arrived.signal()
                }
            }
            close(reader)
            output.state.withLock { $0.ended = true }
            output.arrived.signal()
        }
    }

    deinit { stop() }

    /// The lines read so far (`topic payload`), without the readiness marker.
    var lines: [String] { output.state.withLock { $0.lines }.filter { !$0.hasPrefix(marker) } }

    /// Waits (on the reader's signal, not by sleeping) until `condition` holds for the lines read
    /// so far, the output ends, or `timeout` passes.
    /// - Returns: Whether `condition` held.
    @discardableResult
    func wait(timeout: Duration, until condition: ([String]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (lines, ended) = output.state.withLock { ($0.lines, $0.ended) }
            if condition(lines) { return true }
            if ended { return false }
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero { return false }
            _ = output.arrived.wait(timeout: .now() + .milliseconds(Int(milliseconds(left))))
        }
    }

    /// Ends mosquitto_sub (SIGTERM) and reaps it.
    func stop() {
        let already = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !already else { return }
        child.signal(SIGTERM)
        child.wait(timeout: .seconds(5))
    }
}
