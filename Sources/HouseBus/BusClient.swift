import CMosquitto
import Glibc
import SystemKit
import TextCoding

/// An MQTT client driven by the caller's event loop: one descriptor to poll, one instant to wake
/// at, and ``service(revents:at:)`` to call for either.
///
/// Owned and called by the event loop thread only (not Sendable). Never blocks the caller:
/// resolving and TCP connect (`mosquitto_connect`, which resolves) run on a worker thread with
/// ``BusSettings/connectLimit``; a worker over the limit is abandoned with its handle (never
/// joined), and each attempt uses a new handle. Reconnects back off 1 s doubling to 30 s (±20 %
/// jitter), reset by a successful CONNACK. There is no libmosquitto network thread: reading,
/// writing and keepalive run inside ``service(revents:at:)`` (`mosquitto_loop_read`,
/// `mosquitto_loop_write`, `mosquitto_loop_misc`). Protocol: MQTT 5, clean session; a broker
/// that refuses MQTT 5 (CONNACK "unsupported protocol version", in either protocol's format)
/// is asked again at once with MQTT 3.1.1, which this client then keeps for its reconnects
/// (``BusEvent/notice(_:)`` says so once). Message expiry (``BusMessage/expiry``) is sent only
/// over MQTT 5.
/// Times are instants of `ContinuousClock` (CLOCK_BOOTTIME on Linux).
///
/// Process-wide effects of libmosquitto 2.0.11 (checked): `mosquitto_new` sets SIGPIPE to
/// SIG_IGN (eggtimer ignores it anyway), and every handle holds a socketpair besides its socket
/// (both made close-on-exec here). A worker abandoned in a hung connect keeps its thread, handle
/// and socket until the kernel gives up (about 2 min for a blackholed address).
public final class BusClient {
    /// Where the connection stands.
    enum Phase {
        /// Made, not started.
        case idle
        /// A worker is resolving and connecting.
        case connecting(ConnectAttempt)
        /// TCP (and TLS) up, CONNECT sent, waiting for CONNACK until the deadline.
        case handshaking(MosquittoConnection, deadline: ContinuousClock.Instant)
        /// CONNACK accepted.
        case connected(MosquittoConnection)
        /// Backing off until the instant.
        case waiting(until: ContinuousClock.Instant)
        /// After ``finish(publishing:limit:)``.
        case finished
    }

    let settings: BusSettings
    let library: MosquittoLibrary
    var phase = Phase.idle
    var backoff = Backoff.reconnect
    /// Events gathered since the last ``service(revents:at:)`` (callbacks and `start` add to it).
    var pendingEvents: [BusEvent] = []
    /// The last retained message per topic, in the order topics were first published.
    var retainedTopics: [String] = []
    var retained: [String: BusMessage] = [:]
    /// Subscriptions (filter, QoS), re-sent after every connect.
    var subscriptions: [(filter: String, qos: Int32)] = []
    /// The CONNACK code the connect callback saw during the current loop call.
    var connackCode: Int32?
    /// The code the disconnect callback reported for the current connection, if it did.
    var disconnectCode: Int32?
    /// The message ids of UNSUBSCRIBEs the broker acknowledged (UNSUBACK; ``finish(publishing:limit:)``).
    var unsubscribeAcknowledged: Set<Int32> = []
    /// When `mosquitto_loop_misc` last ran (boot clock).
    var lastMisc: ContinuousClock.Instant?
    /// The MQTT version of the next attempt: 5 until the broker refuses it, then 3.1.1 for good.
    var version = MQTTVersion.v5

    /// Loads libmosquitto (first use in the process), checks the settings with a trial handle,
    /// and keeps them; does not connect yet.
    ///
    /// Blocks only to load the library the first time (`dlopen`, a few milliseconds). Call on the
    /// thread that will own the client.
    /// - Parameter settings: Broker, credentials, TLS, identity, keepalive, will, deadline.
    /// - Throws: `BusError.libraryMissing` when libmosquitto.so.1 cannot be loaded or lacks a
    ///   function; `BusError.setup` when libmosquitto refuses a setting (an unreadable CA file,
    ///   an empty client id, a will topic with wildcards).
    /// - Precondition: `settings.connectLimit > .zero`.
    /// C: `dlopen`, `mosquitto_lib_init`, `mosquitto_new`, `mosquitto_destroy`.
    public init(settings: BusSettings) throws(BusError) {
        precondition(settings.connectLimit > .zero, "connectLimit must be positive")
        self.settings = settings
        library = try MosquittoLibrary.shared.get()
        library.destroy(try MosquittoConnection.makeHandle(settings: settings, version: version, library: library))
    }

    deinit {
        if case .connecting(let attempt) = phase { attempt.abandon(library: library) }
    }

    /// Begins connecting: starts the first connect worker.
    ///
    /// Does nothing unless idle.
    ///
    /// Never blocks. A failure to start (no thread) shows as `.connectionLost` from the next
    /// ``service(revents:at:)`` and is retried after the backoff.
    /// - Parameter now: The current instant (boot clock).
    public func start(at now: ContinuousClock.Instant) {
        guard case .idle = phase else { return }
        beginAttempt(at: now)
    }

    /// The one descriptor to poll now, with its poll events: the broker socket (POLLIN, plus
    /// POLLOUT when libmosquitto has bytes to write), or a connect worker's wake pipe (POLLIN);
    /// nil while idle, backing off or finished (wait for ``nextCheck``).
    ///
    /// Ask again after every ``service(revents:at:)``, ``publish(_:)`` and ``subscribe(_:qos:)``:
    /// the descriptor and events change. C: `mosquitto_socket`, `mosquitto_want_write`.
    public var pollRequest: (descriptor: Int32, events: Int16)? {
        switch phase {
        case .connecting(let attempt): return (attempt.wakeDescriptor, Int16(POLLIN))
        case .handshaking(let connection, _), .connected(let connection):
            let socket = connection.socket
            guard socket >= 0 else { return nil }
            let write = library.wantWrite(connection.handle) ? Int16(POLLOUT) : 0
            return (socket, Int16(POLLIN) | write)
        case .idle, .waiting, .finished: return nil
        }
    }

    /// When the loop must call ``service(revents:at:)`` even without readiness.
    ///
    /// A second after the last keepalive check while a connection is up (`mosquitto_loop_misc`
    /// runs at least once a second), the connect or handshake deadline, or the end of a backoff.
    /// Boot clock; nil when nothing is due (idle or finished).
    public var nextCheck: ContinuousClock.Instant? {
        switch phase {
        case .idle, .finished: return nil
        case .connecting(let attempt): return attempt.deadline
        case .waiting(let until): return until
        case .handshaking(_, let deadline): return min(deadline, (lastMisc ?? deadline) + .seconds(1))
        case .connected: return (lastMisc ?? .now) + .seconds(1)
        }
    }

    /// Whether the broker accepted the connection and it has not been lost since.
    public var isConnected: Bool {
        if case .connected = phase { true } else { false }
    }

    /// Does what is due: takes a finished connect worker's result, reads and writes the socket
    /// as `revents` says, runs the keepalive, enforces deadlines, starts the next attempt after a
    /// backoff.
    ///
    /// Never blocks: the socket is non-blocking and a connect runs on a worker. Loop thread only.
    /// - Parameters:
    ///   - revents: The poll result for ``pollRequest``'s descriptor, or 0 when called for ``nextCheck``.
    ///   - now: The current instant (boot clock).
    /// - Returns: What happened, in order (possibly nothing).
    /// C: `mosquitto_loop_read`, `mosquitto_loop_write`, `mosquitto_loop_misc`.
    public func service(revents: Int16, at now: ContinuousClock.Instant) -> [BusEvent] {
        switch phase {
        case .idle, .finished: break
        case .waiting(let until): if now >= until { beginAttempt(at: now) }
        case .connecting(let attempt): serviceAttempt(attempt, at: now)
        case .handshaking(let connection, let deadline):
            serviceConnection(connection, revents: revents, at: now)
            if case .handshaking = phase, now >= deadline {
                lose(
                    "broker \(settings.address.text) accepted the connection but did not complete the handshake "
                        + "within \(seconds(settings.connectLimit))", at: now)
            }
        case .connected(let connection): serviceConnection(connection, revents: revents, at: now)
        }
        defer { pendingEvents = [] }
        return pendingEvents
    }

    /// Publishes `message` now if connected; a retained message is also kept by topic and
    /// re-sent after every (re)connect (unless its ``BusMessage/replay`` is false: then any kept
    /// one of its topic goes), while others are dropped when not connected.
    ///
    /// An empty retained payload clears the topic at the broker and leaves the table once sent.
    /// Never blocks (queues; ``service(revents:at:)`` writes what the socket does not take now).
    /// Loop thread only.
    /// - Parameter message: The message.
    /// - Returns: libmosquitto's message id (``BusEvent/published(messageID:)`` reports it), or nil
    ///   when not connected or libmosquitto refused it (a bad topic, a payload over 256 MB).
    /// C: `mosquitto_publish`.
    @discardableResult public func publish(_ message: BusMessage) -> Int32? {
        if message.retain && message.replay {
            if retained.updateValue(message, forKey: message.topic) == nil { retainedTopics.append(message.topic) }
        } else if message.retain, retained.removeValue(forKey: message.topic) != nil {
            retainedTopics.removeAll { $0 == message.topic }
        }
        guard case .connected(let connection) = phase else { return nil }
        return send(message, on: connection)
    }

    /// Subscribes to `filter` now if connected, and again after every reconnect.
    ///
    /// Never blocks. Loop thread only. C: `mosquitto_subscribe`.
    /// - Parameters:
    ///   - filter: A topic filter (wildcards `+` and `#` allowed).
    ///   - qos: The highest quality of service wanted, 0–2.
    public func subscribe(_ filter: String, qos: Int32) {
        if let index = subscriptions.firstIndex(where: { $0.filter == filter }) {
            subscriptions[index].qos = qos
        } else {
            subscriptions.append((filter, qos))
        }
        if case .connected(let connection) = phase { _ = library.subscribe(connection.handle, nil, filter, qos) }
    }

    /// Sends `message` on an accepted connection; drops an empty retained one from the table once queued.
    ///
    /// Over MQTT 5 a message with an ``BusMessage/expiry`` carries it as its message expiry
    /// interval property; otherwise (or over 3.1.1) it is published plainly.
    /// C: `mosquitto_publish`, `mosquitto_publish_v5`, `mosquitto_property_add_int32`,
    /// `mosquitto_property_free_all`.
    func send(_ message: BusMessage, on connection: MosquittoConnection) -> Int32? {
        var messageID: Int32 = 0
        var properties: OpaquePointer?
        defer { if properties != nil { library.propertyFreeAll(&properties) } }
        if version == .v5, let seconds = message.expirySeconds {
            let added = library.propertyAddInt32(
                &properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), seconds)
            guard added == MOSQ_ERR_SUCCESS.rawValue else { return nil }
        }
        let code = message.payload.withUnsafeBytes { bytes in
            guard let properties else {
                return library.publish(
                    connection.handle, &messageID, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos,
                    message.retain)
            }
            return library.publishV5(
                connection.handle, &messageID, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos,
                message.retain, properties)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else { return nil }
        if message.retain && message.payload.isEmpty && retained[message.topic] == message {
            retained[message.topic] = nil
            retainedTopics.removeAll { $0 == message.topic }
        }
        return messageID
    }
}

/// `duration` as text for messages: `5 s`, `0.5 s`.
func seconds(_ duration: Duration) -> String {
    let milliseconds = duration / .milliseconds(1)
    let whole = Int64(milliseconds) / 1000
    let fraction = Int64(milliseconds) % 1000
    if fraction == 0 { return "\(whole) s" }
    var digits = pad(fraction, 3)
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole).\(digits) s"
}
