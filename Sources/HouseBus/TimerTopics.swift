/// The MQTT topics of one timer: `<prefix>/<node>/<label>/<kind>`.
///
/// `node` and `label` must be single topic levels (no `/`, `+`, `#`): the CLI checks them with
/// its label rules before making topics. Pure; any thread.
public struct TimerTopics: Sendable, Equatable {
    /// The first topic levels, `eggtimer` by default (may hold `/`).
    public var prefix: String
    /// The machine or room, for example the host name.
    public var node: String
    /// The timer's label.
    public var label: String

    /// Creates the topics of one timer.
    /// - Parameters:
    ///   - prefix: The topic prefix, for example `eggtimer`.
    ///   - node: The node name, one topic level.
    ///   - label: The timer's label, one topic level.
    public init(prefix: String = "eggtimer", node: String, label: String) {
        self.prefix = prefix
        self.node = node
        self.label = label
    }

    /// The retained state topic (JSON, ``TimerStatePayload``).
    public var state: String { "\(prefix)/\(node)/\(label)/state" }
    /// The command topic (``BusCommand``).
    public var command: String { "\(prefix)/\(node)/\(label)/command" }
    /// The retained availability topic (`online`, `offline`; the offline one is the Last Will).
    public var availability: String { "\(prefix)/\(node)/\(label)/availability" }

    /// Parses `<prefix>/<node>/<label>/<kind>`.
    ///
    /// - Parameters:
    ///   - topic: A topic a message arrived on.
    ///   - prefix: The expected prefix.
    /// - Returns: The timer's topics and the last level (`state`, `command`, `availability`, or any
    ///   other), or nil when the topic has another shape or an empty level.
    public static func parse(_ topic: String, prefix: String) -> (TimerTopics, kind: String)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3, levels.allSatisfy({ !$0.isEmpty }) else { return nil }
        return (TimerTopics(prefix: prefix, node: String(levels[0]), label: String(levels[1])), String(levels[2]))
    }
}
