/// Why a broker URL was refused by ``BrokerAddress/parse(_:)``.
public enum BrokerAddressError: Error, Equatable {
    /// The scheme is not `mqtt` or `mqtts` (the text before `://`, or the whole URL).
    case scheme(String)
    /// The URL holds a password (`user:secret@host`); passwords come from a file or the environment.
    case passwordInURL
    /// The host is empty or holds characters a host name or IP address cannot.
    case host(String)
    /// The port is not a number in 1–65535.
    case port(String)
    /// Text follows the host and port (a path, query or garbage).
    case trailing(String)

    /// One line for the user naming the bad token (never the password).
    public var message: String {
        switch self {
        case .scheme(let scheme): "the broker URL must start with mqtt:// or mqtts:// (not \"\(scheme)\")"
        case .passwordInURL:
            "the broker URL must not hold a password: use --mqtt-password-file or EGGTIMER_MQTT_PASSWORD"
        case .host(let host): "bad broker host \"\(host)\""
        case .port(let port): "bad broker port \"\(port)\" (1-65535)"
        case .trailing(let text): "unexpected \"\(text)\" after the broker host and port"
        }
    }
}
