import Synchronization

/// Plays an ``AlarmSound`` in a loop on an ALSA device, from a dedicated playback thread.
///
/// The thread opens the device non-blocking, waits for the start instant, then loops the sound
/// sample-exactly (no gap or padding between passes). A stop wakes it through a pipe, so the
/// device is dropped within microseconds whatever the buffer length. Underruns and suspends are
/// recovered in place; a lost or unavailable device is reopened with backoff (100 ms doubling to
/// 2 s) until it works or the player is stopped. The backoff starts again from 100 ms only after a
/// device has played 2 s of audio beyond its buffer without failing, so a device that opens but
/// fails soon after (a `file:` PCM whose file cannot be written, a flaky USB link) is retried ever
/// more slowly rather than at 10 Hz.
///
/// Thread-safe: ``start(at:loops:onEvent:)``, ``stop()`` and ``isRunning`` may be called from any
/// thread except the playback thread (that is, not from `onEvent`). Shared state lives in atomics
/// and mutexes; the device handle never leaves the playback thread.
public final class AlarmPlayer: Sendable {
    /// Something that happened on the playback thread.
    public enum Event: Sendable, Equatable {
        /// The first samples of this ringing were accepted by ALSA (`snd_pcm_writei` returned > 0) at this instant.
        ///
        /// Sent once per ringing. Accepted is not yet heard: a device may take its first buffer and
        /// then fail (``deviceUnavailable(_:)`` follows at once). Until a ``deviceRecovered`` comes
        /// after that, no device has been shown to play.
        case firstFrame(at: ContinuousClock.Instant)
        /// The device could not be opened (`.deviceUnavailable`) or failed mid-play (`.deviceLost`);
        /// the player retries with backoff. Sent once per failed attempt: 100 ms, 200 ms, … up to
        /// every 2 s while the device keeps failing.
        case deviceUnavailable(AlarmError)
        /// After a ``deviceUnavailable(_:)``, a reopened device has shown that it plays: it has
        /// accepted more frames than its buffer holds, so some of them must have left the buffer.
        ///
        /// Sent at most once per run of failures, and never for a device that fails again before
        /// that point (nor if the requested passes end first; then ``finished(passes:)`` follows).
        case deviceRecovered
        /// The requested passes were written and drained; the thread is about to exit.
        case finished(passes: Int)
    }

    /// What one ringing did, returned by ``stop()``.
    public struct Report: Sendable, Equatable {
        /// Whole passes of the sound written.
        public var passes: Int
        /// Frames accepted by devices in total, including partial passes.
        public var framesWritten: Int
        /// When the first frame was accepted; `nil` if none was.
        public var firstFrameAt: ContinuousClock.Instant?
        /// When the device was dropped (or, with no device open, when the thread noticed the stop)
        /// after ``stop()``; `nil` if the run finished its passes on its own.
        public var stoppedAt: ContinuousClock.Instant?
        /// Underruns (`EPIPE`) and suspends (`ESTRPIPE`) recovered in place.
        public var underruns: Int
        /// Whether any device accepted at least one frame (as for ``Event/firstFrame(at:)``, this
        /// is not proof that it was heard).
        public var everPlayed: Bool
        /// The last device error met, even if recovered from since.
        public var lastError: AlarmError?

        /// Creates a report; all values default to "nothing happened".
        public init(
            passes: Int = 0, framesWritten: Int = 0, firstFrameAt: ContinuousClock.Instant? = nil,
            stoppedAt: ContinuousClock.Instant? = nil, underruns: Int = 0, everPlayed: Bool = false,
            lastError: AlarmError? = nil
        ) {
            self.passes = passes
            self.framesWritten = framesWritten
            self.firstFrameAt = firstFrameAt
            self.stoppedAt = stoppedAt
            self.underruns = underruns
            self.everPlayed = everPlayed
            self.lastError = lastError
        }
    }

    private typealias Runner =
        @Sendable (
            _ control: PlaybackControl, _ startAt: ContinuousClock.Instant, _ loops: Int?,
            _ onEvent: @escaping @Sendable (Event) -> Void
        ) -> Report

    /// The thread handle and the last report.
    ///
    /// Held across `pthread_join` in ``stop()`` so that concurrent stops wait for each other; the
    /// playback thread never takes it.
    private struct Lifecycle {
        var thread: PlaybackThread?
        var lastReport = Report()
    }

    private let device: String
    private let runner: Runner
    private let control = PlaybackControl()
    private let lifecycle = Mutex(Lifecycle())

    /// Creates a player; nothing is opened until ``start(at:loops:onEvent:)``.
    /// - Parameters:
    ///   - sound: What to play; at least one frame. Shared read-only with the playback thread.
    ///   - device: ALSA PCM name, for example `"default"`, `"null"`, `"file:'/tmp/x.raw',raw"` or
    ///     `"plughw:CARD=Headphones"`.
    ///   - latency: The device buffer to ask for; bounds how far writes run ahead of what is heard.
    /// - Precondition: `sound.frames > 0` and `latency > .zero`.
    public convenience init(sound: AlarmSound, device: String, latency: Duration = .milliseconds(100)) {
        precondition(latency > .zero, "latency must be positive")
        self.init(sound: sound, device: device, timer: SystemPlaybackTimer()) { () throws(ALSAError) in
            try PCMPlayback(device: device, sampleRate: sound.sampleRate, channels: sound.channels, latency: latency)
        }
    }

    /// Creates a player around any sink and timer: the seam for tests.
    /// - Parameters:
    ///   - sound: What to play; at least one frame.
    ///   - device: The name used in errors.
    ///   - timer: The clock and sleeper the playback thread uses.
    ///   - open: Opens a sink; called on the playback thread, again after each failure.
    /// - Precondition: `sound.frames > 0`.
    init<Sink: PCMSink & ~Copyable>(
        sound: AlarmSound, device: String, timer: some PlaybackTimer,
        open: @escaping @Sendable () throws(ALSAError) -> Sink
    ) {
        precondition(sound.frames > 0, "cannot loop an empty sound")
        self.device = device
        runner = { control, startAt, loops, onEvent in
            var loop = PlaybackLoop(
                sound: sound, device: device, loops: loops, startAt: startAt, timer: timer, control: control,
                onEvent: onEvent)
            return loop.run(open: open)
        }
    }

    deinit {
        let thread = lifecycle.withLock { $0.thread.take() }
        guard let thread else { return }
        if control.isPlaybackThread {
            // The last reference went away inside `onEvent`: the thread cannot join itself.
            control.requestStop()
            thread.detach()
        } else {
            control.requestStop()
            thread.join()
        }
    }

    /// Checks that `device` works by opening it as the player would for `sound`, then closing it.
    ///
    /// Meant for the "does the device work at all" check before a timer starts. Runs on the calling
    /// thread and blocks for about a millisecond.
    /// - Parameters:
    ///   - device: ALSA PCM name.
    ///   - sound: Whose sample rate and channel count to configure.
    /// - Throws: ``AlarmError/deviceUnavailable(device:reason:)`` with alsa-lib's reason text.
    /// C: `snd_pcm_open`, `snd_pcm_set_params`, `snd_pcm_close`.
    public static func probe(device: String, sound: AlarmSound) throws(AlarmError) {
        do {
            let playback = try PCMPlayback(
                device: device, sampleRate: sound.sampleRate, channels: sound.channels, latency: .milliseconds(100))
            playback.close()
        } catch {
            throw .deviceUnavailable(device: device, reason: error.message)
        }
    }

    /// Starts ringing on a new playback thread (a POSIX thread, not a Task); returns at once.
    ///
    /// The thread opens the device immediately, waits until `startAt` (sleeping coarsely, then
    /// precisely), and writes the first frame within a fraction of a millisecond of it. It then
    /// loops the sound until ``stop()`` or until `loops` passes are written and drained. If no
    /// device works it keeps retrying, sending ``Event/deviceUnavailable(_:)``; passes do not advance
    /// meanwhile. With `loops == nil`, a device that does not pace itself (`null`, `file:`) is paced
    /// to at most two buffers ahead of real time; with `loops` set, writes run as fast as the device
    /// takes them.
    ///
    /// If the thread cannot be created, `onEvent` receives `.deviceUnavailable` on the calling
    /// thread and the player stays stopped.
    /// - Parameters:
    ///   - startAt: When the first frame should reach ALSA; now or in the past means at once.
    ///   - loops: Whole passes to play, at least 1; `nil` plays until ``stop()``.
    ///   - onEvent: Called on the playback thread; must be cheap, thread-safe, and must not call
    ///     ``start(at:loops:onEvent:)`` or ``stop()``.
    /// - Precondition: Not running (a finished or stopped player may be started again); `loops` is
    ///   `nil` or positive.
    public func start(
        at startAt: ContinuousClock.Instant, loops: Int?, onEvent: @escaping @Sendable (Event) -> Void
    ) {
        precondition(loops.map { $0 > 0 } ?? true, "loops must be positive")
        let failure: AlarmError? = lifecycle.withLock { state in
            if let finished = state.thread.take() {
                precondition(!control.isRunning, "AlarmPlayer.start called while already playing")
                finished.join()
                state.lastReport = control.report
            }
            control.prepareForStart()
            let control = self.control
            let runner = self.runner
            switch PlaybackThread.start({
                control.enterPlaybackThread()
                control.finish(with: runner(control, startAt, loops, onEvent))
            }) {
            case .success(let thread):
                state.thread = thread
                return nil
            case .failure(let error):
                let failure = AlarmError.deviceUnavailable(
                    device: device, reason: "cannot start the playback thread: \(errnoText(error.code))")
                control.finish(with: Report(lastError: failure))
                state.lastReport = control.report
                return failure
            }
        }
        if let failure { onEvent(.deviceUnavailable(failure)) }
    }

    /// Stops ringing: wakes the playback thread, waits until it has dropped the queued audio
    /// (`snd_pcm_drop`), closed the device and exited, and returns what it did.
    ///
    /// Blocks for as long as that takes (microseconds on an open device). Idempotent: later calls
    /// return the same report; a player never started returns an empty report; a player whose
    /// passes finished on their own returns that run's report (with `stoppedAt == nil`).
    /// - Returns: The run's report.
    /// - Precondition: Not called on the playback thread (from `onEvent`).
    public func stop() -> Report {
        precondition(!control.isPlaybackThread, "AlarmPlayer.stop called from its own playback thread")
        return lifecycle.withLock { state in
            guard let thread = state.thread.take() else { return state.lastReport }
            control.requestStop()
            thread.join()
            state.lastReport = control.report
            return state.lastReport
        }
    }

    /// Whether the playback thread is running.
    ///
    /// `true` from ``start(at:loops:onEvent:)`` until the thread has finished its passes or been
    /// stopped. Callable from any thread.
    public var isRunning: Bool { control.isRunning }
}
