import Glibc
import Kitchen
import TimerText

// The kitchen's HTTP options (issue 29): `--http ADDRESS:PORT`, `--http-cert FILE`, `--http-key
// FILE`, `--http-host NAME`: rows of the one option table (so `--help`, the man page, the
// completion and the config keys come from here).

extension WebOptions {
    /// Parses `ADDRESS:PORT`: a numeric IPv4 address, an IPv6 one in brackets (`[::1]:8080`) or
    /// `localhost` (127.0.0.1), a colon, and a port 0…65535 (0: any free one).
    /// - Parameter text: The value as typed.
    /// - Returns: The numeric address and port; nil for anything else (a host name, no port, a
    ///   port out of range or with a sign).
    static func parseListen(_ text: String) -> (address: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), (0...65535).contains(port)
        else { return nil }
        if host == "localhost" { host = "127.0.0.1" }
        if host.hasPrefix("["), host.hasSuffix("]") {
            let inner = String(host.dropFirst().dropLast())
            return isNumeric(inner, family: AF_INET6) ? (inner, UInt16(port)) : nil
        }
        return isNumeric(host, family: AF_INET) ? (host, UInt16(port)) : nil
    }

    /// Whether `text` is a numeric address of `family`.
    ///
    /// C: `inet_pton`.
    private static func isNumeric(_ text: String, family: Int32) -> Bool {
        guard !text.isEmpty, text.utf8.count < 64 else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }
}

extension Options {
    /// The options that may be given more than once, each adding to the last (every other one
    /// given twice is a usage error).
    static let repeatableOptions: Set<String> = ["--http-host"]

    /// The `--http` option rows: the kitchen's alone.
    static let webSpecs: [Spec] = [
        Spec(
            names: ["--http"], argument: "ADDRESS:PORT", group: .general,
            help: "serve the HTTP API and the phone page on ADDRESS:PORT (numeric, [IPv6] or localhost; "
                + "0.0.0.0:8080 for the Wi-Fi); devices pair first (--pair)",
            fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            guard let listen = WebOptions.parseListen(value) else {
                throw name.error(
                    "needs a numeric address or localhost, a colon and a port 0 to 65535 "
                        + "(127.0.0.1:8080, [::]:8080), got '\(printable(value))'")
            }
            options.web.listen = listen
        },
        Spec(
            names: ["--http-cert"], argument: "FILE", group: .general,
            help: "serve HTTPS with this certificate chain (PEM; with --http-key)", fits: [.subcommand("kitchen")],
            inConfigFile: true
        ) { options, _, value in options.web.certFile = value },
        Spec(
            names: ["--http-key"], argument: "FILE", group: .general,
            help: "the private key (PEM) of --http-cert", fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, _, value in options.web.keyFile = value },
        Spec(
            names: ["--http-host"], argument: "NAME", group: .general,
            help: "also accept NAME in the Host header (repeatable; the address, localhost, this host's name "
                + "and NAME.local are accepted anyway)",
            fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            let names = value.split(separator: ",", omittingEmptySubsequences: false).map { part in
                String(part.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            }
            for host in names where host.isEmpty || host.utf8.count > 253 || !host.allSatisfy(isHostCharacter) {
                throw name.error("needs a host name (letters, digits, '-', '.'), got '\(printable(host))'")
            }
            for host in names where !options.web.names.contains(host) { options.web.names.append(host) }
        },
        Spec(
            names: ["--http-keepalive"], argument: "D", group: .hidden,
            help: "how often the event streams get a keepalive (default 15s); a stream whose reader took "
                + "nothing for one is closed",
            fits: [.subcommand("kitchen")]
        ) { options, name, value throws(UsageError) in
            let keepalive = try duration(name, value)
            guard keepalive >= .seconds(1), keepalive <= WebOptions.defaultKeepalive else {
                throw name.error(
                    "takes 1s to \(WebOptions.defaultKeepalive.components.seconds)s, got '\(printable(value))'")
            }
            options.web.keepalive = keepalive
        },
    ]

    /// Whether `character` may be in a host name as `http-names` takes it: ASCII letters, digits, `-`, `.`.
    private static func isHostCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == ".")
    }
}
