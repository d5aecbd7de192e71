import TextCoding

/// The MQTT topics of one timer: `<prefix>/<node>/<label>/<kind>`.
///
/// `node` and `label` are names, not topic levels: the topics carry them through ``level(_:)``,
/// an injective escape, so two timers with different labels never share a topic (`1:30` and
/// `1_30` are `…/1:30/…` and `…/1_30/…`). Pure; any thread.
public struct TimerTopics: Sendable, Equatable {
    /// The first topic levels, `eggtimer` by default (may hold `/`).
    public var prefix: String
    /// The machine or room, for example the host name.
    public var node: String
    /// The timer's label, as the timer names itself (`1:30`, `eggs`).
    public var label: String

    /// Creates the topics of one timer.
    /// - Parameters:
    ///   - prefix: The topic prefix, for example `eggtimer`.
    ///   - node: The node name (escaped by ``level(_:)`` in the topics).
    ///   - label: The timer's label (escaped by ``level(_:)`` in the topics).
    public init(prefix: String = "eggtimer", node: String, label: String) {
        self.prefix = prefix
        self.node = node
        self.label = label
    }

    /// `prefix/node/label/` with node and label escaped.
    private var base: String { "\(prefix)/\(Self.level(node))/\(Self.level(label))/" }
    /// The retained state topic (JSON, ``TimerStatePayload``).
    public var state: String { base + "state" }
    /// The command topic (``BusCommand``).
    public var command: String { base + "command" }
    /// The retained availability topic (`online`, `offline`; the offline one is the Last Will).
    public var availability: String { base + "availability" }

    /// A name as one topic level, injectively.
    ///
    /// Every character is kept except `/`, `+`, `#`, `%` and the control characters (U+0000–U+001F, U+007F–U+009F), whose UTF-8 bytes become `%XX`
    /// (upper-case hex). Injective: ``name(ofLevel:)`` undoes it.
    /// - Parameter name: A node name or a label.
    /// - Returns: The topic level (empty for an empty name).
    public static func level(_ name: String) -> String {
        var level = ""
        for scalar in name.unicodeScalars {
            let escaped = scalar == "/" || scalar == "+" || scalar == "#" || scalar == "%" || scalar.isControlCharacter
            guard escaped else {
                level.unicodeScalars.append(scalar)
                continue
            }
            level += PercentCoding.escaped(scalar)
        }
        return level
    }

    /// The name a topic level made by ``level(_:)`` stands for.
    /// - Parameter level: One topic level.
    /// - Returns: The name, or nil when `level` is not one ``level(_:)`` makes (a stray `%`, a
    ///   character it would have escaped, lower-case hex).
    public static func name(ofLevel level: String) -> String? {
        guard let bytes = PercentCoding.decoded(level.utf8) else { return nil }
        let name = String(decoding: bytes, as: UTF8.self)
        return Self.level(name) == level ? name : nil
    }

    /// Parses `<prefix>/<node>/<label>/<kind>`.
    ///
    /// - Parameters:
    ///   - topic: A topic a message arrived on.
    ///   - prefix: The expected prefix.
    /// - Returns: The timer's topics (node and label unescaped) and the last level (`state`,
    ///   `command`, `availability`, or any other), or nil when the topic has another shape, an
    ///   empty level, or a level ``level(_:)`` does not make.
    public static func parse(_ topic: String, prefix: String) -> (TimerTopics, kind: String)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3, levels.allSatisfy({ !$0.isEmpty }), let node = name(ofLevel: String(levels[0])),
            let label = name(ofLevel: String(levels[1]))
        else { return nil }
        return (TimerTopics(prefix: prefix, node: node, label: label), String(levels[2]))
    }
}
