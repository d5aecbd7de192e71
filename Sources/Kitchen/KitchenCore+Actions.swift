import ControlChannel
import SystemKit
import TimerEngine
import TimerModel
import TimerText

// The kitchen's actions on running timers decided in its core: which timers an action touches
// and by which rule, the commands sent to them as exchanges, each with its own deadline, and the
// answer to the front that asked once every exchange is in.

extension KitchenCore {
    /// What a front asks of the kitchen, parsed from its bytes.
    ///
    /// A keypad's key, an HTTP request, the MQTT start topic, a shell's `eggtimer start`: the
    /// core's one input from the fronts.
    enum Ask: Equatable, Sendable {
        /// Start a timer (``start(_:id:from:at:)``), with its asker's id if any.
        case start(StartRequest, id: RequestID? = nil)
        /// An action on the running timers (``act(_:from:at:)``).
        case act(Action)
    }

    /// The one entry for every front: decides `ask` from `origin` at `now`.
    /// - Returns: The effects: a start's spawn or refusal, an action's exchanges or its answer.
    mutating func decide(_ ask: Ask, from origin: Origin, at now: ContinuousClock.Instant) -> [KitchenEffect] {
        switch ask {
        case .start(let request, let id): start(request, id: id, from: origin, at: now)
        case .act(let action): act(action, from: origin, at: now)
        }
    }

    /// An action on the running timers, from any front (a keypad's key, an HTTP request).
    enum Action: Equatable, Sendable {
        /// Acknowledge every timer the rule covers (``TimerState/isCoveredByAcknowledgeAll``):
        /// ringing, silent or snoozed.
        case acknowledgeAll
        /// Snooze every timer ringing (or silent).
        case snoozeRinging
        /// Add `delta` (negative: take off) to the newest timer.
        case addToNewest(Duration)
        /// Cancel the newest timer.
        case cancelNewest
        /// Send `command` to the timer labelled `label`.
        case command(Command, label: String)

        /// The command each touched timer is sent.
        var command: Command {
            switch self {
            case .acknowledgeAll: .acknowledge
            case .snoozeRinging: .snooze(nil)
            case .addToNewest(let delta): .add(delta)
            case .cancelNewest: .cancel
            case .command(let command, _): command
            }
        }
    }

    /// How one touched timer answered.
    enum Reply: Equatable, Sendable {
        /// Not in yet.
        case waiting
        /// Its reply line (`ok…` or `error<TAB>text`).
        case answered(String)
        /// An acknowledgement of an alarm already stopped (issue 43): its final status line
        /// (`ok<TAB>label=…<TAB>state=done…`), as the answer to a STOP that came late.
        case alreadyStopped(String)
        /// No reply: why, in one line without the label.
        case failed(String)
    }

    /// One timer an action touched: who it was at the action, and its reply.
    struct Touched: Equatable, Sendable {
        /// Its socket name.
        var socket: String
        /// Its status when the action came.
        var before: TimerStatus
        /// Its reply.
        var reply: Reply
    }

    /// The answer to an action, for the front that asked: the action and every timer it touched,
    /// in the order sent (none: nothing fitted).
    struct ActionAnswer: Equatable, Sendable {
        /// The action.
        var action: Action
        /// The timers touched, newest first.
        var touched: [Touched]
    }

    /// An action whose exchanges are not all in.
    struct Asking: Equatable, Sendable {
        /// Who asked.
        let origin: Origin
        /// What is known so far.
        var answer: ActionAnswer
        /// The exchanges out, by number → index in ``ActionAnswer/touched``.
        var out: [Int: Int]
    }

    /// An exchange out: its action's key and deadline.
    struct Exchange: Equatable, Sendable {
        /// The action it belongs to (a key of the core's askings).
        let asking: Int
        /// When it is given up (boot clock).
        let deadline: ContinuousClock.Instant
        /// What was sent: the command with the asker's origin, until a timer older than control
        /// protocol 4 refused it and it went again without (once, within the same deadline), or
        /// `status` after a refused acknowledgement (``refusal``).
        var request: ControlRequest
        /// The timer's socket name.
        var socket = ""
        /// Whether it carries an acknowledgement, so that another one joins it (``joined``).
        var acknowledges = false
        /// The other actions that asked the same timer to acknowledge while this was out: each
        /// gets this exchange's reply (keys of the core's askings, in the order they came).
        var joined: [Int] = []
        /// The timer's refusal of the acknowledgement, while it is asked its status: the answer
        /// unless that status says the alarm stopped already.
        var refusal: String?
    }

    /// How long a timer has to answer one of the kitchen's commands: 2 s.
    ///
    /// As long as it has for its first status (``TimerFollows/answerLimit``). A stopped timer
    /// costs its own exchange this, never the loop; the action's answer waits for it.
    static let answerLimit = TimerFollows.answerLimit

    /// The timers `action` touches now, by its rule: socket names, newest first.
    func targets(of action: Action) -> [String] {
        let newest = newestFirst
        switch action {
        case .acknowledgeAll: return newest.filter { timers[$0]?.state.isCoveredByAcknowledgeAll ?? false }
        case .snoozeRinging: return newest.filter { timers[$0]?.state.isRinging ?? false }
        case .addToNewest, .cancelNewest: return Array(newest.prefix(1))
        case .command(_, let label):
            return Array(newest.filter { timers[$0].map { LabelRule.same($0.label, label) } ?? false }.prefix(1))
        }
    }

    /// The one entry for an action on running timers from any front: decides which timers it
    /// touches and sends each its command, or answers at once when none needs one.
    ///
    /// STOP is idempotent (issue 43): an acknowledgement of a timer already over (`done`,
    /// `cancelled`, `missed`; still followed, or ended lately: ``stoppedLately(_:)``) is answered
    /// at once with its status, never sent; one of a timer an acknowledgement is already out to
    /// joins that exchange and gets its reply, so that two taps at once both hear it stopped. A
    /// STOP of a timer a signal ended (its record kept, ``RecordKeeper/keptBy``) also forgets
    /// that record (``KitchenEffect/forgetRecord(label:pid:)``), lest it ring again.
    /// - Parameters:
    ///   - action: The action.
    ///   - origin: Who asked, and so who gets the answer.
    ///   - now: The boot clock: each exchange's deadline is ``answerLimit`` later.
    /// - Returns: ``KitchenEffect/send(exchange:request:socket:)`` for each timer touched that
    ///   needs its command, or ``KitchenEffect/answerAction(_:_:)`` when none does.
    mutating func act(_ action: Action, from origin: Origin, at now: ContinuousClock.Instant) -> [KitchenEffect] {
        let sockets = targets(of: action)
        let acknowledges = action.command == .acknowledge
        if sockets.isEmpty, case .command(.acknowledge, let label) = action, let stopped = stoppedLately(label) {
            let touched = Touched(
                socket: ControlServer.socketName(for: stopped.label), before: stopped,
                reply: .alreadyStopped(stopped.line))
            let answer = KitchenEffect.answerAction(origin, ActionAnswer(action: action, touched: [touched]))
            // A timer a signal ended keeps its record, which brings it back at the next recovery
            // (the kitchen's start): STOP means it is over, so its record goes too.
            guard let signal = stopped.endedBy, RecordKeeper.keptBy.contains(signal) else { return [answer] }
            return [.forgetRecord(label: stopped.label, pid: stopped.pid), answer]
        }
        guard !sockets.isEmpty else { return [.answerAction(origin, ActionAnswer(action: action, touched: []))] }
        let key = nextNumber()
        var asking = Asking(origin: origin, answer: ActionAnswer(action: action, touched: []), out: [:])
        var effects: [KitchenEffect] = []
        for socket in sockets {
            guard let before = timers[socket] else { continue }
            if acknowledges, before.state.isFinal {
                asking.answer.touched.append(
                    Touched(socket: socket, before: before, reply: .alreadyStopped(before.line)))
                continue
            }
            if acknowledges, let out = exchanges.first(where: { $0.value.socket == socket && $0.value.acknowledges }) {
                asking.out[out.key] = asking.answer.touched.count
                asking.answer.touched.append(Touched(socket: socket, before: before, reply: .waiting))
                exchanges[out.key]?.joined.append(key)
                continue
            }
            let number = nextNumber()
            asking.out[number] = asking.answer.touched.count
            asking.answer.touched.append(Touched(socket: socket, before: before, reply: .waiting))
            let request = ControlRequest.command(action.command, by: origin.front)
            exchanges[number] = Exchange(
                asking: key, deadline: now + Self.answerLimit, request: request, socket: socket,
                acknowledges: acknowledges)
            effects.append(.send(exchange: number, request: request, socket: socket))
        }
        guard !asking.out.isEmpty else { return [.answerAction(origin, asking.answer)] }
        askings[key] = asking
        return effects
    }

    /// Exchange `number` could not be sent, or its timer closed without a reply.
    ///
    /// An acknowledgement whose timer is known to be over by now (its last status final: it
    /// stopped and exited meanwhile) is answered with that status (issue 43).
    /// - Parameters:
    ///   - number: The exchange.
    ///   - reason: Why, in one line without the label.
    /// - Returns: The action's answer once it was the last one out.
    mutating func failed(exchange number: Int, _ reason: String) -> [KitchenEffect] {
        if let exchange = exchanges[number], exchange.acknowledges, let last = lastStatus(socket: exchange.socket),
            last.state.isFinal
        {
            return settle(number, .alreadyStopped(last.line))
        }
        return settle(number, .failed(reason))
    }

    /// Exchange `number`'s timer replied.
    ///
    /// Its status after the command goes into the picture at once (as its `watch` line would: a
    /// front reading it right after the answer never sees the state before it). A timer older
    /// than control protocol 4 that refused the origin is sent the command again without it, as
    /// the same exchange within the same deadline.
    /// - Returns: The picture's effects, then the action's answer once it was the last one out;
    ///   or the command's second sending.
    mutating func replied(exchange number: Int, _ reply: String) -> [KitchenEffect] {
        guard var exchange = exchanges[number], let asking = askings[exchange.asking],
            let index = asking.out[number]
        else { return [] }
        let socket = asking.answer.touched[index].socket
        if ControlRequest.isOlderTimerRefusal(reply), exchange.request.withoutOrigin != exchange.request {
            exchange.request = exchange.request.withoutOrigin
            exchanges[number] = exchange
            return [.send(exchange: number, request: exchange.request, socket: socket)]
        }
        // A refused acknowledgement: the timer is asked its status, in the same exchange, to
        // tell a STOP that came late (the alarm stopped by another tap, a key, a shell, or
        // its loops) from one of an alarm that does not ring (issue 43).
        if exchange.acknowledges, exchange.refusal == nil, reply.hasPrefix("error\t"),
            !ControlRequest.isOlderTimerRefusal(reply)
        {
            exchange.refusal = reply
            exchange.request = .command(.status)
            exchanges[number] = exchange
            return [.send(exchange: number, request: exchange.request, socket: socket)]
        }
        var effects: [KitchenEffect] = []
        let after = TimerStatus(line: reply)
        if timers[socket] != nil, let after { effects += status(socket: socket, after) }
        if let refusal = exchange.refusal {
            guard let after, after.state.isFinal else { return effects + settle(number, .answered(refusal)) }
            return effects + settle(number, .alreadyStopped(reply))
        }
        return effects + settle(number, .answered(reply))
    }

    /// Records exchange `number`'s reply for its action and every action that joined it;
    /// answers each whose last exchange it was.
    private mutating func settle(_ number: Int, _ reply: Reply) -> [KitchenEffect] {
        guard let exchange = exchanges.removeValue(forKey: number) else { return [] }
        var effects: [KitchenEffect] = []
        for key in [exchange.asking] + exchange.joined {
            guard var asking = askings[key], let index = asking.out.removeValue(forKey: number) else { continue }
            asking.answer.touched[index].reply = reply
            guard asking.out.isEmpty else {
                askings[key] = asking
                continue
            }
            askings[key] = nil
            effects.append(.answerAction(asking.origin, asking.answer))
        }
        return effects
    }

    /// Gives up the exchanges whose deadline passed: each is dropped, and its timer counts as
    /// not answering.
    mutating func expireExchanges(at now: ContinuousClock.Instant) -> [KitchenEffect] {
        var effects: [KitchenEffect] = []
        let reason = "no answer within \(Self.answerLimit.components.seconds) s (stopped?)"
        for (number, exchange) in exchanges.sorted(by: { $0.key < $1.key }) where now >= exchange.deadline {
            effects.append(.drop(exchange: number))
            effects += settle(number, .failed(reason))
        }
        return effects
    }

    /// The next exchange deadline; nil with none out.
    var nextExchangeDeadline: ContinuousClock.Instant? { exchanges.values.map(\.deadline).min() }

    /// How many exchanges are out.
    var exchangesOut: Int { exchanges.count }

    /// A fresh number for an exchange or an asking.
    private mutating func nextNumber() -> Int {
        numbered += 1
        return numbered
    }
}
