import ControlChannel
import Glibc
import HouseBus
import HouseLink
import SystemKit
import TerminalUI
import TimerCore
import TimerEngine
import TimerModel
import TimerText

/// A short-lived broker client for `eggtimer status|ack|cancel|snooze --mqtt`: it collects every
/// timer's retained state and publishes one command.
///
/// Blocks the calling (main) thread in an ``EventLoop`` with the client as its one source, each
/// call up to the deadline it is given. The broker failing (refused, unreachable, no answer) ends
/// the command with exit 69 and one line.
struct HouseSurvey {
    private let client: BusClient
    /// Waits for the client (its only source).
    private var loop: EventLoop
    private let options: BusOptions
    /// The wall clock that judges whether a state is stale.
    private let clock: HouseClock
    /// What was collected and what it means (the decisions; this type carries out its effects).
    private var tally: SurveyTally

    /// Makes the client and starts connecting.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - clock: The wall clock that judges staleness (``HouseClock/system``).
    /// - Throws: `ExitStatus` (64 for a bad URL or password file, 69 without libmosquitto), said.
    init(options: BusOptions, clock: HouseClock = .system) throws(ExitStatus) {
        self.options = options
        self.clock = clock
        let random = UInt32.random(in: 0...UInt32.max)
        let probe = "\(options.prefix)/probe/\(getpid())-\(random)"
        tally = SurveyTally(prefix: options.prefix, probe: probe)
        let client = try BusLink.connect(options, clientName: "client", will: nil)
        client.subscribe("\(options.prefix)/+/+/state", qos: 1)
        client.subscribe("\(options.prefix)/+/+/availability", qos: 1)
        client.subscribe(probe, qos: 1)
        client.start(at: .now)
        self.client = client
        loop = EventLoop(clock: MonotonicClock())
        loop.add(client)
    }

    /// Disconnects (waiting at most ``BusLink/finishLimit``).
    func close() {
        client.finish(publishing: [], limit: BusLink.finishLimit)
        loop.close()
    }

    /// Every timer's state, sorted by node and label (final states left out).
    ///
    /// A timer whose availability is `offline` (its process died: the retained state it left is
    /// stale) has the state `offline`; one whose state is stale (``WallReading/isStale(_:)``) the
    /// state `stale`.
    /// - Parameter end: The deadline (boot clock).
    /// - Returns: The states collected once the probe came back.
    /// - Throws: `ExitStatus.unavailable` when the broker fails or the deadline passes (said).
    mutating func collect(until end: ContinuousClock.Instant) throws(ExitStatus) -> [TimerStatePayload] {
        try pump(until: end) { $0.tally.probed }
        return Self.listed(tally.timers, offline: tally.offline, wall: clock.reading())
    }

    /// The states to list, sorted by `node/label`: final ones left out, an `offline` one's state
    /// `offline`, a stale one's `stale` (judged on `clock`).
    /// - Parameters:
    ///   - timers: The states collected, by `node/label`.
    ///   - offline: The keys whose availability is `offline`.
    ///   - clock: The reader's wall clock and whether it is synchronised.
    /// - Returns: The states, in order.
    static func listed(_ timers: [String: TimerStatePayload], offline: Set<String>, clock: HouseClock)
        -> [TimerStatePayload]
    {
        listed(timers, offline: offline, wall: clock.reading())
    }

    /// The states to list, sorted by `node/label`: final ones left out, an `offline` one's state
    /// `offline`, a stale one's `stale` (judged at `wall`).
    /// - Parameters:
    ///   - timers: The states collected, by `node/label`.
    ///   - offline: The keys whose availability is `offline`.
    ///   - wall: The reader's wall clock and whether it was synchronised, read once.
    /// - Returns: The states, in order.
    static func listed(_ timers: [String: TimerStatePayload], offline: Set<String>, wall: WallReading)
        -> [TimerStatePayload]
    {
        timers.keys.sorted().compactMap { key in
            guard var timer = timers[key], !BusLink.isFinal(timer.state) else { return nil }
            if offline.contains(key) {
                timer.state = "offline"
            } else if wall.isStale(timer) {
                timer.state = "stale"
            }
            return timer
        }
    }

    /// Publishes `message` and waits until the broker acknowledged it (QoS 1).
    /// - Throws: `ExitStatus.unavailable` as ``collect(until:)``.
    mutating func publish(_ message: BusMessage, until end: ContinuousClock.Instant) throws(ExitStatus) {
        guard let id = client.publish(message) else {
            printError("eggtimer: MQTT: the command could not be sent")
            throw .unavailable
        }
        tally.awaiting(id)
        try pump(until: end) { $0.tally.awaited.isEmpty }
    }

    /// Services the client until `done` holds.
    private mutating func pump(until end: ContinuousClock.Instant, _ done: (Self) -> Bool) throws(ExitStatus) {
        while !done(self) {
            let now = ContinuousClock.now
            guard now < end else {
                printError(
                    "eggtimer: MQTT: broker \(options.url ?? "") did not answer within \(HouseCommands.deadline)")
                throw .unavailable
            }
            for case .bus(let event) in try loop.wait(until: end) { try handle(event) }
        }
    }

    /// One report of the client, through the tally; its effects carried out.
    private mutating func handle(_ event: BusEvent) throws(ExitStatus) {
        for effect in tally.handle(event) {
            switch effect {
            case .publish(let message): client.publish(message)
            case .fail(let line):
                printError("eggtimer: \(line)")
                throw .unavailable
            }
        }
    }

    /// The timer `ack|cancel|snooze` acts on.
    ///
    /// `NODE/LABEL`: that timer. `LABEL`: the one timer of that label on any node. None given:
    /// for `ack` and `snooze` the only ringing (or silent) timer; for `cancel` the only timer, else
    /// the only ringing one.
    /// - Parameters:
    ///   - timers: The timers collected.
    ///   - target: `NODE/LABEL`, `LABEL` or nil.
    ///   - verb: The subcommand, for messages.
    /// - Returns: The chosen timer's state.
    /// - Throws: `ControlFailure`: ``ExitStatus/noTimer`` when none fits, the one chosen is
    ///   `offline`, or `ack`/`snooze` names one that is not ringing; ``ExitStatus/usage`` listing
    ///   the candidates when several fit.
    static func target(among timers: [TimerStatePayload], target: String?, verb: String) throws(ControlFailure)
        -> TimerStatePayload
    {
        let ringing = timers.filter { $0.timerState?.isRinging == true }
        // `cancel`, `pause`, `resume` and `add` act on a timer in any state; `ack` and `snooze` on a ringing one.
        let anyState = verb != "ack" && verb != "snooze"
        let candidates: [TimerStatePayload]
        if let target {
            let parts = target.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            candidates = timers.filter {
                parts.count == 2
                    ? ($0.node == parts[0] && LabelRule.same($0.label, parts[1])) : LabelRule.same($0.label, parts[0])
            }
            guard !candidates.isEmpty else {
                throw ControlFailure(status: .noTimer, message: "no timer '\(target)' on the MQTT broker")
            }
        } else if anyState {
            candidates = timers.count == 1 || ringing.count != 1 ? timers : ringing
        } else {
            candidates = ringing
        }
        if candidates.count == 1 { return try fitting(candidates[0], named: target != nil, verb: verb) }
        guard !candidates.isEmpty else {
            let what = anyState ? "no timers running" : "no timer is ringing"
            throw ControlFailure(status: .noTimer, message: "\(what) on the MQTT broker")
        }
        let list = candidates.map { "\($0.node)/\($0.label) (\($0.state))".escapingControlCharacters }
            .joined(separator: ", ")
        throw ControlFailure(
            status: .usage, message: "\(candidates.count) timers fit: \(list); name one: eggtimer \(verb) NODE/LABEL")
    }

    /// The timers on the broker `ack --all` or `cancel --all` reach: those whose state
    /// ``TimerSelection/fits(_:_:)`` the command, never an `offline` or `stale` one.
    /// - Parameters:
    ///   - timers: The retained states, in order.
    ///   - command: ``Command/acknowledge`` or ``Command/cancel``.
    /// - Returns: Those that fit, in order; never empty.
    /// - Throws: `ControlFailure` with ``ExitStatus/noTimer`` when none fits.
    static func all(among timers: [TimerStatePayload], for command: Command) throws(ControlFailure)
        -> [TimerStatePayload]
    {
        let fitting = timers.filter { $0.timerState.map { TimerSelection.fits($0, command) } ?? false }
        guard fitting.isEmpty else { return fitting }
        let what = command == .acknowledge ? "no timer is ringing or snoozed" : "no timers running"
        throw ControlFailure(status: .noTimer, message: "\(what) on the MQTT broker")
    }

    /// `timer` when `verb` can act on it: not for an `offline` or `stale` one (its process is
    /// gone or cut off, nothing would answer), and `ack`/`snooze` on a named timer only while it rings (`ack` also while
    /// snoozed), in the local command's words.
    /// - Throws: `ControlFailure` with ``ExitStatus/noTimer`` otherwise.
    private static func fitting(_ timer: TimerStatePayload, named: Bool, verb: String) throws(ControlFailure)
        -> TimerStatePayload
    {
        if timer.state == "offline" {
            throw ControlFailure(
                status: .noTimer, message: "\("\(timer.node)/\(timer.label)".escapingControlCharacters) is offline")
        }
        if timer.state == "stale" {
            let name = "\(timer.node)/\(timer.label)".escapingControlCharacters
            throw ControlFailure(
                status: .noTimer,
                message: "\(name) is stale: its state was not refreshed for \(TimerStatePayload.staleIntervals) of its "
                    + "intervals (its timer is gone or cannot reach the broker)")
        }
        let rings = timer.timerState.map { $0.isRinging || (verb == "ack" && $0 == .snoozed) } ?? false
        if named, verb == "ack" || verb == "snooze", !rings {
            let name = timer.label.escapingControlCharacters
            throw ControlFailure(
                status: .noTimer, message: "\(name) is \(timer.state.escapingControlCharacters), not ringing")
        }
        return timer
    }

    /// The table for people: TIMER (`node/label`), STATE, REMAINING, RINGS AT; or
    /// ``StatusReport/noneRunning``.
    /// - Parameters:
    ///   - timers: The timers, in order.
    ///   - time: Local wall-clock time for the deadlines.
    ///   - nowUnixMilliseconds: The wall clock now, for the time left of a running countdown.
    /// - Returns: The lines, each ending in a newline.
    static func table(_ timers: [TimerStatePayload], time: LocalTime, nowUnixMilliseconds: Int64) -> String {
        guard !timers.isEmpty else { return StatusReport.noneRunning + "\n" }
        let rows =
            [["TIMER", "STATE", "REMAINING", "RINGS AT"]]
            + timers.map { timer in
                let left = remaining(timer, nowUnixMilliseconds: nowUnixMilliseconds)
                return [
                    "\(timer.node)/\(timer.label)".escapingControlCharacters, timer.state.escapingControlCharacters,
                    left.clockText, timer.deadlineUnixMilliseconds.map { time.clockText(unixMilliseconds: $0) } ?? "-",
                ]
            }
        let widths = (0..<4).map { column in rows.map { $0[column].displayWidth }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { column in
                let pad = String(repeating: " ", count: widths[column] - row[column].displayWidth)
                return column == 2 ? pad + row[column] : column == 3 ? row[column] : row[column] + pad
            }.joined(separator: "  ") + "\n"
        }.joined()
    }

    /// The time left of `timer` now: from its deadline while it runs (`counting`, `snoozed`) or
    /// is `offline` or `stale` with one (its process died; the retained `remaining_s` is from before, up to a
    /// minute old while it ran); else its `remaining_s`.
    /// - Parameters:
    ///   - timer: A retained state.
    ///   - nowUnixMilliseconds: The wall clock now.
    /// - Returns: The time left, at least zero.
    static func remaining(_ timer: TimerStatePayload, nowUnixMilliseconds: Int64) -> Duration {
        if ["counting", "snoozed", "offline", "stale"].contains(timer.state),
            let deadline = timer.deadlineUnixMilliseconds
        {
            return .milliseconds(max(0, deadline - nowUnixMilliseconds))
        }
        return .milliseconds(Int64((timer.remainingSeconds * 1000).rounded()))
    }

    /// The states with `remaining_s` recomputed by ``remaining(_:nowUnixMilliseconds:)``, as
    /// the table shows them (for `status --mqtt --json`).
    static func refreshed(_ timers: [TimerStatePayload], nowUnixMilliseconds: Int64) -> [TimerStatePayload] {
        timers.map { timer in
            var timer = timer
            timer.remainingSeconds = remaining(timer, nowUnixMilliseconds: nowUnixMilliseconds) / .seconds(1)
            return timer
        }
    }
}
