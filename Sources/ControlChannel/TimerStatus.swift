public import TimerModel

/// A ``TimerSnapshot`` as the control socket's status line carries it: `key=value` fields.
///
/// The line is `ok<TAB>label=…<TAB>pid=…<TAB>state=…<TAB>remaining_ns=…` and then, when they
/// apply, `deadline_ms=…`, `at=…`, `every=…`, `clock=unsynchronised`, `terminal=detached` (the
/// keys of every eggtimer since the control socket came). A timer makes one from its snapshot
/// (``init(_:)``); a client reads one from a line (``init(line:)``). A plain value: any thread.
public struct TimerStatus: Equatable, Sendable {
    /// The timer's label.
    public var label: String
    /// Its process id.
    public var pid: Int32
    /// Its state, in the shared vocabulary (``TimerState``; `menu` for the egg menu).
    public var state: TimerState
    /// The time left until the deadline (or until a snoozed alarm rings again).
    public var remaining: Duration
    /// When it rings (or rang), as milliseconds since the Unix epoch (UTC); nil while paused.
    public var deadlineUnixMilliseconds: Int64?

    /// An alarm at a time: the occurrence armed, as local ISO 8601 with its UTC offset
    /// (`2026-11-30T07:00:00+01:00`; for a series, the next one); nil for a countdown.
    ///
    /// Field `at`, added later: a timer without it omits it and old clients ignore it.
    public var at: String?
    /// A repeating alarm's `--every` as typed (`weekday`); nil for none.
    ///
    /// Field `every`.
    public var every: String?
    /// Whether the timer's wall clock is not synchronised (NTP); field `clock=unsynchronised`.
    public var clockUnsynchronised = false
    /// Whether a hang-up took the timer's terminal (it counts and rings on headless); field
    /// `terminal=detached`.
    public var detached = false

    /// Creates a status.
    public init(
        label: String, pid: Int32, state: TimerState, remaining: Duration, deadlineUnixMilliseconds: Int64?,
        at: String? = nil, every: String? = nil, clockUnsynchronised: Bool = false, detached: Bool = false
    ) {
        (self.label, self.pid, self.state) = (label, pid, state)
        (self.remaining, self.deadlineUnixMilliseconds) = (remaining, deadlineUnixMilliseconds)
        (self.at, self.every, self.clockUnsynchronised) = (at, every, clockUnsynchronised)
        self.detached = detached
    }

    /// The status line's fields of `snapshot`: its label, pid, state, time left, wall deadline,
    /// schedule, clock and terminal (the kind, length and boot deadline stay off the line).
    public init(_ snapshot: TimerSnapshot) {
        self.init(
            label: snapshot.label, pid: snapshot.pid, state: snapshot.state, remaining: snapshot.remaining,
            deadlineUnixMilliseconds: snapshot.deadlineUnixMilliseconds, at: snapshot.schedule?.at,
            every: snapshot.schedule?.every, clockUnsynchronised: snapshot.clockUnsynchronised,
            detached: snapshot.detached)
    }

    /// The reply line: `ok` and the fields.
    public var line: String {
        var fields = [
            "ok", "label=\(label)", "pid=\(pid)", "state=\(state.rawValue)",
            "remaining_ns=\(remaining.nanosecondsValue)",
        ]
        if let deadlineUnixMilliseconds { fields.append("deadline_ms=\(deadlineUnixMilliseconds)") }
        if let at { fields.append("at=\(at)") }
        if let every { fields.append("every=\(every)") }
        if clockUnsynchronised { fields.append("clock=unsynchronised") }
        if detached { fields.append("terminal=detached") }
        return fields.joined(separator: "\t")
    }

    /// The latest `deadline_ms` a reply may carry: 9999-12-31T23:59:59.999Z, in Unix milliseconds.
    public static let deadlineLimit: Int64 = 253_402_300_799_999

    /// Parses a reply line.
    /// - Returns: nil unless it is an `ok` line with every required field, `state` one of the
    ///   ``TimerState`` words, `remaining_ns` not negative and `deadline_ms` (when given) in
    ///   0...``deadlineLimit``: the client does calendar arithmetic on it, so a number from a
    ///   stranger's socket is range-checked first.
    public init?(line: String) {
        let words = line.split(separator: "\t")
        guard words.first == "ok" else { return nil }
        var fields: [Substring: Substring] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else { return nil }
            fields[word[..<equals]] = word[word.index(after: equals)...]
        }
        guard let label = fields["label"], let pid = fields["pid"].flatMap({ Int32($0) }),
            let state = fields["state"].flatMap({ TimerState(rawValue: String($0)) }),
            let remaining = fields["remaining_ns"].flatMap({ Int64($0) }), remaining >= 0
        else { return nil }
        var deadline: Int64?
        if let text = fields["deadline_ms"] {
            guard let milliseconds = Int64(text), (0...Self.deadlineLimit).contains(milliseconds) else { return nil }
            deadline = milliseconds
        }
        self.init(
            label: String(label), pid: pid, state: state, remaining: .nanoseconds(remaining),
            deadlineUnixMilliseconds: deadline, at: fields["at"].map(String.init),
            every: fields["every"].map(String.init), clockUnsynchronised: fields["clock"] == "unsynchronised",
            detached: fields["terminal"] == "detached")
    }
}

extension Duration {
    /// Whole nanoseconds, rounded down.
    fileprivate var nanosecondsValue: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
