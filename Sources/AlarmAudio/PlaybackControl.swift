import Synchronization
import SystemKit

/// What the owner of one ringing and its playback thread share: the stop request, the wake-up
/// pipe that makes a stop immediate, and which device call the thread is in and since when.
///
/// Each ringing (each ``AlarmPlayer/start(at:loops:now:)``) gets a control of its own, so a
/// thread that was abandoned while blocked in a device call keeps its own "stop requested" for
/// good: if the call ever returns, the thread drops, closes and exits without playing again,
/// whatever later ringings do.
///
/// Thread-safe: the stop flag is an atomic, the device call sits behind a lock, and the pipe's
/// descriptors never change after `init`.
final class PlaybackControl: Sendable {
    /// A device call in progress on the playback thread.
    struct DeviceCall: Sendable, Equatable {
        /// The alsa-lib function, for example `"snd_pcm_writei"`.
        let function: String
        /// When the thread entered it, by the playback thread's ``PlaybackTimer``.
        let since: ContinuousClock.Instant
    }

    /// Which ringing of its player this is; events are tagged with it.
    let run: UInt64
    private let stopFlag = Atomic<Bool>(false)
    private let deviceIndex = Atomic<Int>(0)
    private let call = Locked<DeviceCall?>(nil)
    private let starved = Locked<ContinuousClock.Instant?>(nil)
    private let wake = WakePipe()

    /// Creates the control and its non-blocking, close-on-exec wake pipe.
    /// - Parameter run: Which ringing of its player this is.
    init(run: UInt64) {
        self.run = run
    }

    /// The wake pipe's read end, which becomes readable when a stop is requested; -1 if the pipe
    /// could not be created (then waits fall back to 10 ms steps).
    var wakeFD: Int32 { wake.descriptor }

    /// Whether ``requestStop()`` was called; callable from any thread.
    var isStopRequested: Bool { stopFlag.load(ordering: .acquiring) }

    /// Sets the stop flag and makes the wake pipe readable, ending any wait on the playback thread.
    ///
    /// The flag is never cleared.
    /// Callable from any thread; does not block.
    func requestStop() {
        stopFlag.store(true, ordering: .releasing)
        wake.ring()
    }

    /// Records that the playback thread enters `function` at `instant`; called on the playback
    /// thread just before the call.
    /// - Parameters:
    ///   - function: The alsa-lib function, for errors.
    ///   - instant: Now, by the playback thread's timer.
    func enter(_ function: String, at instant: ContinuousClock.Instant) {
        call.withLock { $0 = DeviceCall(function: function, since: instant) }
    }

    /// Records that the playback thread opens (or plays) the device at `index` of its player's
    /// devices (0: the device, 1: the fallback device); called on the playback thread.
    func use(device index: Int) { deviceIndex.store(index, ordering: .releasing) }

    /// The index of the device the playback thread last opened (see ``use(device:)``); callable
    /// from any thread.
    var device: Int { deviceIndex.load(ordering: .acquiring) }

    /// Records that the device call has returned; called on the playback thread.
    func leave() {
        call.withLock { $0 = nil }
    }

    /// The device call the playback thread is in, if any; callable from any thread.
    var currentCall: DeviceCall? { call.withLock { $0 } }

    /// Records that the open device has had no room for audio since `instant` (a write took no
    /// frames and the thread waits for room); called on the playback thread.
    ///
    /// A device that never makes room (a sound server stopped with SIGSTOP, a sink that stopped
    /// consuming) stalls the alarm as surely as a call that never returns, without any call
    /// blocking: the thread only waits in `poll`.
    func starving(since instant: ContinuousClock.Instant) { starved.withLock { $0 = $0 ?? instant } }

    /// Records that the device took frames again (or was closed); called on the playback thread.
    func fed() { starved.withLock { $0 = nil } }

    /// Since when the open device has taken no frames while the thread waited for room.
    ///
    /// `nil` while it takes them. Callable from any thread.
    var starvedSince: ContinuousClock.Instant? { starved.withLock { $0 } }
}
