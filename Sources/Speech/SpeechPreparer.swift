import SystemKit

/// Prepares spoken lines off the event loop, each within a time limit, for a loop to pick up.
///
/// Synthesis runs on one thread of the preparer's own (a ``SystemThread``, started at the first
/// ``prepare(_:voice:format:now:)`` and detached), one job after another, since espeak-ng is not
/// thread-safe. The thread posts each result to a queue and rings a pipe, ``descriptor``, that the
/// owning loop polls, as the AlarmPlayer's playback thread does.
///
/// ## The time bound
/// A line not ready ``limit`` after it was asked for is given up: ``results(at:)`` returns
/// ``Outcome/failed(_:)`` with ``SpeechError/tooSlow(limit:)`` for it, and its result, if it ever
/// comes, is dropped; if it had not started, it is skipped. The thread is never joined or waited
/// for, so a synthesis stuck in C holds only itself (and the lines queued behind it, which time out
/// in turn). Time is only what the owner passes as `now` (``ContinuousClock`` in the program, any
/// instants in tests); the preparer reads no clock.
///
/// ## Driving it from an event loop
/// Put ``descriptor`` in the poll set, wake no later than ``nextCheck``, then call
/// ``results(at:)``. Each ticket that ``prepare(_:voice:format:now:)`` returns gets exactly one
/// outcome, unless cancelled.
///
/// Confined to the owner's thread: every method and property must be called there.
public final class SpeechPreparer {
    /// A line asked for; matches its outcome.
    public struct Ticket: Sendable, Hashable {
        let number: UInt64
    }

    /// What became of a line.
    public enum Outcome: Sendable, Equatable {
        /// The line, in the format asked for, ready to write to a PCM.
        case ready(SpokenAudio)
        /// No line: why, one line for the user (``SpeechError/message``). A caller rings the
        /// plain alarm; ``SpeechError/libraryMissing(_:)`` is worth one warning per process.
        case failed(SpeechError)
    }

    /// The default time bound: 2 s.
    ///
    /// A one-second sentence takes about 1 ms to synthesise and 15 ms to convert to 48 000 Hz here
    /// (15 ms more the first time, loading the library and voice), and a few times that on a
    /// Raspberry Pi, so 2 s is only reached by a synthesis that is stuck or starved.
    public static let defaultLimit: Duration = .seconds(2)

    /// How long a line may take, from ``prepare(_:voice:format:now:)`` to its result.
    public let limit: Duration

    private let synthesizer: any SpeechSynthesizing
    private let queue = SpeechQueue()
    private var started = false
    private var lastTicket: UInt64 = 0
    /// Tickets waiting for an outcome, with their deadlines.
    private var pending: [UInt64: ContinuousClock.Instant] = [:]
    /// The last `now` given, for ``nextCheck`` without a pipe.
    private var lastNow: ContinuousClock.Instant?
    /// Outcomes already decided (the thread could not start) and not yet returned.
    private var decided: [(Ticket, Outcome)] = []

    /// Creates a preparer; no thread starts until the first line is asked for.
    /// - Parameters:
    ///   - synthesizer: What makes the audio (the real one by default; a slow or failing one in tests).
    ///   - limit: The time bound per line; more than zero.
    /// - Precondition: `limit > .zero`.
    public init(synthesizer: some SpeechSynthesizing = SpeechSynthesizer(), limit: Duration = defaultLimit) {
        precondition(limit > .zero, "the limit must be positive")
        (self.synthesizer, self.limit) = (synthesizer, limit)
    }

    /// Lets the synthesis thread return after its current job; never waits for it.
    deinit { queue.close() }

    /// Readable (`POLLIN`) when results wait for ``results(at:)``; close-on-exec, non-blocking,
    /// owned by the preparer; -1 if no pipe could be made (then ``nextCheck`` asks for a check
    /// every 10 ms while lines are pending).
    public var descriptor: Int32 { queue.descriptor }

    /// Asks for `text` spoken in `voice` in `format`; returns at once.
    /// - Parameters:
    ///   - text: What to say (at most ``SpeechSynthesizer/maximumTextBytes`` bytes).
    ///   - voice: An espeak-ng voice name.
    ///   - format: The alarm's rate and channels.
    ///   - now: The current instant; the line's deadline is `now + limit`.
    /// - Returns: The ticket its outcome will carry.
    /// C: `pthread_create` (the first time).
    public func prepare(_ text: String, voice: String, format: SpeechFormat, now: ContinuousClock.Instant) -> Ticket {
        lastTicket += 1
        lastNow = now
        let ticket = Ticket(number: lastTicket)
        if !started {
            let (queue, synthesizer) = (self.queue, self.synthesizer)
            if let error = SystemThread.startDetached({ queue.serve(synthesizer) }) {
                decided.append(
                    (ticket, .failed(.synthesisFailed("cannot start the synthesis thread: \(errorText(error.code))"))))
                return ticket
            }
            started = true
        }
        pending[ticket.number] = now + limit
        queue.add(SpeechQueue.Job(ticket: ticket.number, text: text, voice: voice, format: format))
        return ticket
    }

    /// Stops waiting for `ticket`: no outcome will be returned for it; does nothing if it has one.
    public func cancel(_ ticket: Ticket) {
        guard pending.removeValue(forKey: ticket.number) != nil else { return }
        queue.abandon(ticket.number)
    }

    /// Whether any line is waiting for its outcome.
    public var isWaiting: Bool { !pending.isEmpty || !decided.isEmpty }

    /// When ``results(at:)`` must be called even if ``descriptor`` stays quiet: the earliest
    /// deadline of a pending line (or 10 ms after the last `now`, without a pipe); `nil` when no
    /// line is waiting.
    public var nextCheck: ContinuousClock.Instant? {
        if !decided.isEmpty { return lastNow }
        guard let deadline = pending.values.min() else { return nil }
        guard descriptor < 0, let lastNow else { return deadline }
        return min(deadline, lastNow + .milliseconds(10))
    }

    /// Takes the outcomes decided by `now`, in the order they came; never blocks.
    ///
    /// A result that has arrived counts, even if the loop calls late; a line with none whose
    /// deadline is at or before `now` fails with ``SpeechError/tooSlow(limit:)`` and is abandoned.
    /// - Parameter now: The current instant, by the clock `prepare` was given.
    /// - Returns: Tickets with their outcomes, possibly none.
    public func results(at now: ContinuousClock.Instant) -> [(ticket: Ticket, outcome: Outcome)] {
        lastNow = now
        var outcomes = decided.map { (ticket: $0.0, outcome: $0.1) }
        decided.removeAll()
        for (number, result) in queue.takeResults() where pending.removeValue(forKey: number) != nil {
            let outcome: Outcome =
                switch result {
                case .success(let audio): .ready(audio)
                case .failure(let error): .failed(error)
                }
            outcomes.append((Ticket(number: number), outcome))
        }
        for (number, deadline) in pending.sorted(by: { $0.key < $1.key }) where deadline <= now {
            pending[number] = nil
            queue.abandon(number)
            outcomes.append((Ticket(number: number), .failed(.tooSlow(limit: limit))))
        }
        return outcomes
    }
}
