/// Where the MQTT broker is: scheme (plain or TLS), optional user name, host and TCP port.
///
/// Never holds a password: that comes from a file or the environment (``BusSettings/password``).
public struct BrokerAddress: Sendable, Equatable {
    /// Whether the connection uses TLS (`mqtts://`).
    public var secure: Bool
    /// The user name from `user@`, or nil for an anonymous connection.
    public var user: String?
    /// A host name or an IP address (IPv6 without its brackets).
    public var host: String
    /// The TCP port, 1–65535: 1883 by default for `mqtt://`, 8883 for `mqtts://`.
    public var port: Int

    /// Creates an address from its parts.
    /// - Parameters:
    ///   - secure: Whether to use TLS.
    ///   - user: The user name, or nil.
    ///   - host: A host name or IP address, IPv6 without brackets.
    ///   - port: The TCP port, 1–65535.
    public init(secure: Bool = false, user: String? = nil, host: String, port: Int? = nil) {
        self.secure = secure
        self.user = user
        self.host = host
        self.port = port ?? (secure ? 8883 : 1883)
    }

    /// The address as a URL without a password, for messages: `mqtt://user@host:port`.
    public var text: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return (secure ? "mqtts://" : "mqtt://") + (user.map { "\($0)@" } ?? "") + "\(shownHost):\(port)"
    }

    /// Parses `mqtt://[user@]host[:port]` or `mqtts://…`; an IPv6 host is written `[::1]`.
    ///
    /// A single trailing `/` is accepted. Pure; any thread.
    /// - Parameter text: The URL as the user wrote it.
    /// - Returns: The address, with the scheme's default port when none is given.
    /// - Throws: `BrokerAddressError` naming the first bad token: an unknown scheme, a password
    ///   (`user:secret@`), a bad host, a port outside 1–65535, or text after the port.
    public static func parse(_ text: String) throws(BrokerAddressError) -> BrokerAddress {
        let secure: Bool
        var rest: Substring
        if text.hasPrefix("mqtt://") {
            (secure, rest) = (false, text.dropFirst("mqtt://".count))
        } else if text.hasPrefix("mqtts://") {
            (secure, rest) = (true, text.dropFirst("mqtts://".count))
        } else {
            var end = text.startIndex
            while end < text.endIndex, !text[end...].hasPrefix("://") { end = text.index(after: end) }
            throw .scheme(String(text[..<end]))
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var user: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            if userInfo.contains(":") { throw .passwordInURL }
            guard !userInfo.isEmpty, userInfo.allSatisfy(isUserCharacter) else { throw .host(String(rest)) }
            user = String(userInfo)
            rest = rest[rest.index(after: at)...]
        }
        let (host, portText) = try splitHostPort(rest)
        guard let portText else { return BrokerAddress(secure: secure, user: user, host: host) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit), let port = Int(portText),
            (1...65535).contains(port)
        else { throw .port(String(portText)) }
        return BrokerAddress(secure: secure, user: user, host: host, port: port)
    }

    /// Splits `host[:port]` or `[v6][:port]`; the port text is nil when there is no colon.
    private static func splitHostPort(_ text: Substring) throws(BrokerAddressError) -> (String, Substring?) {
        if let slash = text.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            throw .trailing(String(text[slash...]))
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .host(String(text)) }
            let inner = text[text.index(after: text.startIndex)..<close]
            guard inner.contains(":"), inner.allSatisfy(isIPv6Character) else { throw .host(String(inner)) }
            let after = text[text.index(after: close)...]
            if after.isEmpty { return (String(inner), nil) }
            guard after.hasPrefix(":") else { throw .trailing(String(after)) }
            return (String(inner), after.dropFirst())
        }
        var host = text
        var port: Substring?
        if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.count <= 253, host.allSatisfy(isHostCharacter), host.first != "-",
            host.first != "."
        else { throw .host(String(host)) }
        return (String(host), port)
    }
}

extension Character {
    /// `0`–`9` only.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Letters, digits, `.`, `-` and `_` (host names and IPv4 addresses).
private func isHostCharacter(_ character: Character) -> Bool {
    character.isASCII
        && (character.isLetter || character.isNumber || character == "." || character == "-"
            || character == "_")
}

/// Hex digits, `:`, `.` (an embedded IPv4) and `%` with a zone name.
private func isIPv6Character(_ character: Character) -> Bool {
    character.isASCII
        && (character.isHexDigit || character == ":" || character == "." || character == "%"
            || character.isLetter || character.isNumber)
}

/// Printable ASCII other than the URL delimiters.
private func isUserCharacter(_ character: Character) -> Bool {
    guard let value = character.asciiValue else { return false }
    return value > 0x20 && value < 0x7F && !"/?#[]@".contains(character)
}
