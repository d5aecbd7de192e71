package import ControlChannel
package import HouseBus
import SystemKit
import TextCoding
package import TimerCore
import TimerModel

// The JSON of the kitchen's HTTP API (the man page's HTTP API section): the picture of
// `GET /api/timers` and of each event, one timer's object, and the session's answers. Strings go
// through HouseBus's JSONValue, written by TextCoding's JSONText: labels and node names are data,
// never markup.

extension KitchenAPI {
    /// The state words the API lists in `states`: every ``TimerState``, in its order.
    package static let stateWords = TimerState.allCases.map(\.rawValue)

    /// The kinds a timer object's `kind` may say.
    static let kindWords = TimerSnapshot.Kind.words

    /// A JSON object of `members`, in order, as UTF-8 text.
    package static func object(_ members: [(String, JSONValue)]) -> [UInt8] {
        JSONValue.object(members.map { JSONMember($0.0, $0.1) }).json()
    }

    /// `duration` in seconds, rounded to the millisecond toward zero (`312.5`).
    static func seconds(_ duration: Duration) -> JSONValue {
        let (whole, attoseconds) = duration.components
        let milliseconds = whole * 1000 + attoseconds / 1_000_000_000_000_000
        return .number(Double(milliseconds) / 1000)
    }

    /// One timer's object: `node`, `label`, `state`, `remaining_s`, `duration_s` (or null),
    /// `deadline` (UTC ISO 8601 with milliseconds, or null), `kind`, `preset`, `phase` (each a
    /// string or null), `device` (`ok` or `down`), `silent` (why the alarm reaches no device,
    /// once over why it rang unheard: `cannot open audio device 'X': REASON`; null when it does or
    /// nothing says) and `local`.
    package static func value(_ timer: WebTimer) -> JSONValue {
        func text(_ string: String?) -> JSONValue { string.map(JSONValue.string) ?? .null }
        return .object([
            JSONMember("node", .string(timer.node)),
            JSONMember("label", .string(timer.label)),
            JSONMember("state", .string(timer.state.rawValue)),
            JSONMember("remaining_s", seconds(max(.zero, timer.remaining))),
            JSONMember("duration_s", timer.total.map(seconds) ?? .null),
            JSONMember(
                "deadline", text(timer.deadlineUnixMilliseconds.map { UTCTimestamp.text(unixMilliseconds: $0) })),
            JSONMember("kind", text(timer.kind?.word)),
            JSONMember("preset", text(timer.kind?.preset)),
            JSONMember("phase", text(timer.kind?.phase)),
            JSONMember("device", .string(timer.deviceDown ? "down" : "ok")),
            JSONMember("silent", text(timer.silentReason)),
            JSONMember("local", .bool(timer.isLocal)),
        ])
    }

    /// The answer to `POST /api/ack-all`: `acknowledged` (how many were acknowledged or asked),
    /// `stopped` and `silent` (arrays of labels) and `message` (a string or null).
    /// - Parameters:
    ///   - count: How many timers were acknowledged or asked.
    ///   - stopped: The labels of this box's timers stopped.
    ///   - silent: The labels of those of them whose alarm never reached a speaker.
    ///   - message: The kitchen's sentence for them (`Soft and Pasta stopped; Pasta never reached
    ///     its speaker`), or nil when none of this box's was stopped.
    /// - Returns: The JSON object as UTF-8 text.
    package static func acknowledged(_ count: Int, stopped: [String], silent: [String], message: String?) -> [UInt8] {
        object([
            ("acknowledged", .number(Double(count))),
            ("stopped", .array(stopped.map(JSONValue.string))),
            ("silent", .array(silent.map(JSONValue.string))),
            ("message", message.map(JSONValue.string) ?? .null),
        ])
    }

    /// The most bytes one house timer's object (``value(_:)``) takes in the picture's JSON (issue 43).
    ///
    /// Each part at its largest: `node` and `label` 64 bytes each (``canShow(houseName:)``, the
    /// only ones the kitchen admits to its house picture), each written in at most 128: JSON
    /// (`JSONText`) writes `"` and `\` in two bytes and U+2028 and U+2029 (three) in six, and no
    /// admitted character in more than twice its bytes (`<`, `>` and `&` as they are; a control
    /// character, one byte in six, is not admitted); `state` `cancelled`, `remaining_s` and
    /// `duration_s` 14 characters each (`9999999999.999`: a state's
    /// `TimerStatePayload.secondsLimit`, in milliseconds), `deadline` 24 (a four-digit year, all
    /// the payload's parser takes), `kind`, `preset` and `phase` null, `device` `down`, `silent`
    /// ``WebTimer/silentLimit`` bytes each escaped in two (`"`), `local` false. A test builds
    /// that row from the worst characters and measures it; the man page's HTTP API section gives
    /// the number.
    package static let houseRowBytes = 730

    /// Whether a house timer's node or label can be shown in the picture: 1 to
    /// `LabelRule.limit` (64) bytes of UTF-8 without a control character (C0, DEL, C1).
    ///
    /// The house's timers come from other nodes (their retained MQTT states), whose names this
    /// kitchen does not choose, so this is not the label rule: any other character is data,
    /// shown as text (markup such as `<b>`, quotes, backslashes, `/`, spaces anywhere, any
    /// script). A name is a `String`, so its UTF-8 is valid: a topic level whose escaped bytes are
    /// not UTF-8 names no timer (`TimerTopics.name(ofLevel:)`). The bound in bytes bounds the
    /// row (``houseRowBytes``). Pure.
    /// - Parameter name: A house timer's node or label, as its topic names it.
    /// - Returns: Whether the picture may hold a timer so named.
    /// - Complexity: O(n) in the length of `name`.
    package static func canShow(houseName name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= LabelRule.limit && !name.containsControlCharacters
    }

    /// One timer's object as UTF-8 text (a start's 201, an action's 200).
    package static func json(_ timer: WebTimer) -> [UInt8] { value(timer).json() }

    /// The picture: `node`, `states` (``stateWords``), `presets` (`name`, `seconds`) and
    /// `timers` (each as ``value(_:)``), UTF-8.
    package static func json(_ picture: WebPicture) -> [UInt8] {
        JSONValue.object([
            JSONMember("node", .string(picture.node)),
            JSONMember("states", .array(stateWords.map(JSONValue.string))),
            JSONMember(
                "presets",
                .array(
                    picture.presets.map {
                        .object([
                            JSONMember("name", .string($0.name)), JSONMember("seconds", .number(Double($0.seconds))),
                        ])
                    })),
            JSONMember("timers", .array(picture.timers.map(value))),
        ]).json()
    }

    /// This box's timer of `status` on node `node`, as the API shows it (`local: true`).
    package static func timer(_ status: TimerStatus, node: String) -> WebTimer {
        WebTimer(
            node: node, label: status.label, state: status.state, remaining: status.remaining, total: status.total,
            deadlineUnixMilliseconds: status.deadlineUnixMilliseconds, kind: status.kind, deviceDown: status.deviceDown,
            isLocal: true, silentReason: shortReason(status.silentReason))
    }

    /// A `silent` reason as the picture carries it, cut short.
    ///
    /// Control characters become spaces, and a reason longer than ``WebTimer/silentLimit``
    /// bytes of UTF-8 is cut at a character boundary to end in `…` within them. Pure.
    /// - Parameter reason: Why an alarm reaches no device, from a status line or an MQTT state.
    /// - Returns: The reason, or nil for nil.
    /// - Complexity: O(n) in the length of `reason`.
    package static func shortReason(_ reason: String?) -> String? {
        guard let reason else { return nil }
        let line = reason.controlCharactersAsSpaces
        guard line.utf8.count > WebTimer.silentLimit else { return line }
        let ellipsis = "\u{2026}"
        var kept = ""
        for character in line {
            let bytes = character.utf8.count
            guard kept.utf8.count + bytes + ellipsis.utf8.count <= WebTimer.silentLimit else { break }
            kept.append(character)
        }
        return kept + ellipsis
    }

    /// `timer` with its time left as of `now`.
    ///
    /// ``TimerState/timeLeft(remaining:deadlineUnixMilliseconds:atWall:)``: a GET, or the page
    /// without JavaScript, would otherwise show the start's time for ever. Pure.
    /// - Parameters:
    ///   - timer: The timer as its status gave it.
    ///   - now: The wall clock now, Unix milliseconds (the deadlines' clock).
    /// - Returns: The timer with its `remaining` as of `now`.
    package static func timeLeft(of timer: WebTimer, atWall now: Int64) -> WebTimer {
        var updated = timer
        updated.remaining = timer.state.timeLeft(
            remaining: timer.remaining, deadlineUnixMilliseconds: timer.deadlineUnixMilliseconds, atWall: now)
        return updated
    }

    /// Another node's timer from its retained MQTT state (`local: false`); nil for a state word
    /// outside the vocabulary (a newer eggtimer's) or the menu.
    package static func timer(_ payload: TimerStatePayload) -> WebTimer? {
        guard let state = payload.timerState, state != .menu else { return nil }
        let limit = TimerStatePayload.secondsLimit
        func duration(_ seconds: Double) -> Duration {
            .milliseconds(Int64((min(max(seconds, 0), limit) * 1000).rounded()))
        }
        return WebTimer(
            node: payload.node, label: payload.label, state: state, remaining: duration(payload.remainingSeconds),
            total: duration(payload.durationSeconds), deadlineUnixMilliseconds: payload.deadlineUnixMilliseconds,
            kind: nil, deviceDown: state == .silent || payload.silent != nil, isLocal: false,
            silentReason: shortReason(payload.silent))
    }

    /// The picture of `node`: `presets` in their order, this box's `local` timers then the house's
    /// `house` timers, each part sorted by node, then label.
    package static func picture(node: String, presets: [Preset], local: [WebTimer], house: [WebTimer]) -> WebPicture {
        func sorted(_ timers: [WebTimer]) -> [WebTimer] {
            timers.sorted { ($0.node, $0.label) < ($1.node, $1.label) }
        }
        return WebPicture(
            node: node, presets: presets.map { .init(name: $0.name, seconds: $0.duration.components.seconds) },
            timers: sorted(local) + sorted(house))
    }
}
