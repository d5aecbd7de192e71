import Glibc
import TextCoding

/// How a ``BusClient`` connects: broker, credentials, TLS, identity, keepalive, Last Will, deadline.
public struct BusSettings: Sendable {
    /// The broker.
    public var address: BrokerAddress
    /// The password for ``BrokerAddress/user``, or nil (never from the URL).
    public var password: String?
    /// The CA certificate file (PEM) that signs the broker's certificate, for `mqtts://`; nil uses
    /// the system's CA folder `/etc/ssl/certs`.
    public var caFile: String?
    /// The MQTT client id, unique per process, for example `eggtimer-<node>-<pid>-<random>`.
    public var clientID: String
    /// The MQTT keepalive, in whole seconds from 5 s (libmosquitto 2.0 refuses less, so less is
    /// raised to 5 s) to 65535 s; the broker drops a silent client (and sends its will) after
    /// 1.5 × keepalive.
    public var keepalive: Duration
    /// The Last Will, sent by the broker when the connection ends without DISCONNECT.
    public var will: BusMessage?
    /// The longest a resolve + TCP connect (and then the MQTT handshake) may take.
    public var connectLimit: Duration

    /// Creates settings.
    /// - Parameters:
    ///   - address: The broker.
    ///   - password: The password, or nil.
    ///   - caFile: A CA file for `mqtts://`, or nil for `/etc/ssl/certs`.
    ///   - clientID: A client id unique to this process.
    ///   - keepalive: The MQTT keepalive, whole seconds from 5 s (rounded down; less is raised to 5 s).
    ///   - will: The Last Will, or nil.
    ///   - connectLimit: The deadline for resolving + connecting and for the handshake; positive.
    public init(
        address: BrokerAddress, password: String? = nil, caFile: String? = nil, clientID: String,
        keepalive: Duration = .seconds(30), will: BusMessage? = nil, connectLimit: Duration = .seconds(5)
    ) {
        self.address = address
        self.password = password
        self.caFile = caFile
        self.clientID = clientID
        self.keepalive = keepalive
        self.will = will
        self.connectLimit = connectLimit
    }

    /// A client id unique to this process: `eggtimer-<node>-<pid>-<random>`.
    ///
    /// The node keeps only `[a-zA-Z0-9_-]` (others become `_`) and at most 32 characters; the
    /// random part is 8 hex digits. Two processes with the same id would keep pushing each other
    /// off the broker.
    /// - Parameter node: The node name.
    /// - Returns: The id.
    public static func uniqueClientID(node: String) -> String {
        let random = UInt32.random(in: 0...UInt32.max)
        let hex = Hex.text([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: random >> $0) })
        return "eggtimer-\(HomeAssistantDiscovery.sanitised(String(node.prefix(32))))-\(getpid())-\(hex)"
    }
}
