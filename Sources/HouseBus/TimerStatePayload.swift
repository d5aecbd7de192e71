/// The retained JSON state of one timer on `<prefix>/<node>/<label>/state`.
///
/// Keys: `state`, `label`, `node`, `duration_s`, `remaining_s`, `deadline` (UTC ISO 8601 with
/// milliseconds, or `null` when the timer is not counting). Pure; any thread.
public struct TimerStatePayload: Sendable, Equatable {
    /// The largest payload ``parse(_:)`` reads, in bytes.
    public static let byteLimit = 4096
    /// The largest magnitude of `duration_s` and `remaining_s` ``parse(_:)`` accepts, in seconds
    /// (about 317 years; a timer's are at most a few thousand hours): as milliseconds it fits an `Int64`.
    public static let secondsLimit: Double = 1e10

    /// One of the shared state names: counting, paused, ringing, silent, snoozed, done, cancelled, missed.
    public var state: String
    /// The timer's label.
    public var label: String
    /// The node the timer runs on.
    public var node: String
    /// The timer's whole length, in seconds.
    public var durationSeconds: Double
    /// The time left, in seconds (0 once it rings).
    public var remainingSeconds: Double
    /// When it rings, in milliseconds since 1970-01-01T00:00:00Z; nil when not counting.
    public var deadlineUnixMilliseconds: Int64?

    /// Creates a state payload.
    /// - Parameters:
    ///   - state: A shared state name.
    ///   - label: The timer's label.
    ///   - node: The node name.
    ///   - durationSeconds: The whole length, in seconds.
    ///   - remainingSeconds: The time left, in seconds.
    ///   - deadlineUnixMilliseconds: The deadline in Unix milliseconds, or nil.
    public init(
        state: String, label: String, node: String, durationSeconds: Double, remainingSeconds: Double,
        deadlineUnixMilliseconds: Int64?
    ) {
        self.state = state
        self.label = label
        self.node = node
        self.durationSeconds = durationSeconds
        self.remainingSeconds = remainingSeconds
        self.deadlineUnixMilliseconds = deadlineUnixMilliseconds
    }

    /// The payload as compact JSON, UTF-8; seconds rounded to milliseconds.
    public func json() -> [UInt8] {
        JSONValue.object([
            JSONMember("state", .string(state)),
            JSONMember("label", .string(label)),
            JSONMember("node", .string(node)),
            JSONMember("duration_s", .number(Self.milliseconds(durationSeconds))),
            JSONMember("remaining_s", .number(Self.milliseconds(remainingSeconds))),
            JSONMember(
                "deadline", deadlineUnixMilliseconds.map { .string(UTCTimestamp.text(unixMilliseconds: $0)) } ?? .null),
        ]).json()
    }

    /// Parses a state payload tolerantly (extra keys are ignored).
    ///
    /// - Parameter payload: The message payload.
    /// - Returns: The state, or nil for malformed JSON, a payload over ``byteLimit`` bytes, a
    ///   missing or mistyped key, a `duration_s` or `remaining_s` beyond ±``secondsLimit``, or a
    ///   deadline that is not a UTC ISO 8601 timestamp.
    public static func parse(_ payload: [UInt8]) -> TimerStatePayload? {
        guard let object = JSONValue.parse(payload, byteLimit: byteLimit), case .object = object,
            let state = object["state"]?.stringValue, let label = object["label"]?.stringValue,
            let node = object["node"]?.stringValue, let duration = object["duration_s"]?.numberValue,
            let remaining = object["remaining_s"]?.numberValue,
            (-secondsLimit...secondsLimit).contains(duration), (-secondsLimit...secondsLimit).contains(remaining)
        else { return nil }
        var deadline: Int64?
        switch object["deadline"] {
        case nil, .null?: deadline = nil
        case .string(let text)?:
            guard let milliseconds = UTCTimestamp.unixMilliseconds(text) else { return nil }
            deadline = milliseconds
        default: return nil
        }
        return TimerStatePayload(
            state: state, label: label, node: node, durationSeconds: duration, remainingSeconds: remaining,
            deadlineUnixMilliseconds: deadline)
    }

    /// `seconds` rounded to a millisecond.
    private static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : 0
    }
}
