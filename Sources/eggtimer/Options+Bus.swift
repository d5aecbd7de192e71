import Glibc
import HouseBus
import SystemKit
import TextCoding
import TimerCore
import TimerText

// The MQTT options (issue 15): rows of the one option table (Options+Table.swift), so `--help`,
// the man page, the completion and the config file's keys come from here too.

/// What the `--mqtt…` and `--node` options ask for: the broker, how to log in, and the topics'
/// first levels.
struct BusOptions: Equatable, Sendable {
    /// `--mqtt URL` as typed: `mqtt://[user@]host[:port]` or `mqtts://…`.
    ///
    /// Checked by ``BrokerAddress/parse(_:)`` when given: it holds no password. nil: no broker, and nothing of MQTT is loaded or
    /// woken for.
    var url: String?
    /// `--mqtt-cafile FILE`: the CA certificates for `mqtts://`.
    var caFile: String?
    /// `--mqtt-password-file FILE`: the password is its first line.
    var passwordFile: String?
    /// `--node NAME`: this machine's topic level (default: the host name).
    var node: String?
    /// `--mqtt-prefix P`: the topics' first level(s) (default `eggtimer`).
    var prefix = "eggtimer"
    /// Hidden `--mqtt-keepalive D`: the MQTT keepalive, 5 s to 65535 s (default 30 s; tests use 5 s).
    var keepalive: Duration = .seconds(30)

    /// The environment variable that may hold the broker password.
    static let passwordVariable = "EGGTIMER_MQTT_PASSWORD"

    /// The node name: `--node`, else the host name.
    ///
    /// The host name is made to fit the label rules (``Options/isValidLabel(_:)``): other
    /// characters become `_`, at most 64 of them. C: `gethostname`.
    var nodeName: String {
        if let node { return node }
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "eggtimer" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Self.topicLevel(name, fallback: "eggtimer")
    }

    /// `text` (a host name) as a node name by the label rules: every character that is not an ASCII letter,
    /// digit, `-`, `_` or `.` becomes `_`, a leading `.` or `-` too; cut at 64 characters.
    /// - Parameters:
    ///   - text: A host name or a timer's label (`1:30`, `2 hours`).
    ///   - fallback: What an empty `text` gives.
    /// - Returns: A valid label.
    static func topicLevel(_ text: String, fallback: String) -> String {
        var bytes = text.utf8.prefix(Options.labelLimit).map { LabelRule.allowsInFileName($0) ? $0 : UInt8(ascii: "_") }
        guard let first = bytes.first else { return fallback }
        if !LabelRule.allowsFirst(first) { bytes[0] = UInt8(ascii: "_") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The broker password: the first line of `--mqtt-password-file`, else
    /// `$EGGTIMER_MQTT_PASSWORD`, else none.
    /// - Parameter environment: An environment variable's value by name.
    /// - Returns: The password, or nil.
    /// - Throws: `UsageError` naming the file when it cannot be read or is not a regular file (a
    ///   FIFO is refused at once, never waited on).
    func password(environment: (String) -> String? = Self.processEnvironment) throws(UsageError) -> String? {
        guard let passwordFile else { return environment(Self.passwordVariable).flatMap { $0.isEmpty ? nil : $0 } }
        let descriptor: Int32
        do { descriptor = try RegularFile.open(passwordFile) } catch {
            throw UsageError(
                description: "option '--mqtt-password-file': cannot read '\(passwordFile)': \(error.reason)")
        }
        defer { close(descriptor) }
        let bytes = (try? RegularFile.read(descriptor, limit: 65536)) ?? []
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        return String(decoding: line, as: UTF8.self)
    }

    /// An environment variable's value, from the process's environment.
    static func processEnvironment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Whether `text` may be a topic prefix: one or more levels split by `/`, each a name by
    /// `LabelRule.isValidName` (no `+`: an MQTT wildcard).
    static func isValidPrefix(_ text: String) -> Bool {
        !text.isEmpty
            && text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                LabelRule.isValidName(String($0))
            }
    }

    /// The label `follow` names the follower's availability (`P/NODE/follow/availability`).
    static let followerLabel = "follow"

    /// The label `kitchen` names the kitchen's availability (`P/NODE/kitchen/availability`).
    static let kitchenLabel = NodeTopics.kitchenLabel

    /// Refuses a timer labelled ``followerLabel`` or ``kitchenLabel`` on a broker: its
    /// availability would be the follower's or the kitchen's of the same node.
    /// - Parameter label: `--label`, if given (a timer's own label is a duration or a mode, never
    ///   `follow` or `kitchen`).
    /// - Throws: `UsageError` (exit 64) saying so.
    func check(label: String?) throws(UsageError) {
        guard url != nil, let label, let owner = Self.reservedLabels[label] else { return }
        throw UsageError(
            description:
                "option '--label' cannot be '\(label)' with --mqtt: P/NODE/\(label)/availability is the \(owner)'s"
        )
    }

    /// The labels no timer may take on a broker, with whose availability they name.
    static let reservedLabels = [followerLabel: "follower", kitchenLabel: "kitchen"]

    /// Whether `text` names a timer across the house for `ack|cancel|snooze --mqtt`: `LABEL` or
    /// `NODE/LABEL` (split at the first `/`: a node has none), the node by
    /// ``Options/isValidLabel(_:)``, the label as `status` shows it (`1:30`): not empty, no `/`, at most
    /// ``Options/labelLimit`` bytes, no control character.
    static func isValidTarget(_ text: String) -> Bool {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let label = parts.last, !label.isEmpty, label.utf8.count <= Options.labelLimit, !label.contains("/"),
            !label.unicodeScalars.contains(where: { $0.isControlCharacter })
        else { return false }
        return parts.count == 1 || LabelRule.isValidName(parts[0])
    }
}

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
