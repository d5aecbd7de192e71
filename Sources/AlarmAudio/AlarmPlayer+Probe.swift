import Glibc
import SystemKit

extension AlarmPlayer {
    /// Checks that `device` works by opening it as the player would for `sound`, then closing it,
    /// on a helper thread; waits at most `limit`.
    ///
    /// Meant for the "does the device work at all" check before a timer starts. A working device
    /// answers in about a millisecond. A device that does not answer in time (a stalled sound
    /// server; a `file:` PCM writing into a pipe nobody reads) is given up: the helper thread is
    /// abandoned (detached, never joined) and finishes the open and close on its own if they ever
    /// return.
    ///
    /// Blocks the calling thread for at most about `limit` (it waits in `poll`, by
    /// `ContinuousClock`). Callable from any thread.
    /// - Parameters:
    ///   - device: ALSA PCM name.
    ///   - sound: Whose sample rate and channel count to configure.
    ///   - limit: How long the open and close may take together; positive. ``answerLimit`` by
    ///     default (a shorter one is for tests; the error's text always names ``answerLimit``).
    /// - Throws: ``AlarmError/deviceBusy(device:)`` when another process holds the device now
    ///   (`EBUSY`: not a fault; it may be free by the deadline);
    ///   ``AlarmError/deviceUnavailable(device:reason:)`` with alsa-lib's reason text when
    ///   the open or set-up fails otherwise (or no helper thread can be started);
    ///   ``AlarmError/deviceHung(device:call:)`` when they did not return within `limit`, with
    ///   `call` `"snd_pcm_open"` (opening and configuring) or `"snd_pcm_close"`.
    /// - Precondition: `limit > .zero`.
    /// C: `pthread_create`, `poll`; on the helper thread `snd_pcm_open`, `snd_pcm_set_params`,
    /// `snd_pcm_close`.
    public static func probe(
        device: String, sound: AlarmSound, limit: Duration = answerLimit
    ) throws(AlarmError) {
        precondition(limit > .zero, "limit must be positive")
        let probe = DeviceProbe()
        let started = SystemThread.start {
            probe.run { () throws(ALSAError) in
                let playback = try PCMPlayback(
                    device: device, sampleRate: sound.sampleRate, channels: sound.channels,
                    latency: .milliseconds(100))
                probe.setStage("snd_pcm_close")
                playback.close()
            }
        }
        switch started {
        case .success(let thread):
            thread.detach()  // joined by nobody: it may never return
        case .failure(let error):
            throw .deviceUnavailable(
                device: device, reason: "cannot start a thread to open it: \(errorText(error.code))")
        }
        switch probe.wait(until: .now + limit) {
        case .answered(nil): return
        case .answered(let error?) where error.code == EBUSY: throw .deviceBusy(device: device)
        case .answered(let error?): throw .deviceUnavailable(device: device, reason: error.message)
        case .silent(let stage): throw .deviceHung(device: device, call: stage)
        }
    }
}

/// What a probe's helper thread and the waiting thread share: the stage reached, the outcome,
/// and a doorbell rung when the outcome is in.
///
/// Thread-safe: the state sits behind a lock; the doorbell's descriptors never change. Whichever
/// of the two threads lets go last closes the pipe.
private final class DeviceProbe: Sendable {
    /// How a wait ended.
    enum Answer {
        /// The helper finished: `nil` if the device opened and closed, else why not.
        case answered(ALSAError?)
        /// No answer in time; the helper was last in this alsa-lib call.
        case silent(String)
    }

    private struct State {
        var stage = "snd_pcm_open"
        var outcome: ALSAError??
    }

    private let state = Locked(State())
    private let doorbell = WakePipe()

    /// Records the alsa-lib call the helper is about to make; called on the helper thread.
    func setStage(_ stage: String) {
        state.withLock { $0.stage = stage }
    }

    /// Runs `body` and records its outcome, then rings; called on the helper thread.
    func run(_ body: () throws(ALSAError) -> Void) {
        let outcome: ALSAError?
        do {
            try body()
            outcome = nil
        } catch {
            outcome = error
        }
        state.withLock { $0.outcome = .some(outcome) }
        doorbell.ring()
    }

    /// Waits in `poll` until the helper has finished or `deadline` passes.
    ///
    /// - Parameter deadline: When to give up, by `ContinuousClock`.
    /// - Returns: The helper's answer, or the call it was still in.
    /// C: `poll`.
    func wait(until deadline: ContinuousClock.Instant) -> Answer {
        while true {
            let (outcome, stage) = state.withLock { ($0.outcome, $0.stage) }
            if let outcome { return .answered(outcome) }
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero { return .silent(stage) }
            // Whole milliseconds, rounded up so the last wait does not end just short of the deadline;
            // 10 ms steps if there is no pipe to wait on.
            let milliseconds = min((left / .milliseconds(1)).rounded(.up), 1_000_000)
            let timeout = Int32(doorbell.descriptor >= 0 ? milliseconds : min(milliseconds, 10))
            var ready = pollfd(fd: doorbell.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, timeout)
        }
    }
}
