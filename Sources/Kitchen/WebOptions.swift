/// What the `--http…` options ask for: where the kitchen's HTTP API listens, TLS, and the extra
/// host names its `Host` check accepts.
///
/// The value the kitchen reads (``KitchenSettings/web``); the executable's option table parses
/// the options into it (`WebOptions.parseListen`).
package struct WebOptions: Equatable, Sendable {
    /// `--http ADDRESS:PORT`: the numeric address (`127.0.0.1`, `0.0.0.0`, `::`) and the port
    /// (0: any free one, said in the listening line); nil: no HTTP server.
    package var listen: (address: String, port: UInt16)? {
        get { address.map { ($0, port) } }
        set { (address, port) = (newValue?.address, newValue?.port ?? 0) }
    }
    /// The numeric address, nil without `--http`.
    package var address: String?
    /// The port.
    package var port: UInt16 = 0
    /// `--http-cert FILE`: the certificate chain, PEM.
    package var certFile: String?
    /// `--http-key FILE`: its private key, PEM.
    package var keyFile: String?
    /// `--http-host NAME` (repeatable; config key `http-host`, comma-separated): more host names
    /// the `Host` check accepts.
    package var names: [String] = []
    /// `--http-keepalive D` (hidden; tests): how often the event streams get `: keepalive`, and
    /// so how long a stream's bytes may wait untaken before it is closed (issue 43); 1 s to
    /// ``defaultKeepalive``.
    package var keepalive = WebOptions.defaultKeepalive
    /// The event streams' keepalive interval by default: 15 s (a stopped reader is closed within
    /// two: 30 s).
    package static let defaultKeepalive = Duration.seconds(15)

    /// No `--http`: no HTTP server.
    package init() {}

    /// Equal when every setting is.
    package static func == (a: WebOptions, b: WebOptions) -> Bool {
        (a.address, a.port, a.certFile, a.keyFile, a.names, a.keepalive)
            == (b.address, b.port, b.certFile, b.keyFile, b.names, b.keepalive)
    }
}
