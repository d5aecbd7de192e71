import Glibc
import Synchronization

/// What an ``AlarmPlayer``'s callers and its playback thread share: the stop request, the wake-up
/// pipe that makes a stop immediate, the running flag, and the finished run's report.
///
/// Thread-safe: the flags are atomics, the report sits behind a `Mutex`, and the pipe's
/// descriptors never change after `init`.
final class PlaybackControl: Sendable {
    private let stopFlag = Atomic<Bool>(false)
    private let runningFlag = Atomic<Bool>(false)
    private let playbackThread = Atomic<UInt>(0)
    private let result = Mutex(AlarmPlayer.Report())
    /// The wake pipe's read end, which becomes readable when a stop is requested; -1 if the pipe
    /// could not be created (then waits fall back to 10 ms steps).
    let wakeFD: Int32
    private let wakeWriteFD: Int32

    /// Creates the control and its non-blocking, close-on-exec wake pipe.
    ///
    /// C: `pipe`, `fcntl`.
    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        wakeFD = ends[0]
        wakeWriteFD = ends[1]
    }

    deinit {
        if wakeFD >= 0 { close(wakeFD) }
        if wakeWriteFD >= 0 { close(wakeWriteFD) }
    }

    /// Whether ``requestStop()`` was called since the last ``prepareForStart()``; callable from any thread.
    var isStopRequested: Bool { stopFlag.load(ordering: .acquiring) }

    /// Whether a playback thread has been started and has not yet finished.
    var isRunning: Bool { runningFlag.load(ordering: .acquiring) }

    /// Whether the calling thread is the playback thread.
    var isPlaybackThread: Bool { playbackThread.load(ordering: .acquiring) == pthread_self() }

    /// Sets the stop flag and makes the wake pipe readable, ending any wait on the playback thread.
    ///
    /// Callable from any thread; does not block. C: `write`.
    func requestStop() {
        stopFlag.store(true, ordering: .releasing)
        guard wakeWriteFD >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)  // EAGAIN: the pipe is full, so already readable
    }

    /// Clears the stop request, empties the pipe, resets the report and marks a run as started.
    ///
    /// Call before starting a thread, with no thread running. C: `read`.
    func prepareForStart() {
        stopFlag.store(false, ordering: .releasing)
        if wakeFD >= 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(wakeFD, &sink, sink.count) > 0 {}
        }
        result.withLock { $0 = AlarmPlayer.Report() }
        runningFlag.store(true, ordering: .releasing)
    }

    /// Records that the calling thread is the playback thread; called first thing on it.
    func enterPlaybackThread() {
        playbackThread.store(pthread_self(), ordering: .releasing)
    }

    /// Stores a finished run's report and clears the running flag; called last on the playback thread.
    /// - Parameter report: The run's outcome.
    func finish(with report: AlarmPlayer.Report) {
        result.withLock { $0 = report }
        playbackThread.store(0, ordering: .releasing)
        runningFlag.store(false, ordering: .releasing)
    }

    /// The last finished run's report.
    var report: AlarmPlayer.Report { result.withLock { $0 } }
}
