public import TimerModel

/// The control protocol's messages: one request line from a client, one reply line from the timer.
///
/// Lines are tab-separated words; the first word of a request is the protocol's name and version,
/// so a future change is recognised instead of misread.
///
/// Request: `eggtimer/1<TAB>verb[<TAB>argument]`. Reply: `ok<TAB>key=value…` or `error<TAB>text`.
///
/// Versions: a request names the lowest version that has its verb, so every timer that has the
/// verb answers it the same way.
/// - `eggtimer/1`: `status`, `ack`, `cancel`, `snooze [SECONDS]`; one request, one reply line, then
///   the timer closes the connection. A timer answers every request it cannot parse with
///   `error<TAB>not a request of eggtimer/1`.
/// - `eggtimer/2` adds `pause`, `resume` and `add SECONDS` (answered as version 1's verbs are), and
///   `watch` (``watchLine``): the connection stays open and the timer sends its
///   status line (``TimerStatus/line``) at once, then one for every new status (anything but the
///   time left changed), the last one with the final state, and closes when it exits; or one
///   `error<TAB>text` line when it keeps as many watchers as it can. A timer of version 1 answers
///   version 2's requests with its error line; for `watch`, which ``ControlClient/watch(label:folder:timeout:)`` turns into
///   ``ControlError/olderTimer(path:)``.
public enum ControlRequest: Equatable, Sendable {
    /// A ``Command`` for the timer: `status`, `ack`, `cancel`, `snooze [SECONDS]` (version 1),
    /// `pause`, `resume`, `add SECONDS` (version 2).
    case command(Command)
    /// Receive every new status until the timer ends (protocol version 2).
    case watch

    /// The protocol's name and first version, the first word of version 1's requests.
    public static let protocolName = "eggtimer/1"
    /// The first word of version 2's requests.
    public static let secondVersion = "eggtimer/2"
    /// The `watch` request: `eggtimer/2<TAB>watch`.
    public static let watchLine = secondVersion + "\twatch"

    /// The lowest version that has `command`'s verb, as the request's first word.
    public static func version(of command: Command) -> String {
        switch command {
        case .status, .acknowledge, .cancel, .snooze: protocolName
        case .pause, .resume, .add: secondVersion
        }
    }

    /// The request for the timer's status (`eggtimer/1<TAB>status`).
    public static let status = ControlRequest.command(.status)

    /// The request as one line: the verb, then its whole seconds (rounded toward zero) if any.
    public var line: String {
        switch self {
        case .command(let command):
            Self.version(of: command) + "\t" + command.verb + (command.seconds.map { "\t\($0)" } ?? "")
        case .watch: Self.watchLine
        }
    }

    /// Parses a request line; nil for anything that is not a well-formed request of this version.
    ///
    /// `snooze` takes 1 to 999 × 3600 seconds (``Command/snoozeLimit``), `add` -86400 to 86400
    /// (``Command/addLimit``), not 0. Pure; any thread.
    /// - Parameter line: The line, without its newline.
    public init?(line: String) {
        if line == Self.watchLine {
            self = .watch
            return
        }
        let words = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard words.count >= 2, words[0] == Self.protocolName || words[0] == Self.secondVersion else { return nil }
        let limits = (snooze: Command.snoozeLimit.components.seconds, add: Command.addLimit.components.seconds)
        switch (words[1], words.count) {
        case ("status", 2): self = .command(.status)
        case ("ack", 2): self = .command(.acknowledge)
        case ("cancel", 2): self = .command(.cancel)
        case ("snooze", 2): self = .command(.snooze(nil))
        case ("snooze", 3):
            guard let seconds = Int64(words[2]), seconds > 0, seconds <= limits.snooze else { return nil }
            self = .command(.snooze(.seconds(seconds)))
        case ("pause", 2): self = .command(.pause)
        case ("resume", 2): self = .command(.resume)
        case ("add", 3):
            // A range check, not `abs`: `abs(Int64.min)` traps.
            guard let seconds = Int64(words[2]), seconds != 0, (-limits.add...limits.add).contains(seconds) else {
                return nil
            }
            self = .command(.add(.seconds(seconds)))
        default: return nil
        }
        // Each verb under the lowest version that has it, and only there.
        guard case .command(let command) = self, words[0] == Self.version(of: command) else { return nil }
    }
}

/// What a timer says about itself in a reply: `key=value` fields.
public struct TimerStatus: Equatable, Sendable {
    /// The timer's label.
    public var label: String
    /// Its process id.
    public var pid: Int32
    /// Its state, in the shared vocabulary (`counting`, `paused`, `ringing`, `silent`, `snoozed`, …).
    public var state: String
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
        label: String, pid: Int32, state: String, remaining: Duration, deadlineUnixMilliseconds: Int64?,
        at: String? = nil, every: String? = nil, clockUnsynchronised: Bool = false, detached: Bool = false
    ) {
        (self.label, self.pid, self.state) = (label, pid, state)
        (self.remaining, self.deadlineUnixMilliseconds) = (remaining, deadlineUnixMilliseconds)
        (self.at, self.every, self.clockUnsynchronised) = (at, every, clockUnsynchronised)
        self.detached = detached
    }

    /// The reply line: `ok` and the fields.
    public var line: String {
        var fields = [
            "ok", "label=\(label)", "pid=\(pid)", "state=\(state)", "remaining_ns=\(remaining.nanosecondsValue)",
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
    /// - Returns: nil unless it is an `ok` line with every required field, `remaining_ns` not
    ///   negative and `deadline_ms` (when given) in 0...``deadlineLimit``: the client does
    ///   calendar arithmetic on it, so a number from a stranger's socket is range-checked first.
    public init?(line: String) {
        let words = line.split(separator: "\t")
        guard words.first == "ok" else { return nil }
        var fields: [Substring: Substring] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else { return nil }
            fields[word[..<equals]] = word[word.index(after: equals)...]
        }
        guard let label = fields["label"], let pid = fields["pid"].flatMap({ Int32($0) }), let state = fields["state"],
            let remaining = fields["remaining_ns"].flatMap({ Int64($0) }), remaining >= 0
        else { return nil }
        var deadline: Int64?
        if let text = fields["deadline_ms"] {
            guard let milliseconds = Int64(text), (0...Self.deadlineLimit).contains(milliseconds) else { return nil }
            deadline = milliseconds
        }
        self.init(
            label: String(label), pid: pid, state: String(state), remaining: .nanoseconds(remaining),
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
