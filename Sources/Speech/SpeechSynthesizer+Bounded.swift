import Glibc
import SystemKit

/// The voice check at start, bounded in time: a libespeak-ng that hangs while it initialises
/// must not keep a timer from starting (its line then times out in ``SpeechPreparer`` and the
/// plain alarm rings).
extension SpeechSynthesizer {
    /// Where the checking thread leaves its outcome, and the pipe it rings then.
    private final class Finish: Sendable {
        let pipe = WakePipe()
        let outcome = Locked<Result<Void, SpeechError>?>(nil)
    }

    /// Checks that espeak-ng has `voice` (``check(voice:)``), waiting at most `limit`.
    ///
    /// The check runs on a detached thread of its own, which is never joined: one stuck in C
    /// holds only itself (and espeak-ng's lock, so a later synthesis times out in turn). Blocks
    /// the caller for at most `limit`; any thread.
    /// - Parameters:
    ///   - voice: An espeak-ng voice name.
    ///   - limit: How long to wait; more than zero.
    /// - Throws: As ``check(voice:)``; ``SpeechError/tooSlow(limit:)`` when no answer came in
    ///   time or no thread could be started.
    public func check(voice: String, within limit: Duration) throws(SpeechError) {
        try Self.bounded(limit) { () throws(SpeechError) in try check(voice: voice) }
    }

    /// Runs `body` on a detached thread and waits at most `limit` for it: the seam of a slow check.
    /// - Parameters:
    ///   - limit: How long to wait; more than zero.
    ///   - body: The work; it may block for ever.
    /// - Throws: What `body` threw; ``SpeechError/tooSlow(limit:)`` when it had not returned by
    ///   `limit` or no thread could be started.
    /// - Precondition: `limit > .zero`.
    static func bounded(
        _ limit: Duration, _ body: @escaping @Sendable () throws(SpeechError) -> Void
    ) throws(SpeechError) {
        precondition(limit > .zero, "the limit must be positive")
        let finish = Finish()
        let failed = SystemThread.startDetached {
            let outcome: Result<Void, SpeechError>
            do throws(SpeechError) {
                try body()
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            finish.outcome.withLock { $0 = outcome }
            finish.pipe.ring()
        }
        guard failed == nil else { throw .tooSlow(limit: limit) }
        let deadline = ContinuousClock.now + limit
        while true {
            if let outcome = finish.outcome.withLock({ $0 }) { return try outcome.get() }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw .tooSlow(limit: limit) }
            // Without a pipe (out of descriptors), look again every 10 ms.
            let wait = finish.pipe.descriptor >= 0 ? left : min(left, .milliseconds(10))
            var entry = [pollfd(fd: finish.pipe.descriptor, events: Int16(POLLIN), revents: 0)]
            _ = try? pollDescriptors(&entry, timeout: wait)
        }
    }
}
