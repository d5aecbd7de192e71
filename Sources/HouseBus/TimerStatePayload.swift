/// The retained JSON state of one timer on `<prefix>/<node>/<label>/state`.
///
/// Keys: `state`, `label`, `node`, `duration_s`, `remaining_s`, `deadline` (UTC ISO 8601 with
/// milliseconds, or `null` when the timer is not counting), `instance` (the publishing process's
/// id, lower-case hex; absent from payloads of eggtimer before issue 20). Pure; any thread.
public struct TimerStatePayload: Sendable, Equatable {
    /// The largest payload ``parse(_:)`` reads, in bytes.
    public static let byteLimit = 4096

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
    /// The id of the process that published it (``newInstanceID()``); nil when the payload has none.
    ///
    /// Two timers with one node and label (two Pis both called `raspberrypi`) share a topic: the
    /// id tells whose state the broker holds, so neither clears the other's.
    public var instance: String?

    /// Creates a state payload.
    /// - Parameters:
    ///   - state: A shared state name.
    ///   - label: The timer's label.
    ///   - node: The node name.
    ///   - durationSeconds: The whole length, in seconds.
    ///   - remainingSeconds: The time left, in seconds.
    ///   - deadlineUnixMilliseconds: The deadline in Unix milliseconds, or nil.
    ///   - instance: The publishing process's id, or nil.
    public init(
        state: String, label: String, node: String, durationSeconds: Double, remainingSeconds: Double,
        deadlineUnixMilliseconds: Int64?, instance: String? = nil
    ) {
        self.instance = instance
        self.state = state
        self.label = label
        self.node = node
        self.durationSeconds = durationSeconds
        self.remainingSeconds = remainingSeconds
        self.deadlineUnixMilliseconds = deadlineUnixMilliseconds
    }

    /// A new process id for ``instance``: 16 lower-case hex digits (64 random bits).
    ///
    /// Reads the system's random source (`getrandom` on Linux, through the standard library's
    /// `SystemRandomNumberGenerator`); any thread.
    public static func newInstanceID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The payload as compact JSON, UTF-8; seconds rounded to milliseconds; `instance` only when set.
    public func json() -> [UInt8] {
        var members = [
            JSONMember("state", .string(state)),
            JSONMember("label", .string(label)),
            JSONMember("node", .string(node)),
            JSONMember("duration_s", .number(Self.milliseconds(durationSeconds))),
            JSONMember("remaining_s", .number(Self.milliseconds(remainingSeconds))),
            JSONMember(
                "deadline", deadlineUnixMilliseconds.map { .string(UTCTimestamp.text(unixMilliseconds: $0)) } ?? .null),
        ]
        if let instance { members.append(JSONMember("instance", .string(instance))) }
        return JSONValue.object(members).json()
    }

    /// Parses a state payload tolerantly (extra keys are ignored).
    ///
    /// - Parameter payload: The message payload.
    /// - Returns: The state, or nil for malformed JSON, a payload over ``byteLimit`` bytes, a
    ///   missing or mistyped key (`instance` may be missing, not mistyped), or a deadline that is
    ///   not a UTC ISO 8601 timestamp.
    public static func parse(_ payload: [UInt8]) -> TimerStatePayload? {
        guard let object = JSONValue.parse(payload, byteLimit: byteLimit), case .object = object,
            let state = object["state"]?.stringValue, let label = object["label"]?.stringValue,
            let node = object["node"]?.stringValue, let duration = object["duration_s"]?.numberValue,
            let remaining = object["remaining_s"]?.numberValue
        else { return nil }
        var deadline: Int64?
        switch object["deadline"] {
        case nil, .null?: deadline = nil
        case .string(let text)?:
            guard let milliseconds = UTCTimestamp.unixMilliseconds(text) else { return nil }
            deadline = milliseconds
        default: return nil
        }
        var instance: String?
        switch object["instance"] {
        case nil: instance = nil
        case .string(let text)?: instance = text
        default: return nil
        }
        return TimerStatePayload(
            state: state, label: label, node: node, durationSeconds: duration, remainingSeconds: remaining,
            deadlineUnixMilliseconds: deadline, instance: instance)
    }

    /// `seconds` rounded to a millisecond.
    private static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : 0
    }
}
