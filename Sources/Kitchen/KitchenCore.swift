import ControlChannel
import Speech
import SystemKit
import TimerCore
import TimerEngine
import TimerModel
import TimerText
import WebServer

/// The kitchen's decisions as a pure reducer: start requests from any front, its timers'
/// statuses from their watches and its children's ends in, ``KitchenEffect``s out.
///
/// It counts no time itself and reads no clock: every instant is passed in (boot clock). It keeps
/// the picture of this user's running timers (``timers``: socket name → the latest status of its
/// watch), refuses a start over ``maxTimers`` or for a label already running, and answers each
/// start it let through once its timer runs (its watch's first status names the child's pid),
/// once the child exits first, or at ``startLimit``. Pure; owned by one thread.
package struct KitchenCore {
    /// Who asked for a start, and so who gets the answer.
    enum Origin: Equatable, Sendable {
        /// A shell's `eggtimer start`, on the kitchen's socket: the connection to answer on.
        case shell(connection: Int)
        /// An MQTT start payload (the kitchen's bus; nobody waits on a connection): its asker's
        /// id, which the answer on the result topic names (``NodeTopics/kitchenResult``).
        case bus(id: RequestID?)
        /// A keypad's digit (the kitchen's keys; the answer is only its log line).
        case keypad
        /// A spoken command (the kitchen's listener, issue 46; the answer is spoken and logged).
        case voice
        /// `POST /api/timers` (the kitchen's HTTP API): the suspended exchange to answer, and
        /// whether it was a form post (answered 303 to the page).
        case web(exchange: HTTPExchange, form: Bool)

        /// The front a timer's log names for a command from here (control protocol 4's `by`).
        var front: TimerModel.Origin {
            switch self {
            case .shell: .shell
            case .bus: .mqtt
            case .keypad: .keypad
            case .voice: .voice
            case .web: .http
            }
        }
    }

    /// How a start ended, as its origin is told.
    enum Outcome: Equatable, Sendable {
        /// The timer runs: its first status (label, pid, deadline, time left).
        case started(TimerStatus)
        /// Nothing (more) was started: why, in one line, and the exit status a shell ends with.
        case refused(Refusal)
    }

    /// Why a start was refused or failed: one line, its kind, and the label it was for.
    struct Refusal: Equatable, Sendable {
        /// What the line means for a shell's exit status.
        enum Kind: String, Equatable, Sendable, CaseIterable {
            /// The kitchen runs ``KitchenCore/maxTimers`` timers already (EX_TEMPFAIL, 75).
            case busy
            /// A bad request or a label in use, also one the timer itself refused (EX_USAGE, 64).
            case usage
            /// The timer did not come up in time (EX_UNAVAILABLE, 69).
            case unavailable
            /// The timer exited first for no reason a status names, or answered what no timer
            /// would (EX_SOFTWARE, 70).
            case failed
            /// The timer exited first over its configuration file (EX_CONFIG, 78), or the runtime
            /// folder is too deep for its socket.
            case configuration
            /// The timer exited first over its sound file: missing or unreadable (EX_NOINPUT, 66).
            case noInput
            /// The timer exited first over its sound file: no MPEG audio in it (EX_DATAERR, 65).
            case dataError
            /// The system refused what the start needs: a process, the runtime folder (EX_OSERR, 71).
            case system

            /// The kind of a refusal over the runtime folder (``RuntimeFolder/prepare(_:)``, a
            /// socket in it): ``configuration`` when it is too deep for a socket's path (78, as
            /// XDG_RUNTIME_DIR configures it), else ``system`` (71: unsafe, or refused).
            /// - Parameter error: What preparing the folder or binding in it threw.
            init(folder error: ControlError) {
                if case .pathTooLong = error { self = .configuration } else { self = .system }
            }

            /// The kind of a start whose timer exited before it ran with `status`: the timer's own
            /// status where it names a cause (64, 65, 66, 69, 71, 78), else ``failed``.
            /// - Parameter status: Its exit status, or 128 + the signal that ended it.
            init(exited status: Int32) {
                self =
                    Self.allCases.first { $0 != .busy && $0 != .failed && $0.exitStatus.code == status } ?? .failed
            }
        }

        /// The kind.
        var kind: Kind
        /// The line, without `eggtimer: ` (`tea: a timer with this label is running (pid 42)`).
        var text: String
        /// The label the timer would have had, `Soft-2` once numbered.
        ///
        /// nil when the request was not read far enough to have one. Not on the kitchen socket's
        /// reply line (``Outcome/line``).
        var label: String? = nil

        /// The refusal of a start whose timer `label` exited before it ran.
        /// - Parameters:
        ///   - label: The timer's label.
        ///   - status: Its exit status, or 128 + the signal that ended it.
        ///   - said: Its own error line, without `eggtimer: `; nil when it said none.
        ///   - log: Its log file.
        /// - Returns: `tea: not started: LINE` with the kind of `status`, or without a line
        ///   `tea: not started: eggtimer exited with status 70; see LOG`.
        static func exited(_ label: String, status: Int32, said: String?, log: String) -> Refusal {
            let why = said ?? "eggtimer exited with status \(status); see \(log)"
            return Refusal(kind: Kind(exited: status), text: "\(label): not started: \(why)", label: label)
        }
    }

    /// A start let through and not answered yet.
    struct Starting {
        let pid: Int32
        let origin: Origin
        let label: String
        let giveUp: ContinuousClock.Instant
        let log: String
        /// Its asker's id (``RequestID``), or nil.
        var id: RequestID? = nil
        /// Who asked again with the same id while it started: answered with it.
        var repeats: [Origin] = []
    }

    /// A start remembered by its asker's id (issue 42), so that a repeat gets the first answer.
    struct Remembered: Equatable {
        /// The request as it was asked (a repeat must ask the same).
        let request: StartRequest
        /// Its answer; nil while it starts.
        var outcome: Outcome?
        /// When it is forgotten (boot clock): ``idMemory`` after it was asked.
        let until: ContinuousClock.Instant
    }

    /// How many timers may run at once (running ones of this user, started here or not, and
    /// starts not answered yet), 1...``maxTimersLimit``.
    let maxTimers: Int
    /// The largest `--max-timers`.
    package static let maxTimersLimit = 99
    /// The presets a request may name (their names as the timer labels them: `Soft`).
    let presets: [Preset]
    /// The runtime folder the timers listen in (``RuntimeFolder/current()``): a start whose
    /// socket path would not fit there is refused (``ControlServer/unreachableReason(label:folder:)``).
    let socketFolder: String
    /// The kitchen's own name, which no timer it starts may take.
    static let ownLabel = BusOptions.kitchenLabel
    /// How long a started timer has to answer its watch before the start is given up.
    static let startLimit = Duration.seconds(5)

    /// Every running timer followed: its socket's name → its latest status.
    private(set) var timers: [String: TimerStatus] = [:]
    /// Starts let through and not answered, by socket name.
    var starting: [String: Starting] = [:]
    /// The starts asked with an id in the last ``idMemory``, by id (KitchenCore+Once.swift).
    var remembered: [RequestID: Remembered] = [:]
    /// How many times in a row each label's timer was recovered after dying by a signal.
    private var recoveries: [String: Int] = [:]
    /// The followed timers' socket names in the order the kitchen first saw them (the newest
    /// last): the keys of ``timers``, which ``status(socket:_:)`` and ``ended(socket:)`` keep alike.
    private var seenOrder: [String] = []
    /// The actions whose exchanges are not all in, by their number (KitchenCore+Actions.swift).
    var askings: [Int: Asking] = [:]
    /// The exchanges out, by their number.
    var exchanges: [Int: Exchange] = [:]
    /// The last number given to an exchange or an action.
    var numbered = 0
    /// The last status of each timer that ended over lately, the oldest first.
    ///
    /// Over is `done`, `cancelled` or `missed`; at most ``stoppedMemory`` are kept. A STOP that
    /// comes after its timer exited is answered with it (issue 43); a new timer of the label
    /// takes its place.
    private(set) var stopped: [TimerStatus] = []
    /// How many ended timers ``stopped`` keeps: 64.
    static let stoppedMemory = 64

    /// The followed timers' socket names, newest first (by when the kitchen first saw each).
    var newestFirst: [String] { seenOrder.reversed() }

    /// The last status of the timer labelled `label` when it ended over lately and no timer of
    /// the label is followed now (``stopped``); nil otherwise.
    func stoppedLately(_ label: String) -> TimerStatus? {
        guard !timers.values.contains(where: { LabelRule.same($0.label, label) }) else { return nil }
        return stopped.last { LabelRule.same($0.label, label) }
    }

    /// Whether an action on this box's timer `label` is the core's to decide: a timer of the
    /// label is followed, or ended over lately (a STOP then answers its state).
    func isLocal(label: String) -> Bool {
        timers.values.contains { LabelRule.same($0.label, label) } || stoppedLately(label) != nil
    }

    /// The latest status of the timer on `socket`: followed, or ended lately; nil otherwise.
    func lastStatus(socket: String) -> TimerStatus? {
        timers[socket] ?? stopped.last { ControlServer.socketName(for: $0.label) == socket }
    }

    /// Creates the core.
    /// - Parameters:
    ///   - maxTimers: 1...``maxTimersLimit``.
    ///   - presets: The egg presets (the config file's, `Preset.eggs` by default).
    ///   - socketFolder: The runtime folder the timers listen in.
    /// - Precondition: `maxTimers` is in range.
    init(maxTimers: Int, presets: [Preset] = Preset.eggs, socketFolder: String = "/run/user/1000/eggtimer") {
        precondition((1...Self.maxTimersLimit).contains(maxTimers), "max-timers out of range")
        (self.maxTimers, self.presets, self.socketFolder) = (maxTimers, presets, socketFolder)
    }

    /// The label a request's timer will have: its own, else the preset's name as the timer
    /// labels it (`Soft`).
    func label(of request: StartRequest) -> String {
        if let label = request.label { return label }
        switch request.length {
        case .preset(let name): return presets.first { $0.name.lowercased() == name }?.name ?? name
        case .duration(let duration): return StartRequest(length: .duration(duration)).arguments[0]
        }
    }

    /// Whether `label` is the one a request's timer has without asking for one.
    ///
    /// That is its preset's name (any case), or the text of its own length (`7m30s` or `450s`
    /// for 7:30). Such a label, when taken, is numbered (``numbered(_:isTaken:)``) instead of refused; a label the
    /// request chose (`pasta`) is refused.
    static func isDefault(_ label: String, of request: StartRequest) -> Bool {
        switch request.length {
        case .preset(let name): request.label == nil || label.lowercased() == name
        case .duration(let duration): (try? DurationParser.parse(label)) == duration
        }
    }

    /// The label of the next timer of a default label: `Soft-2`, `Soft-3`, the first free.
    /// - Parameters:
    ///   - label: The default label taken (`Soft`).
    ///   - isTaken: Whether a socket name (``ControlServer/socketName(for:)``) is in use.
    /// - Returns: The first of `label-2` … `label-100` (a spaced duration's words joined:
    ///   `5min-2`) whose socket name is not taken; nil when none is free or valid (a label near
    ///   64 bytes).
    static func numbered(_ label: String, isTaken: (String) -> Bool) -> String? {
        // A spaced duration is numbered as one word (`5 min` → `5min-2`): `5 min-2` would be a
        // label beginning with a number, which the start grammar refuses (issue 41).
        let base = (try? DurationParser.parse(label)) != nil ? label.split(separator: " ").joined() : label
        for number in 2...(Self.maxTimersLimit + 1) {
            let candidate = "\(base)-\(number)"
            guard LabelRule.isValid(candidate) else { return nil }
            if !isTaken(ControlServer.socketName(for: candidate)) { return candidate }
        }
        return nil
    }

    /// How many timers count against ``maxTimers`` now.
    var running: Int { timers.count + starting.keys.filter { timers[$0] == nil }.count }

    /// The one entry for a start from any front: decides whether it may go ahead.
    /// - Parameters:
    ///   - request: The typed request (parsed by `StartRequest` from the front's bytes).
    ///   - origin: Who asked.
    /// - Returns: ``KitchenEffect/spawn(label:arguments:origin:)`` to start it, or
    ///   ``KitchenEffect/answer(_:_:)`` with the refusal (the limit; the label running or starting;
    ///   the kitchen's own label; a socket path that would not fit, so the timer would run out of
    ///   reach: 64, nothing started).
    func admit(_ request: StartRequest, from origin: Origin) -> KitchenEffect {
        var request = request
        var label = label(of: request)
        var socket = ControlServer.socketName(for: label)
        // A second soft egg (a keypad's 1, a Home Assistant button pressed twice) is `Soft-2`.
        if timers[socket] != nil || starting[socket] != nil, Self.isDefault(label, of: request),
            let next = Self.numbered(label, isTaken: { timers[$0] != nil || starting[$0] != nil })
        {
            (label, request.label, socket) = (next, next, ControlServer.socketName(for: next))
        }
        if label == Self.ownLabel || socket == Self.ownLabel {
            return .answer(
                origin, .refused(Refusal(kind: .usage, text: "'\(label)': the kitchen's own label", label: label)))
        }
        if let running = timers[socket] {
            return .answer(
                origin,
                .refused(
                    Refusal(
                        kind: .usage, text: "\(label): a timer with this label is running (pid \(running.pid))",
                        label: label)))
        }
        if starting[socket] != nil {
            return .answer(
                origin,
                .refused(Refusal(kind: .usage, text: "\(label): a timer with this label is starting", label: label)))
        }
        if let refusal = Self.outOfReach(label, folder: socketFolder) { return .answer(origin, .refused(refusal)) }
        guard running < maxTimers else {
            return .answer(
                origin,
                .refused(
                    Refusal(
                        kind: .busy,
                        text: "\(label): not started: \(maxTimers) timers run already (the most: max-timers)",
                        label: label)))
        }
        return .spawn(label: label, arguments: request.arguments, origin: origin)
    }

    /// The child for `label` was spawned: its start is answered once it runs.
    /// - Parameters:
    ///   - label: The label ``admit(_:from:)`` gave.
    ///   - pid: The child's pid.
    ///   - origin: Who asked.
    ///   - log: Where its output goes (for a failure's line).
    ///   - id: Its asker's id, or nil.
    ///   - now: The boot clock.
    /// - Returns: The answer at once when its watch already said it runs, else none.
    mutating func spawned(
        label: String, pid: Int32, origin: Origin, log: String, id: RequestID? = nil, at now: ContinuousClock.Instant
    ) -> [KitchenEffect] {
        let socket = ControlServer.socketName(for: label)
        starting[socket] = Starting(
            pid: pid, origin: origin, label: label, giveUp: now + Self.startLimit, log: log, id: id)
        return timers[socket].map { status(socket: socket, $0) } ?? []
    }

    /// A followed timer's watch said its status.
    /// - Returns: The event its change of state fires (``KitchenEvent/transition(from:to:label:)``),
    ///   a start answered (its pid is the child's), a log line for a timer newly followed,
    ///   and ``KitchenEffect/ringsUnheard(label:reason:)`` when it has just begun to ring `silent`
    ///   (its alarm reaches no device: the kitchen says so through its own).
    mutating func status(socket: String, _ status: TimerStatus) -> [KitchenEffect] {
        let previous = timers[socket]
        let new = previous == nil
        timers[socket] = status
        if new {
            seenOrder.append(socket)
            stopped.removeAll { ControlServer.socketName(for: $0.label) == socket }
        }
        var effects: [KitchenEffect] = []
        if let event = KitchenEvent.transition(from: previous?.state, to: status.state, label: status.label) {
            effects.append(.event(event))
        }
        if status.state == .silent, previous?.state != .silent {
            effects.append(
                .ringsUnheard(label: status.label, reason: status.silentReason ?? "its alarm reaches no device"))
        }
        if let start = starting[socket], start.pid == status.pid {
            starting[socket] = nil
            effects += answered(start, .started(status), runs: true)
        } else if new {
            effects.append(.say("following \(status.label) (pid \(status.pid), \(status.state.rawValue))"))
        }
        return effects
    }

    /// The refusal of a start whose timer could not listen in `folder`; nil when it could.
    ///
    /// Its socket path would not fit (``ControlServer/unreachableReason(label:folder:)``), so it
    /// would run out of reach and a retry start a second one (issue 40): 64, nothing started. The
    /// one rule for the kitchen's starts and `start` without a kitchen.
    /// - Returns: The refusal, or nil.
    static func outOfReach(_ label: String, folder: String) -> Refusal? {
        ControlServer.unreachableReason(label: label, folder: folder).map {
            Refusal(kind: .usage, text: "\(label): not started: \($0)", label: label)
        }
    }

    /// How many times in a row the kitchen recovers one timer that died by a signal before it
    /// gives up on it (issue 40): 3.
    static let recoveryLimit = 3

    /// A followed timer's watch ended: it no longer runs.
    ///
    /// One whose last state was not final (not `done`, `cancelled` or `missed`, nor the menu) did
    /// not end as a timer ends: it died by a signal (`kill -9`, a crash, the OOM killer; a timer
    /// that exits with a status, SIGTERM included, says its final state first). The kitchen then
    /// recovers it from its record, keeping its deadline, as `eggtimer recover LABEL` does (which
    /// starts nothing when there is no record, or when the timer still runs), at most
    /// ``recoveryLimit`` times in a row per label; a final state clears the count.
    /// - Returns: Its log line, `Soft: ended (pid 42, done)`, from its last status; one whose
    ///   alarm reached no device adds why: `Soft: ended (pid 42, done, silent: cannot open audio
    ///   device 'X': REASON)`; one a signal ended says which, and whether its record stays
    ///   (``RecordKeeper/keptBy``): `Soft: ended by SIGTERM (pid 42); its record is kept: …`;
    ///   one that died is `Soft: died (pid 42, counting): recovering it …`
    ///   with the recovery (``KitchenEffect/recover(label:)``), or says the kitchen gave up (and
    ///   forgets the count, so that a recovery by hand is supervised again).
    mutating func ended(socket: String) -> [KitchenEffect] {
        seenOrder.removeAll { $0 == socket }
        guard let last = timers.removeValue(forKey: socket) else { return [] }
        var how = last.state.rawValue
        var silent = ""
        if last.deviceDown, last.state.isFinal || last.state == .silent {
            let reason = last.silentReason ?? "its alarm reached no device"
            silent = ", silent: \(reason)"
            how += last.state == .silent ? ": \(reason)" : silent
        }
        guard !last.state.isFinal, last.state != .menu else {
            recoveries[last.label] = nil
            if last.state.isFinal {
                stopped.removeAll { ControlServer.socketName(for: $0.label) == socket }
                stopped.append(last)
                if stopped.count > Self.stoppedMemory { stopped.removeFirst(stopped.count - Self.stoppedMemory) }
            }
            guard let signal = last.endedBy else { return [.say("\(last.label): ended (pid \(last.pid), \(how))")] }
            // Not "cancelled": nobody cancelled it (issue 41). Its record may bring it back.
            let kept =
                RecordKeeper.keptBy.contains(signal)
                ? "; its record is kept: `eggtimer recover \(last.label)` starts it again, "
                    + "`eggtimer cancel \(last.label)` forgets it" : ""
            return [.say("\(last.label): ended by \(signal) (pid \(last.pid)\(silent))\(kept)")]
        }
        let died = "\(last.label): died (pid \(last.pid), \(how))"
        let tries = recoveries[last.label, default: 0]
        guard tries < Self.recoveryLimit else {
            // Given up; a recovery by hand starts the count again.
            recoveries[last.label] = nil
            return [
                .say(
                    died + "; not recovered: it died \(Self.recoveryLimit) times in a row "
                        + "(`eggtimer recover \(last.label)` starts it)")
            ]
        }
        recoveries[last.label] = tries + 1
        return [
            .say(died + ": recovering it from its record (\(tries + 1) of \(Self.recoveryLimit))"),
            .recover(label: last.label),
        ]
    }

    /// A child of the kitchen exited (its timer ended, or failed to start).
    ///
    /// The answer has the timer's own status where it names a cause (78 for its config file: the
    /// shell's `start` ends with it too) and the timer's own line when it said one.
    /// - Parameters:
    ///   - pid: The child.
    ///   - status: Its exit status, or 128 + the signal that ended it.
    ///   - said: The timer's error line (``TimerLaunch/said(in:)``); nil when it said none.
    /// - Returns: The failed start's answer when it had not run yet; else none.
    mutating func childExited(pid: Int32, status: Int32, said: String? = nil) -> [KitchenEffect] {
        guard let (socket, start) = starting.first(where: { $0.value.pid == pid }) else { return [] }
        starting[socket] = nil
        return answered(start, .refused(.exited(start.label, status: status, said: said, log: start.log)), runs: false)
    }

    /// The log of the start let through as child `pid` and not answered yet, where its timer says
    /// why it ended first; nil for any other child.
    /// - Parameter pid: A child of the kitchen that exited.
    /// - Returns: The log's path, or nil.
    func startingLog(pid: Int32) -> String? { starting.values.first { $0.pid == pid }?.log }

    /// A timer an acknowledgement stopped, as every front's answer names it (issue 37).
    struct Stopped: Equatable, Sendable {
        /// Its label.
        var label: String
        /// Whether its alarm never reached a speaker.
        var silent: Bool
    }

    /// The timer `label` stopped by an acknowledgement, and whether its alarm was never heard.
    ///
    /// Its reply (its status after the acknowledgement, over) says so with `device=down`: the
    /// timer's own verdict (the snapshot's device health once over, its exit status 69). A reply
    /// that is not a final status (an older timer's `ok`) falls back on the status at the press:
    /// ringing `silent`. Pure.
    /// - Parameters:
    ///   - label: The timer's label.
    ///   - before: Its status when the press came; nil when not known.
    ///   - reply: Its reply line to the acknowledgement (`ok` and its status).
    /// - Returns: The timer's label, and whether its alarm was never heard.
    static func stopped(label: String, before: TimerStatus?, reply: String) -> Stopped {
        if let after = TimerStatus(line: reply), after.state.isFinal {
            return Stopped(label: label, silent: after.deviceDown)
        }
        return Stopped(label: label, silent: before?.state == .silent)
    }

    /// The written answer to an acknowledgement of `stopped` (the key's log line, the page's
    /// message): `Soft and Pasta stopped; Pasta never reached its speaker`
    /// (``Phrasebook/stopped(_:silent:asWritten:)``, in English, the labels as they are); nil
    /// when none was stopped.
    static func stoppedText(_ stopped: [Stopped]) -> String? {
        guard !stopped.isEmpty else { return nil }
        return Phrasebook(.english).stopped(
            stopped.map(\.label), silent: stopped.filter(\.silent).map(\.label), asWritten: true)
    }

    /// When an unanswered start or an exchange is given up next; nil with none.
    var nextCheck: ContinuousClock.Instant? {
        (starting.values.map(\.giveUp) + [nextExchangeDeadline].compactMap { $0 }).min()
    }

    /// Gives up the exchanges past their deadline (``expireExchanges(at:)``) and the starts whose
    /// timer did not answer by theirs (it may still come up: then it is followed as any other).
    mutating func expire(at now: ContinuousClock.Instant) -> [KitchenEffect] {
        var effects = expireExchanges(at: now)
        for (socket, start) in starting.sorted(by: { $0.key < $1.key }) where now >= start.giveUp {
            starting[socket] = nil
            let text =
                "\(start.label): started (pid \(start.pid)) but not answering within "
                + "\(Self.startLimit.components.seconds) s; see \(start.log)"
            // It may yet come up: a repeat of its id gets this answer, never a second timer.
            effects += answered(
                start, .refused(Refusal(kind: .unavailable, text: text, label: start.label)), runs: true)
        }
        return effects
    }
}

/// What ``KitchenCore`` asks the kitchen's runner to do.
enum KitchenEffect: Equatable, Sendable {
    /// Start `eggtimer ARGUMENTS` detached, with its log beside the records, and tell the core
    /// (``KitchenCore/spawned(label:pid:origin:log:id:at:)``, with its asker's `id`).
    case spawn(label: String, arguments: [String], origin: KitchenCore.Origin, id: RequestID? = nil)
    /// Tell `origin` how its start went.
    case answer(KitchenCore.Origin, KitchenCore.Outcome)
    /// Send `request` (a command with its origin, or without it to a timer older than control
    /// protocol 4) to the timer on `socket` as exchange `exchange`, without waiting; its reply
    /// goes to ``KitchenCore/replied(exchange:_:)``, a failure to send to
    /// ``KitchenCore/failed(exchange:_:)``.
    case send(exchange: Int, request: ControlRequest, socket: String)
    /// Close exchange `exchange`, given up at its deadline.
    case drop(exchange: Int)
    /// Tell `origin` how its action on the timers went.
    case answerAction(KitchenCore.Origin, KitchenCore.ActionAnswer)
    /// Start `eggtimer recover LABEL` detached (nil: `eggtimer recover`, every record whose
    /// timer no longer runs, as at the kitchen's start), its lines going to the kitchen's log; the
    /// recovered timer's socket is then followed as any new one.
    case recover(label: String?)
    /// Remove the kept record of the timer `label` if process `pid` wrote it (a newer timer of
    /// the label keeps its own), saying so in one line.
    case forgetRecord(label: String, pid: Int32)
    /// One line for the kitchen's log.
    case say(String)
    /// An event for the kitchen's Home Assistant `event` entity (issue 45).
    case event(KitchenEvent)
    /// A followed timer rings and its alarm reaches no device (why: `reason`): said in the log and
    /// through the kitchen's own device.
    case ringsUnheard(label: String, reason: String)
}
