import Glibc
import HouseBus
import SystemKit
import TextCoding
package import TimerText

/// What the `--mqtt…` and `--node` options ask for: the broker, how to log in, and the topics'
/// first levels.
///
/// The executable's option table fills it; a timer record (``TimerRecord/bus``) keeps it for
/// `eggtimer recover`.
package struct BusOptions: Equatable, Sendable {
    /// `--mqtt URL` as typed: `mqtt://[user@]host[:port]` or `mqtts://…`.
    ///
    /// Checked by ``BrokerAddress/parse(_:)`` when given: it holds no password. nil: no broker, and nothing of MQTT is loaded or
    /// woken for.
    package var url: String?
    /// `--mqtt-cafile FILE`: the CA certificates for `mqtts://`.
    package var caFile: String?
    /// `--mqtt-password-file FILE`: the password is its first line.
    package var passwordFile: String?
    /// `--node NAME`: this machine's topic level (default: the host name).
    package var node: String?
    /// `--mqtt-prefix P`: the topics' first level(s) (default `eggtimer`).
    package var prefix: String
    /// Hidden `--mqtt-keepalive D`: the MQTT keepalive, 5 s to 65535 s (default 30 s; tests use 5 s).
    package var keepalive: Duration

    /// The options as given; each left out is as when not given (no broker, prefix `eggtimer`,
    /// keepalive 30 s).
    package init(
        url: String? = nil, caFile: String? = nil, passwordFile: String? = nil, node: String? = nil,
        prefix: String = "eggtimer", keepalive: Duration = .seconds(30)
    ) {
        (self.url, self.caFile, self.passwordFile, self.node, self.prefix, self.keepalive) =
            (url, caFile, passwordFile, node, prefix, keepalive)
    }

    /// The environment variable that may hold the broker password.
    package static let passwordVariable = "EGGTIMER_MQTT_PASSWORD"

    /// The node name: `--node`, else the host name.
    ///
    /// The host name is made to fit the label rules (``LabelRule/isValid(_:)``): other
    /// characters become `_`, at most 64 of them. C: `gethostname`.
    package var nodeName: String {
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
    package static func topicLevel(_ text: String, fallback: String) -> String {
        var bytes = text.utf8.prefix(LabelRule.limit).map {
            LabelRule.allowsInFileName($0) ? $0 : UInt8(ascii: "_")
        }
        guard let first = bytes.first else { return fallback }
        if !LabelRule.allowsFirst(first) { bytes[0] = UInt8(ascii: "_") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` may be a topic prefix: one or more levels split by `/`, each a name by
    /// `LabelRule.isValidName` (no `+`: an MQTT wildcard).
    package static func isValidPrefix(_ text: String) -> Bool {
        !text.isEmpty
            && text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                LabelRule.isValidName(String($0))
            }
    }

    /// The label `follow` names the follower's availability (`P/NODE/follow/availability`).
    package static let followerLabel = "follow"

    /// The label `kitchen` names the kitchen's availability (`P/NODE/kitchen/availability`).
    package static let kitchenLabel = NodeTopics.kitchenLabel

    /// Refuses a timer labelled ``followerLabel`` or ``kitchenLabel`` on a broker: its
    /// availability would be the follower's or the kitchen's of the same node.
    /// - Parameter label: `--label`, if given (a timer's own label is a duration or a mode, never
    ///   `follow` or `kitchen`).
    /// - Throws: `UsageError` (exit 64) saying so.
    package func check(label: String?) throws(UsageError) {
        guard url != nil, let label, let owner = Self.reservedLabels[LabelRule.key(label)] else { return }
        throw UsageError(
            description:
                "option '--label' cannot be '\(label)' with --mqtt: P/NODE/\(label)/availability is the \(owner)'s"
        )
    }

    /// The labels no timer may take on a broker, with whose availability they name.
    package static let reservedLabels = [followerLabel: "follower", kitchenLabel: "kitchen"]

    /// Whether `text` names a timer across the house for `ack|cancel|snooze --mqtt`: `LABEL` or
    /// `NODE/LABEL` (split at the first `/`: a node has none), the node by
    /// ``LabelRule/isValid(_:)``, the label as `status` shows it (`1:30`): not empty, no `/`, at most
    /// ``LabelRule/limit`` bytes, no control character.
    package static func isValidTarget(_ text: String) -> Bool {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let label = parts.last, isShownLabel(label) else { return false }
        return parts.count == 1 || LabelRule.isValidName(parts[0])
    }

    /// Whether `text` is a label as `status` shows it (`1:30`), the way a command names a timer:
    /// not empty, no `/`, at most ``LabelRule/limit`` bytes, no control character.
    package static func isShownLabel(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= LabelRule.limit && !text.contains("/")
            && !text.unicodeScalars.contains(where: { $0.isControlCharacter })
    }
}
