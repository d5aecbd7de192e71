import SystemKit
import TextCoding

/// The retained JSON state of one timer on `<prefix>/<node>/<label>/state`.
///
/// Keys: `state`, `label`, `node`, `duration_s`, `remaining_s`, `deadline` (UTC ISO 8601 with
/// milliseconds, or `null` when the timer is not counting), `instance` (the publishing process's
/// id, lower-case hex), `published` (when it was published: UTC ISO 8601 with milliseconds, by
/// the publisher's wall clock), `clock_synced` (whether that clock was synchronised then) and
/// `interval_s` (the longest the publisher lets its state go without publishing it again, or
/// `null` for a final state). The last four are absent from payloads of eggtimer before issue 20.
/// `silent` (issue 37), only when it applies: why the alarm reaches no device (`cannot open audio
/// device 'X': REASON`), while the timer runs or, in its final state, why it rang unheard.
/// Pure; any thread.
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
    /// The id of the process that published it (``newInstanceID()``); nil when the payload has none.
    ///
    /// Two timers with one node and label (two Pis both called `raspberrypi`) share a topic: the
    /// id tells whose state the broker holds, so neither clears the other's.
    public var instance: String?
    /// When it was published, in milliseconds since 1970-01-01T00:00:00Z by the publisher's wall
    /// clock; nil when the payload has none.
    public var publishedUnixMilliseconds: Int64?
    /// Whether the publisher's wall clock was synchronised (NTP) when it published; nil when the
    /// payload does not say.
    public var publisherClockSynchronised: Bool?
    /// The longest the publisher lets this state go unrefreshed, in seconds; nil when it promises
    /// nothing (a final state, or a payload without it).
    public var intervalSeconds: Double?
    /// Why the alarm reaches no device (in a final state: why it rang unheard).
    ///
    /// Nil when it does or the payload does not say. Key `silent`, a string, only when set.
    public var silent: String?

    /// How many promised intervals a state may go unrefreshed before it counts as stale.
    public static let staleIntervals = 3
    /// The longest interval ``staleAfterUnixMilliseconds`` believes, in seconds (a day); a
    /// longer, zero, negative or non-finite `interval_s` promises nothing.
    public static let longestInterval = 86_400.0

    /// Creates a state payload.
    /// - Parameters:
    ///   - state: A shared state name.
    ///   - label: The timer's label.
    ///   - node: The node name.
    ///   - durationSeconds: The whole length, in seconds.
    ///   - remainingSeconds: The time left, in seconds.
    ///   - deadlineUnixMilliseconds: The deadline in Unix milliseconds, or nil.
    ///   - instance: The publishing process's id, or nil.
    ///   - publishedUnixMilliseconds: When it is published (Unix milliseconds), or nil.
    ///   - publisherClockSynchronised: Whether the publisher's clock is synchronised, or nil.
    ///   - intervalSeconds: The promised republish interval in seconds, or nil.
    ///   - silent: Why the alarm reaches no device, or nil.
    public init(
        state: String, label: String, node: String, durationSeconds: Double, remainingSeconds: Double,
        deadlineUnixMilliseconds: Int64?, instance: String? = nil, publishedUnixMilliseconds: Int64? = nil,
        publisherClockSynchronised: Bool? = nil, intervalSeconds: Double? = nil, silent: String? = nil
    ) {
        self.silent = silent
        self.instance = instance
        self.publishedUnixMilliseconds = publishedUnixMilliseconds
        self.publisherClockSynchronised = publisherClockSynchronised
        self.intervalSeconds = intervalSeconds
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
        let random = generator.next() as UInt64
        return Hex.text(stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: random >> UInt64($0)) })
    }

    /// The instant after which this state is stale (Unix milliseconds): ``staleIntervals`` of its
    /// promised interval after `published`.
    ///
    /// nil when the payload cannot say: no `published` or no usable `interval_s` (see
    /// ``longestInterval``), or the publisher's clock was not synchronised (`clock_synced` false).
    public var staleAfterUnixMilliseconds: Int64? {
        guard publisherClockSynchronised != false, let published = publishedUnixMilliseconds,
            let interval = intervalSeconds, interval.isFinite, interval > 0, interval <= Self.longestInterval
        else { return nil }
        // published is a parsed timestamp (years 0000–9999) and the interval at most a day: no overflow.
        return published + Int64((interval * 1000).rounded()) * Int64(Self.staleIntervals)
    }

    /// Whether this state is stale at `nowUnixMilliseconds`: not refreshed within
    /// ``staleIntervals`` of its promised intervals (``staleAfterUnixMilliseconds``).
    ///
    /// A reader trusts `published` only while its own clock is synchronised: with
    /// `clockSynchronised` false (a Pi that booted without NTP yet) nothing is stale.
    /// - Parameters:
    ///   - nowUnixMilliseconds: The reader's wall clock, milliseconds since the Unix epoch.
    ///   - clockSynchronised: Whether the reader's wall clock is synchronised (adjtimex).
    /// - Returns: Whether the state is stale; false when the payload cannot say.
    public func isStale(atUnixMilliseconds nowUnixMilliseconds: Int64, clockSynchronised: Bool) -> Bool {
        guard clockSynchronised, let limit = staleAfterUnixMilliseconds else { return false }
        return nowUnixMilliseconds > limit
    }

    /// The payload as compact JSON, UTF-8 (``jsonValue`` written).
    public func json() -> [UInt8] { jsonValue.json() }

    /// The payload as a JSON object: seconds rounded to milliseconds; `instance`, `published`,
    /// `clock_synced` and `interval_s` only when set (`interval_s` null when `published` is set
    /// without it), then `silent` when set.
    public var jsonValue: JSONValue {
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
        if let published = publishedUnixMilliseconds {
            members.append(JSONMember("published", .string(UTCTimestamp.text(unixMilliseconds: published))))
        }
        if let synchronised = publisherClockSynchronised {
            members.append(JSONMember("clock_synced", .bool(synchronised)))
        }
        if let interval = intervalSeconds {
            members.append(JSONMember("interval_s", .number(Self.milliseconds(interval))))
        } else if publishedUnixMilliseconds != nil {
            members.append(JSONMember("interval_s", .null))
        }
        if let silent { members.append(JSONMember("silent", .string(silent))) }
        return .object(members)
    }

    /// Parses a state payload tolerantly (extra keys are ignored).
    ///
    /// - Parameter payload: The message payload.
    /// - Returns: The state, or nil for malformed JSON, a payload over ``byteLimit`` bytes, a
    ///   missing or mistyped key (`instance` may be missing, `published`, `clock_synced`,
    ///   `interval_s` and `silent` missing or null, none mistyped), a `duration_s` or `remaining_s` beyond
    ///   ±``secondsLimit``, or a deadline that is not a UTC ISO 8601 timestamp.
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
        var instance: String?
        switch object["instance"] {
        case nil: instance = nil
        case .string(let text)?: instance = text
        default: return nil
        }
        var published: Int64?
        switch object["published"] {
        case nil, .null?: published = nil
        case .string(let text)?:
            guard let milliseconds = UTCTimestamp.unixMilliseconds(text) else { return nil }
            published = milliseconds
        default: return nil
        }
        var synchronised: Bool?
        switch object["clock_synced"] {
        case nil, .null?: synchronised = nil
        case .bool(let value)?: synchronised = value
        default: return nil
        }
        var interval: Double?
        switch object["interval_s"] {
        case nil, .null?: interval = nil
        case .number(let value)?: interval = value
        default: return nil
        }
        var silent: String?
        switch object["silent"] {
        case nil, .null?: silent = nil
        case .string(let text)?: silent = text
        default: return nil
        }
        return TimerStatePayload(
            state: state, label: label, node: node, durationSeconds: duration, remainingSeconds: remaining,
            deadlineUnixMilliseconds: deadline, instance: instance, publishedUnixMilliseconds: published,
            publisherClockSynchronised: synchronised, intervalSeconds: interval, silent: silent)
    }

    /// `seconds` rounded to a millisecond.
    private static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : 0
    }
}
