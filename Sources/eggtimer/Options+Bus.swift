import Glibc
import HouseBus
import SystemKit
import TimerEngine
import TimerText

// The MQTT options (issue 15): rows of the one option table (Options+Table.swift), so `--help`,
// the man page, the completion and the config file's keys come from here too. What they ask for
// is TimerEngine's `BusOptions`, which a timer record keeps.

extension Options {
    /// The subcommands the MQTT options work with (besides a timer).
    private static let busSubcommands = [
        "follow", "kitchen", "status", "ack", "cancel", "snooze", "pause", "resume", "add",
    ]

    /// Where the broker options fit: every timer, and ``busSubcommands``.
    private static let busScopes = Scope.timers + Scope.subcommands(busSubcommands)

    /// The MQTT option rows: general, so they work with a timer and with ``busSubcommands``.
    static let busSpecs: [Spec] = [
        Spec(
            names: ["--mqtt"], argument: "URL", group: .general,
            help: "join the MQTT broker at mqtt://[user@]host[:port] (or mqtts://): publish this timer's state, "
                + "take commands; with follow and the subcommands, reach every timer in the house",
            fits: busScopes, inConfigFile: true
        ) { options, name, value throws(UsageError) in
            try checkBrokerURL(name, value)
            options.bus.url = value
        },
        Spec(
            names: ["--mqtt-cafile"], argument: "FILE", group: .general,
            help: "CA certificates (PEM) to check an mqtts:// broker with", fits: busScopes,
            inConfigFile: true
        ) { options, _, value in options.bus.caFile = value },
        Spec(
            names: ["--mqtt-password-file"], argument: "FILE", group: .general,
            help: "the broker password is this file's first line (else $\(BusOptions.passwordVariable); "
                + "never on the command line)",
            fits: busScopes, inConfigFile: true
        ) { options, _, value in options.bus.passwordFile = value },
        Spec(
            names: ["--node"], argument: "NAME", group: .general,
            help: "this machine's name in the MQTT topics (default: the host name); letters, digits, - _ . (no : or +)",
            fits: Scope.timers + Scope.subcommands(["follow", "kitchen"]), inConfigFile: true
        ) { options, name, value throws(UsageError) in
            guard LabelRule.isValidName(value) else {
                throw name.error("needs \(LabelRule.nameDescription), got '\(value)'")
            }
            options.bus.node = value
        },
        Spec(
            names: ["--mqtt-prefix"], argument: "P", group: .general,
            help: "the MQTT topics' first level (default eggtimer): P/NODE/LABEL/state, command, availability",
            fits: busScopes, inConfigFile: true
        ) { options, name, value throws(UsageError) in
            guard BusOptions.isValidPrefix(value) else {
                throw name.error("needs levels split by '/', each \(LabelRule.nameDescription), got '\(value)'")
            }
            guard !value.hasPrefix(discoveryPrefix + "/"), value != discoveryPrefix else {
                throw name.error("cannot start with '\(discoveryPrefix)', Home Assistant's discovery topics")
            }
            options.bus.prefix = value
        },
        Spec(
            names: ["--mqtt-keepalive"], argument: "D", group: .hidden,
            help: "the MQTT keepalive (default 30s): how soon the broker declares a silent timer offline",
            fits: busScopes
        ) { options, name, value throws(UsageError) in
            let keepalive = try duration(name, value)
            // libmosquitto takes no keepalive under 5 s.
            guard keepalive >= .seconds(5), keepalive <= .seconds(65535) else {
                throw name.error("takes 5s to 65535s, got '\(value)'")
            }
            options.bus.keepalive = keepalive
        },
    ]

    /// Home Assistant's discovery prefix: a topic prefix may not start with it (the timers'
    /// topics would mix with the discovery configs).
    static let discoveryPrefix = "homeassistant"

    /// Checks a broker URL with ``BrokerAddress/parse(_:)``: a scheme, a host, a port, and no
    /// password (never on the command line or in the config file, where `ps` or a backup shows it).
    /// - Throws: `UsageError` naming the bad token (never the password).
    static func checkBrokerURL(_ name: ValueSource, _ value: String) throws(UsageError) {
        do { _ = try BrokerAddress.parse(value) } catch { throw name.error(because: error.message) }
    }
}
