import Glibc
import SystemKit

/// What ``SpeechPreparer`` shares with its synthesis thread: the jobs waiting, the tickets given
/// up on, and the results, each under a lock, with a wake pipe each way.
///
/// Thread-safe: every field is a ``Locked`` or a ``WakePipe``.
final class SpeechQueue: Sendable {
    /// One line to speak.
    struct Job: Sendable {
        let ticket: UInt64
        let text: String
        let voice: String
        let format: SpeechFormat
    }

    private struct Waiting {
        var jobs: [Job] = []
        /// Tickets the owner stopped waiting for (timed out or cancelled): skipped if not started.
        var abandoned: Set<UInt64> = []
        /// The owner is gone: the thread returns after its current job.
        var closed = false
    }

    private let waiting = Locked(Waiting())
    private let results = Locked<[(ticket: UInt64, result: Result<SpokenAudio, SpeechError>)]>([])
    /// Rung when a job is queued or the queue closed; the synthesis thread polls it.
    private let jobBell = WakePipe()
    /// Rung when a result is posted; in the owner's poll set.
    private let resultBell = WakePipe()

    /// The results' doorbell (`POLLIN` while results wait); -1 if no pipe could be made.
    var descriptor: Int32 { resultBell.descriptor }

    /// Queues `job` for the synthesis thread; does not block beyond the short lock.
    func add(_ job: Job) {
        waiting.withLock { $0.jobs.append(job) }
        jobBell.ring()
    }

    /// Marks `ticket` as no longer wanted: skipped if it has not started.
    func abandon(_ ticket: UInt64) {
        waiting.withLock { $0.abandoned.insert(ticket) }
    }

    /// Tells the synthesis thread to return once its current job is done.
    func close() {
        waiting.withLock { $0.closed = true }
        jobBell.ring()
    }

    /// Posts a result and rings the owner; any thread.
    func post(_ ticket: UInt64, _ result: Result<SpokenAudio, SpeechError>) {
        results.withLock { $0.append((ticket, result)) }
        resultBell.ring()
    }

    /// Takes every posted result, oldest first; owner's thread; does not block.
    func takeResults() -> [(ticket: UInt64, result: Result<SpokenAudio, SpeechError>)] {
        resultBell.drain()
        return results.withLock { results in
            defer { results.removeAll() }
            return results
        }
    }

    /// The synthesis thread's body: waits for jobs (blocking in `poll` on the job bell, or every
    /// 10 ms if it has none), renders each one not abandoned, posts its result; returns when
    /// closed.
    ///
    /// Runs on the synthesis thread only. C: `poll`.
    func serve(_ synthesizer: some SpeechSynthesizing) {
        while true {
            let next: Job?? = waiting.withLock { waiting in
                while let job = waiting.jobs.first {
                    waiting.jobs.removeFirst()
                    if waiting.abandoned.remove(job.ticket) == nil { return .some(job) }
                }
                return waiting.closed ? .none : .some(nil)
            }
            guard let next else { return }
            guard let job = next else {
                var entry = pollfd(fd: jobBell.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, jobBell.descriptor < 0 ? 10 : -1)
                jobBell.drain()
                continue
            }
            let result = Result { () throws(SpeechError) in
                try synthesizer.render(job.text, voice: job.voice, format: job.format)
            }
            waiting.withLock { _ = $0.abandoned.remove(job.ticket) }  // given up while it ran
            post(job.ticket, result)
        }
    }
}
