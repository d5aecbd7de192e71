import Dispatch
import Glibc
import Synchronization
import SystemKit

@testable import AlarmAudio

/// A scripted stand-in for an ALSA device.
///
/// Decides what each open and write returns and records everything the playback loop does to it.
/// Shared between the test thread and the playback thread.
final class FakeDevice: Sendable {
    /// What one `write` call does.
    enum WriteStep: Sendable, Equatable {
        /// Accept at most this many frames.
        case accept(frames: Int)
        /// Return 0 (`EAGAIN`): the buffer is full.
        case wouldBlock
        /// Throw `ALSAError` with this positive errno.
        case fail(Int32)
        /// Block (opening `blocked`) until ``FakeDevice/release()``, then accept every frame.
        case stall
    }

    /// What happened, in order.
    enum Call: Sendable, Equatable {
        case open, openFailed
        case write(frames: Int)
        case wouldBlock
        case failed(Int32)
        case recover(Int32)
        case drop, drain, close
    }

    /// A call that blocks until the test calls ``release()``, like a stalled device.
    enum BlockPoint: Sendable, Equatable {
        case open, write, drain
    }

    struct State {
        /// Results of the next opens: an errno to fail with, or nil to succeed; once empty, opens succeed.
        var opens: [Int32?] = []
        /// Results of the next writes; once empty, every write does `afterScript`.
        var writes: [WriteStep] = []
        /// Write scripts for the next successful opens, one each: an open takes the first and puts it
        /// in `writes` (so a device can, say, accept one buffer and then fail, on every open).
        var sessionWrites: [[WriteStep]] = []
        var afterScript: WriteStep = .accept(frames: .max)
        /// How many `recover(from: ESTRPIPE)` calls report "still suspended" before succeeding;
        /// until one succeeds, every write fails with `ESTRPIPE` again, as a suspended device does.
        var suspendedRecoveries = 0
        var suspended = false
        /// `drain()` answers `.pending` this many times (`Int.max`: forever) before `.done`.
        var pendingDrains = 0
        /// The next call of this kind blocks (once) until ``release()``; it then goes on as scripted.
        var blockAt: BlockPoint?
        /// Every open blocks until ``release()`` (a device whose open never answers, however often
        /// it is tried), signalling ``FakeDevice/entered`` each time.
        var blockEveryOpen = false
        var calls: [Call] = []
        /// Samples of every accepted write, per session (one array per successful open).
        var sessions: [[Int16]] = []
        /// The timer's `now` at each accepted write, with the frames written by then in total.
        var writeTimes: [(at: ContinuousClock.Instant, totalFrames: Int)] = []
        var totalFrames = 0
    }

    let state: Mutex<State>
    let bufferFrames: Int
    let channels: Int
    let timer: (any PlaybackTimer)?
    /// A pipe that is never rung, so its read end never becomes readable: a "device" that never has room.
    let stuckPipe = WakePipe()
    /// Opened when a call blocks at `blockAt`.
    let blocked = DispatchGate()
    /// Signalled each time an open blocks under `blockEveryOpen`.
    let entered = DispatchSemaphore(value: 0)
    fileprivate let releasedGate = DispatchGate()
    /// Signalled once per call matching `signalOn`.
    let signal = DispatchSemaphore(value: 0)
    let signalOn: @Sendable (Call) -> Bool

    init(
        channels: Int, bufferFrames: Int = 256, timer: (any PlaybackTimer)? = nil, state: State = State(),
        signalOn: @escaping @Sendable (Call) -> Bool = { _ in false }
    ) {
        self.channels = channels
        self.bufferFrames = bufferFrames
        self.timer = timer
        self.state = Mutex(state)
        self.signalOn = signalOn
    }

    /// Lets the blocked call go on.
    func release() { releasedGate.open() }

    /// Blocks the calling (playback) thread until ``release()`` if `point` is where the script
    /// says to block; at most once per script entry.
    func blockIfScripted(at point: BlockPoint) {
        let block = state.withLock { state in
            guard state.blockAt == point else { return false }
            state.blockAt = nil
            return true
        }
        guard block else { return }
        blocked.open()
        _ = releasedGate.wait()
    }

    var calls: [Call] { state.withLock { $0.calls } }
    var sessions: [[Int16]] { state.withLock { $0.sessions } }

    func record(_ call: Call) {
        state.withLock { $0.calls.append(call) }
        if signalOn(call) { signal.signal() }
    }

    /// The opener to hand to `AlarmPlayer`.
    func open() throws(ALSAError) -> FakeSink {
        blockIfScripted(at: .open)
        if state.withLock({ $0.blockEveryOpen }) {
            entered.signal()
            _ = releasedGate.wait()
        }
        let failure: Int32? = state.withLock { state in
            let next = state.opens.isEmpty ? nil : state.opens.removeFirst()
            if next == nil {
                state.sessions.append([])
                if !state.sessionWrites.isEmpty { state.writes = state.sessionWrites.removeFirst() }
            }
            return next
        }
        if let failure {
            record(.openFailed)
            throw ALSAError(code: failure, function: "snd_pcm_open")
        }
        record(.open)
        return FakeSink(device: self, session: state.withLock { $0.sessions.count - 1 })
    }
}

/// One open session of a ``FakeDevice``.
struct FakeSink: ~Copyable, PCMSink {
    let device: FakeDevice
    /// Which of `device.sessions` this open fills.
    let session: Int
    var bufferFrames: Int { device.bufferFrames }

    deinit { device.record(.close) }

    mutating func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> Int {
        let frames = samples.count / device.channels
        precondition(frames > 0 && samples.count % device.channels == 0, "the loop wrote a partial frame")
        device.blockIfScripted(at: .write)
        let step = device.state.withLock { state -> FakeDevice.WriteStep in
            if state.suspended { return .fail(ESTRPIPE) }
            let step = state.writes.isEmpty ? state.afterScript : state.writes.removeFirst()
            if step == .fail(ESTRPIPE) { state.suspended = true }
            return step
        }
        switch step {
        case .stall:
            device.blocked.open()
            _ = device.releasedGate.wait()
            return accept(samples, limit: .max)
        case .wouldBlock:
            device.record(.wouldBlock)
            return 0
        case .fail(let code):
            device.record(.failed(code))
            throw ALSAError(code: code, function: "snd_pcm_writei")
        case .accept(let limit):
            return accept(samples, limit: limit)
        }
    }

    /// Records an accepted write of at most `limit` frames.
    private func accept(_ samples: UnsafeBufferPointer<Int16>, limit: Int) -> Int {
        let accepted = min(limit, samples.count / device.channels)
        let now = device.timer?.now()
        device.state.withLock { state in
            state.sessions[session].append(contentsOf: samples[0..<(accepted * device.channels)])
            state.totalFrames += accepted
            if let now { state.writeTimes.append((now, state.totalFrames)) }
        }
        device.record(.write(frames: accepted))
        return accepted
    }

    mutating func recover(from error: ALSAError) throws(ALSAError) -> Bool {
        device.record(.recover(error.code))
        guard [EPIPE, ESTRPIPE, EINTR].contains(error.code) else { throw error }
        if error.code == ESTRPIPE {
            let stillSuspended = device.state.withLock { state in
                guard state.suspendedRecoveries > 0 else {
                    state.suspended = false
                    return false
                }
                state.suspendedRecoveries -= 1
                return true
            }
            if stillSuspended { return false }
        }
        return true
    }

    func pollDescriptors() throws(ALSAError) -> [pollfd] {
        [pollfd(fd: device.stuckPipe.descriptor, events: Int16(POLLIN), revents: 0)]
    }

    func readyToWrite(after polled: [pollfd]) throws(ALSAError) -> Bool {
        polled.contains { $0.revents != 0 }
    }

    mutating func drop() throws(ALSAError) { device.record(.drop) }

    mutating func drain() throws(ALSAError) -> DrainProgress {
        device.blockIfScripted(at: .drain)
        device.record(.drain)
        let pending = device.state.withLock { state in
            guard state.pendingDrains > 0 else { return false }
            if state.pendingDrains != .max { state.pendingDrains -= 1 }
            return true
        }
        return pending ? .pending(.milliseconds(20)) : .done
    }

    consuming func close() {}
}

/// A clock that stands still until the loop sleeps, and then jumps to the deadline at once.
///
/// After `sleepsBeforeParking` sleeps it parks the loop instead: the next sleep blocks until a stop
/// is requested (and opens `parked`), so a test sees an exact number of sleeps and then stops.
final class FakeTimer: PlaybackTimer {
    private let current: Mutex<ContinuousClock.Instant>
    private let slept = Mutex<[Duration]>([])
    private let sleepsBeforeParking: Int
    /// Opened when the loop parks.
    let parked = DispatchGate()

    init(now: ContinuousClock.Instant = .now, sleepsBeforeParking: Int = .max) {
        current = Mutex(now)
        self.sleepsBeforeParking = sleepsBeforeParking
    }

    /// The durations the loop asked to sleep, in order (without the parked one).
    var sleeps: [Duration] { slept.withLock { $0 } }

    func now() -> ContinuousClock.Instant { current.withLock { $0 } }

    /// Moves the clock on to `instant` (never back), as time passing between the owner's looks.
    func advance(to instant: ContinuousClock.Instant) { current.withLock { $0 = max($0, instant) } }

    func sleep(until deadline: ContinuousClock.Instant, control: PlaybackControl) {
        let wait = now().duration(to: deadline)
        let park = slept.withLock { sleeps in
            guard sleeps.count < sleepsBeforeParking else { return true }
            sleeps.append(wait)
            return false
        }
        if park {
            parked.open()
            while !control.isStopRequested {
                var wake = pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&wake, 1, 100)
            }
            return
        }
        current.withLock { now in
            if wait > .zero { now = deadline }
        }
    }
}

extension FakeDevice {
    /// Waits until `signalOn` matched `count` more calls; `false` after 30 s.
    func waitForSignals(_ count: Int = 1) -> Bool {
        for _ in 0..<count where signal.wait(timeout: .now() + 30) != .success { return false }
        return true
    }
}
