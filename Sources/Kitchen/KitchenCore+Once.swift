import TimerModel
import TimerText

// Issue 42: a start acts once per request. Its asker's id (a shell's retry, an HTTP
// Idempotency-Key, an MQTT payload's id) is remembered for `idMemory`; a repeat is answered as
// the first was, or with it once it comes, and never starts a second timer.

extension KitchenCore {
    /// How long a start's id is remembered after it was asked: 10 minutes (issue 42), far longer
    /// than any retry of a shell (``StartCommand``), a browser or an MQTT redelivery takes.
    static let idMemory = Duration.seconds(600)
    /// The most ids remembered; past it the oldest answered one is forgotten first (a start
    /// still starting is never forgotten: at most ``maxTimers`` are).
    static let idLimit = 1024

    /// Decides a start asked with `id`: the first time as any start (``admit(_:from:)``), a
    /// repeat with the first answer.
    /// - Parameters:
    ///   - request: The typed request.
    ///   - id: Its asker's id; nil: decided as a new start.
    ///   - origin: Who asked.
    ///   - now: The boot clock.
    /// - Returns: The start's spawn (carrying `id`) or refusal; for a repeat, the first answer, or
    ///   none while the first still starts (both are answered then); a refusal (64) when the id
    ///   was given to another request.
    mutating func start(
        _ request: StartRequest, id: RequestID?, from origin: Origin, at now: ContinuousClock.Instant
    ) -> [KitchenEffect] {
        guard let id else { return [admit(request, from: origin)] }
        forgetIDs(at: now)
        // Remembered by a kitchen before a restart: the timer it started carries the id.
        if remembered[id] == nil, let status = timers.values.first(where: { $0.requestID == id }) {
            let outcome = Outcome.started(status)
            remembered[id] = Remembered(request: request, outcome: outcome, until: now + Self.idMemory)
            return [.say("a repeat of request \(id): \(status.label) runs"), .answer(origin, outcome)]
        }
        if let known = remembered[id] {
            guard known.request == request else {
                let text = "request id '\(id)' was given to another start ('\(known.request)'): nothing started"
                return [.answer(origin, .refused(Refusal(kind: .usage, text: text, label: label(of: request))))]
            }
            if let outcome = known.outcome { return [.say("a repeat of request \(id)"), .answer(origin, outcome)] }
            if let socket = starting.first(where: { $0.value.id == id })?.key {
                starting[socket]?.repeats.append(origin)
                return [.say("a repeat of request \(id): answered with it")]
            }
        }
        let decided = admit(request, from: origin)
        guard case .spawn(let label, let arguments, let origin, _) = decided else { return [decided] }
        remembered[id] = Remembered(request: request, outcome: nil, until: now + Self.idMemory)
        return [.spawn(label: label, arguments: arguments, origin: origin, id: id)]
    }

    /// The answers to a start that ended starting: to its asker and to each repeat of its id.
    ///
    /// Its id keeps the answer when a timer may run (`runs`: it answered, or it did not answer in
    /// time), and is forgotten when none does (its child exited first): a retry may start it.
    /// - Parameters:
    ///   - start: The start, already taken out of ``starting``.
    ///   - outcome: How it went.
    ///   - runs: Whether its timer may run.
    /// - Returns: One answer per asker.
    mutating func answered(_ start: Starting, _ outcome: Outcome, runs: Bool) -> [KitchenEffect] {
        if let id = start.id { if runs { remembered[id]?.outcome = outcome } else { remembered[id] = nil } }
        return ([start.origin] + start.repeats).map { .answer($0, outcome) }
    }

    /// Forgets the ids asked ``idMemory`` ago or more, then the oldest answered ones past
    /// ``idLimit``.
    private mutating func forgetIDs(at now: ContinuousClock.Instant) {
        remembered = remembered.filter { $0.value.until > now }
        let answered = remembered.filter { $0.value.outcome != nil }.sorted { $0.value.until < $1.value.until }
        for (id, _) in answered.prefix(max(0, remembered.count - Self.idLimit)) { remembered[id] = nil }
    }
}
