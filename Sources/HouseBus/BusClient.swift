import CMosquitto
import Glibc

/// An MQTT client driven by the caller's event loop (skeleton: the API only, not connected yet).
public final class BusClient {
    private let settings: BusSettings
    private let library: MosquittoLibrary

    /// Loads libmosquitto (first use) and keeps the settings; does not connect yet.
    /// - Parameter settings: Broker, credentials, TLS, identity, keepalive, will, deadline.
    /// - Throws: `BusError.libraryMissing` when libmosquitto.so.1 cannot be loaded.
    public init(settings: BusSettings) throws(BusError) {
        self.settings = settings
        library = try MosquittoLibrary.shared.get()
    }

    /// Begins connecting. - Parameter now: The current boot-clock instant.
    public func start(at now: ContinuousClock.Instant) {}

    /// The one descriptor to poll now, with its poll events.
    public var pollRequest: (descriptor: Int32, events: Int16)? { nil }

    /// When the loop must call ``service(revents:at:)`` even without readiness.
    public var nextCheck: ContinuousClock.Instant? { nil }

    /// Does read/write/misc as the revents say.
    /// - Parameters:
    ///   - revents: The poll result for ``pollRequest``'s descriptor, or 0.
    ///   - now: The current boot-clock instant.
    /// - Returns: What happened.
    public func service(revents: Int16, at now: ContinuousClock.Instant) -> [BusEvent] { [] }

    /// Publishes now if connected.
    /// - Parameter message: The message.
    /// - Returns: The message id, or nil.
    @discardableResult public func publish(_ message: BusMessage) -> Int32? { nil }

    /// Subscribes now and after every reconnect.
    /// - Parameters:
    ///   - filter: A topic filter.
    ///   - qos: The quality of service, 0–2.
    public func subscribe(_ filter: String, qos: Int32) {}

    /// Whether the broker accepted the connection and it has not been lost since.
    public var isConnected: Bool { false }

    /// Clean end.
    /// - Parameters:
    ///   - finalMessages: Messages to publish first.
    ///   - limit: The longest this may take.
    public func finish(publishing finalMessages: [BusMessage], limit: Duration) {}
}
