import TextCoding
public import TimerModel

/// A ``TimerSnapshot`` as the control socket's status line carries it: `key=value` fields.
///
/// The line is `ok<TAB>label=…<TAB>pid=…<TAB>state=…<TAB>remaining_ns=…` and then, when they
/// apply, `deadline_ms=…`, `at=…`, `every=…`, `clock=unsynchronised`, `terminal=detached` (the
/// keys of every eggtimer since the control socket came), then `total_ns=…`, `kind=…`,
/// `preset=…`, `phase=…` and `device=down` (added for the kitchen's HTTP API: an older timer
/// omits them and an older client ignores them), then `silent=REASON` beside `device=down` (issue
/// 37: why the alarm reaches no device; once the timer is over, why it rang unheard), then
/// `ended=SIGTERM` in a last status (issue 41: the signal that ended it). A timer makes one from its snapshot
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
    /// The countdown's whole length (the snooze's while snoozed); nil when the line does not say
    /// (an older timer, the menu).
    ///
    /// Field `total_ns`, whole nanoseconds, 0...``totalLimit``.
    public var total: Duration?
    /// What the timer is for, with an egg's preset name or a pomodoro's phase; nil in the menu or
    /// when the line does not say.
    ///
    /// Fields `kind=egg|plain|pomodoro|alarm`, `preset=` (an egg's), `phase=` (a pomodoro's).
    public var kind: TimerSnapshot.Kind?
    /// Whether the alarm reaches no device (the snapshot's device health is silent); field
    /// `device=down`.
    public var deviceDown = false
    /// Why the alarm reaches no device (once over: why it rang unheard).
    ///
    /// One line of at most ``reasonLimit`` bytes; nil when the device is not down or the line does not say (an older
    /// timer). Field `silent`.
    public var silentReason: String?
    /// The signal that ended the timer, by name (`SIGTERM`), in its last status; nil otherwise.
    ///
    /// Field `ended` (issue 41, so that the kitchen does not log a terminated timer as
    /// cancelled): `SIG` and 1–8 capital letters; an older timer omits it.
    public var endedBy: String?
    /// The id of the start that made the timer (the kitchen's `--request-id`); nil otherwise.
    ///
    /// Field `request` (issue 43: a start retried after the kitchen restarted finds its timer).
    public var requestID: RequestID?

    /// Creates a status.
    public init(
        label: String, pid: Int32, state: TimerState, remaining: Duration, deadlineUnixMilliseconds: Int64?,
        at: String? = nil, every: String? = nil, clockUnsynchronised: Bool = false, detached: Bool = false,
        total: Duration? = nil, kind: TimerSnapshot.Kind? = nil, deviceDown: Bool = false,
        silentReason: String? = nil, endedBy: String? = nil, requestID: RequestID? = nil
    ) {
        (self.label, self.pid, self.state) = (label, pid, state)
        (self.remaining, self.deadlineUnixMilliseconds) = (remaining, deadlineUnixMilliseconds)
        (self.at, self.every, self.clockUnsynchronised) = (at, every, clockUnsynchronised)
        (self.detached, self.total, self.kind, self.deviceDown) = (detached, total, kind, deviceDown)
        (self.silentReason, self.endedBy, self.requestID) = (silentReason, endedBy, requestID)
    }

    /// The status line's fields of `snapshot`.
    ///
    /// Its label, pid, state, time left, wall deadline, schedule, clock, terminal, length, kind
    /// and device health with its reason (the boot deadline stays off the line). The menu has no
    /// length or kind.
    public init(_ snapshot: TimerSnapshot) {
        let reason = snapshot.device.silentReason
        self.init(
            label: snapshot.label, pid: snapshot.pid, state: snapshot.state, remaining: snapshot.remaining,
            deadlineUnixMilliseconds: snapshot.deadlineUnixMilliseconds, at: snapshot.schedule?.at,
            every: snapshot.schedule?.every, clockUnsynchronised: snapshot.clockUnsynchronised,
            detached: snapshot.detached, total: snapshot.kind == nil ? nil : snapshot.total, kind: snapshot.kind,
            deviceDown: reason != nil, silentReason: reason.map(Self.fieldText(reason:)),
            endedBy: snapshot.endedBy.flatMap { Self.isSignalName($0[...]) ? $0 : nil },
            requestID: snapshot.requestID)
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
        if let total {
            let clamped = min(max(.zero, total), .nanoseconds(Self.totalLimit))
            fields.append("total_ns=\(clamped.nanosecondsValue)")
        }
        if let kind {
            fields.append("kind=\(kind.word)")
            if let preset = kind.preset, Self.isFieldText(preset) { fields.append("preset=\(preset)") }
            if let phase = kind.phase, Self.isFieldText(phase) { fields.append("phase=\(phase)") }
        }
        if deviceDown { fields.append("device=down") }
        if deviceDown, let silentReason { fields.append("silent=\(Self.fieldText(reason: silentReason))") }
        if let endedBy, Self.isSignalName(endedBy[...]) { fields.append("ended=\(endedBy)") }
        if let requestID { fields.append("request=\(requestID)") }
        return fields.joined(separator: "\t")
    }

    /// Whether `text` is a signal's name as the `ended` field carries it: `SIG` and 1–8 capital
    /// ASCII letters (`SIGTERM`).
    static func isSignalName(_ text: Substring) -> Bool {
        let letters = text.utf8.dropFirst(3)
        return text.hasPrefix("SIG") && (1...8).contains(letters.count)
            && letters.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// The longest `silent` reason a line carries, in bytes (a device name and alsa-lib's text fit
    /// many times over); a longer one is cut at a character boundary and ends in `…`.
    public static let reasonLimit = 400

    /// `reason` as a `silent` field's value: each control character (a tab would split the line,
    /// a newline end it) a space, at most ``reasonLimit`` bytes.
    static func fieldText(reason: String) -> String {
        let cleaned = reason.controlCharactersAsSpaces
        guard cleaned.utf8.count > reasonLimit else { return cleaned }
        var cut = ""
        for character in cleaned {
            guard cut.utf8.count + character.utf8.count <= reasonLimit - "…".utf8.count else { break }
            cut.append(character)
        }
        return cut + "…"
    }

    /// The longest `total_ns` a reply may carry: 100 years, in nanoseconds (a timer's is at most
    /// a few thousand hours; any `Duration` arithmetic on it stays far from overflow).
    public static let totalLimit: Int64 = 100 * 366 * 86_400 * 1_000_000_000
    /// The longest `preset` or `phase` value, in bytes.
    public static let nameLimit = 64

    /// Whether `text` can stand as a field's value.
    ///
    /// That is 1...``nameLimit`` bytes, no control character (a tab would split the line, a
    /// newline end it). A preset's name and a pomodoro's phase always are; anything else is left
    /// off the line rather than sent broken.
    static func isFieldText(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= nameLimit
            && !text.containsControlCharacters
    }

    /// ``isFieldText(_:)-(Substring)`` of a string.
    static func isFieldText(_ text: String) -> Bool { isFieldText(text[...]) }

    /// The kind of `fields` (`kind`, with `preset` or `phase`); nil without a `kind`, for a word
    /// outside the four (a newer eggtimer's), or for an egg without a valid `preset` or a
    /// pomodoro without a valid `phase`.
    private static func kind(of fields: [Substring: Substring]) -> TimerSnapshot.Kind? {
        func name(_ key: Substring) -> String? { fields[key].flatMap { isFieldText($0) ? String($0) : nil } }
        return fields["kind"].flatMap { TimerSnapshot.Kind(word: $0, preset: name("preset"), phase: name("phase")) }
    }

    /// The latest `deadline_ms` a reply may carry: 9999-12-31T23:59:59.999Z, in Unix milliseconds.
    public static let deadlineLimit: Int64 = 253_402_300_799_999

    /// Parses a reply line.
    /// - Returns: nil unless it is an `ok` line with every required field, `state` one of the
    ///   ``TimerState`` words, `remaining_ns` not negative and `deadline_ms` (when given) in
    ///   0...``deadlineLimit``: the client does calendar arithmetic on it, so a number from a
    ///   stranger's socket is range-checked first; likewise `total_ns` (when given) in
    ///   0...``totalLimit``. An unknown `kind` word is read as no kind, not as a bad line.
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
        var total: Duration?
        if let text = fields["total_ns"] {
            guard let nanoseconds = Int64(text), (0...Self.totalLimit).contains(nanoseconds) else { return nil }
            total = .nanoseconds(nanoseconds)
        }
        self.init(
            label: String(label), pid: pid, state: state, remaining: .nanoseconds(remaining),
            deadlineUnixMilliseconds: deadline, at: fields["at"].map(String.init),
            every: fields["every"].map(String.init), clockUnsynchronised: fields["clock"] == "unsynchronised",
            detached: fields["terminal"] == "detached", total: total, kind: Self.kind(of: fields),
            deviceDown: fields["device"] == "down",
            silentReason: fields["device"] == "down"
                ? fields["silent"].flatMap { $0.isEmpty ? nil : Self.fieldText(reason: String($0)) } : nil,
            endedBy: fields["ended"].flatMap { Self.isSignalName($0) ? String($0) : nil },
            requestID: fields["request"].flatMap { RequestID($0) })
    }
}

extension Duration {
    /// Whole nanoseconds, rounded down.
    fileprivate var nanosecondsValue: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
