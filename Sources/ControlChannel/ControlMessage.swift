import TextCoding
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
/// - `eggtimer/3` adds `start TEXT` (``start(_:)``), for the kitchen's socket only: a start request
///   as a shell's `eggtimer start` words it (a preset or a duration and a label), which the kitchen
///   parses again; a timer answers it with an error line. And for the kitchen's web pairing
///   (``pair``, ``unpair``): a new pairing code, and forgetting every paired device; each
///   answered at once with one line.
/// - `eggtimer/4` names the front a command came through: every verb of versions 1 and 2, then
///   TAB `by=ORIGIN` last (one of ``Origin/named``: `shell`, `http`, `keypad`, `voice`, `mqtt`),
///   which the timer's log says as its `by` field. A timer of an older version answers such a
///   line with `error<TAB>not a request of eggtimer/1` (``isOlderTimerRefusal(_:)``); the client
///   then sends the same command without its origin (``withoutOrigin``), which that timer logs
///   as `by: control`.
public enum ControlRequest: Equatable, Sendable {
    /// A ``Command`` for the timer: `status`, `ack`, `cancel`, `snooze [SECONDS]` (version 1),
    /// `pause`, `resume`, `add SECONDS` (version 2); with the front it came through (version 4),
    /// or nil (the lowest version that has the verb).
    case command(Command, by: Origin? = nil)
    /// Receive every new status until the timer ends (protocol version 2).
    case watch
    /// Start a timer (protocol version 3, the kitchen's socket): the request's text, one line of
    /// at most ``startTextLimit`` bytes without a tab or a control character, not parsed here,
    /// and the id its asker chose (issue 42: `TAB id=ID` last; a repeat of it is answered as the
    /// first was), or nil.
    case start(String, id: RequestID? = nil)
    /// Make a new pairing code for the kitchen's web API (protocol version 3, the kitchen's socket):
    /// `eggtimer/3<TAB>pair`, answered `ok<TAB>code=123456<TAB>seconds=600<TAB>tries=5`.
    case pair
    /// Forget every paired web device (protocol version 3, the kitchen's socket):
    /// `eggtimer/3<TAB>unpair`, answered `ok<TAB>unpaired=N`.
    case unpair

    /// The protocol's name and first version, the first word of version 1's requests.
    public static let protocolName = "eggtimer/1"
    /// The first word of version 2's requests.
    public static let secondVersion = "eggtimer/2"
    /// The `watch` request: `eggtimer/2<TAB>watch`.
    public static let watchLine = secondVersion + "\twatch"
    /// The first word of version 3's requests.
    public static let thirdVersion = "eggtimer/3"
    /// The first word of version 4's requests (a command with its origin).
    public static let fourthVersion = "eggtimer/4"
    /// The line every timer answers a request with that it cannot parse: an older timer's answer
    /// to a newer version's request.
    public static let olderTimerRefusal = "error\tnot a request of \(protocolName)"
    /// The longest text a `start` request carries, in bytes (the start parser's own limit).
    public static let startTextLimit = 160

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
        case .command(let command, let origin):
            let words = command.verb + (command.seconds.map { "\t\($0)" } ?? "")
            return origin.map { Self.fourthVersion + "\t" + words + "\tby=" + $0.rawValue }
                ?? Self.version(of: command) + "\t" + words
        case .watch: return Self.watchLine
        case .start(let text, let id): return Self.thirdVersion + "\tstart\t" + text + (id.map { "\tid=\($0)" } ?? "")
        case .pair: return Self.thirdVersion + "\tpair"
        case .unpair: return Self.thirdVersion + "\tunpair"
        }
    }

    /// The same request without the front it came through: for a timer older than version 4.
    public var withoutOrigin: ControlRequest {
        guard case .command(let command, _?) = self else { return self }
        return .command(command)
    }

    /// Whether `reply` is a timer's answer to a request of a version newer than its own.
    /// - Parameter reply: The reply line, without its newline.
    /// - Returns: Whether it is ``olderTimerRefusal``.
    public static func isOlderTimerRefusal(_ reply: String) -> Bool { reply == olderTimerRefusal }

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
        if line == Self.thirdVersion + "\tpair" || line == Self.thirdVersion + "\tunpair" {
            self = line.hasSuffix("\tpair") ? .pair : .unpair
            return
        }
        var words = line.split(separator: "\t", omittingEmptySubsequences: false)
        var origin: Origin?
        if words.first == Substring(Self.fourthVersion) {
            guard words.count >= 3, let last = words.last, last.hasPrefix("by="),
                let named = Origin(rawValue: String(last.dropFirst(3))), Origin.named.contains(named)
            else { return nil }
            origin = named
            words.removeLast()
        }
        if origin == nil, words.count == 3 || words.count == 4, words[0] == Self.thirdVersion, words[1] == "start" {
            let text = words[2]
            guard !text.isEmpty, text.utf8.count <= Self.startTextLimit,
                !text.unicodeScalars.contains(where: { $0.isControlCharacter })
            else { return nil }
            var id: RequestID?
            if words.count == 4 {
                guard words[3].hasPrefix("id="), let given = RequestID(words[3].dropFirst(3)) else { return nil }
                id = given
            }
            self = .start(String(text), id: id)
            return
        }
        guard words.count >= 2, origin != nil || words[0] == Self.protocolName || words[0] == Self.secondVersion
        else { return nil }
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
        // Each verb under the lowest version that has it, and only there; or under version 4, with its origin.
        guard case .command(let command, _) = self else { return nil }
        if let origin {
            self = .command(command, by: origin)
        } else if words[0] != Self.version(of: command) {
            return nil
        }
    }
}
