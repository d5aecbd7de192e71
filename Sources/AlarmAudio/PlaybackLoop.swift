import Glibc
import SystemKit

/// The body of an ``AlarmPlayer``'s playback thread: opens a sink, waits for the start instant,
/// loops the sound sample-exactly, recovers underruns, reopens lost devices with backoff, and
/// drops or drains at the end.
///
/// A busy device (the open answers `EBUSY`: another process holds a `hw:` device) is asked again
/// every ``AlarmPlayer/busyRetry``, without backoff and reported once, so an alarm waiting behind
/// another starts within that time of the other's close, from the start of its sound.
///
/// A device is trusted by what it has consumed, not by what it has queued: a write that accepts
/// frames may only have filled the buffer (alsa-lib's `file` plugin, for one, accepts a whole
/// buffer and fails on the write after it when it cannot write its file). So after a failure:
/// - ``AlarmPlayer/Event/deviceRecovered`` is sent once the reopened device has accepted more
///   frames than its buffer holds, which proves that some of them left the buffer (were played or
///   passed on). A device that fails before that gets no recovery event, only another
///   ``AlarmPlayer/Event/deviceUnavailable(_:)``.
/// - The backoff is reset only once a device has played, beyond its buffer, as long as the
///   longest backoff delay (1 s of audio) without failing. A device that keeps failing sooner is
///   retried ever more slowly (100 ms doubling to ``AlarmPlayer/retryLimit``, 1 s), so failure
///   events never come faster than about one a second in the long run, and a device that comes
///   back is tried again within a second.
///
/// With a fallback device (``devices`` holds two names), a device that cannot be opened or is
/// lost gives way to the other at once; the backoff waits only after every device failed in turn.
/// A ringing plays on the device that last worked until it ends.
///
/// Every call into the sink (open, write, recover, poll descriptors, drop, drain, close) is
/// bracketed with ``PlaybackControl/enter(_:at:)`` and ``PlaybackControl/leave()``, stamped by the
/// timer, so the player can tell a device that stopped answering from one that is slow. Sleeps
/// (the start instant, backoff, pacing) and the wait for room in the buffer are not device calls.
///
/// Runs on one thread from start to end; shares only `control` (thread-safe) and the sound's
/// read-only samples with other threads, and calls `onEvent` on its own thread.
struct PlaybackLoop<Timer: PlaybackTimer> {
    /// Why one open device stopped being used.
    private enum SessionEnd {
        case stopped
        case finished
        case lost(ALSAError)
    }

    /// What the loop tracks about one open sink.
    private struct Session {
        /// One write's worth: a device buffer, in frames.
        let chunkFrames: Int
        /// Frames accepted since the open that prove the device plays (more than its buffer).
        let provenFrames: Int
        /// Frames accepted since the open after which the backoff starts again from its first delay.
        let steadyFrames: Int
        /// The device has answered a write with "buffer full", so it paces itself.
        var devicePaces = false
        /// A suspended device (`ESTRPIPE`) has not resumed yet.
        var suspended = false
        /// The last device call was a successful recovery and no write has succeeded since.
        var justRecovered = false
        /// Pauses before retrying a write that keeps failing right after each recovery.
        var retry = Backoff(first: .milliseconds(1), limit: .milliseconds(100))
        /// When this sink accepted its first frames, for pacing; frames accepted since then.
        var paceStart: ContinuousClock.Instant?
        var framesSincePaceStart = 0
        /// Frames this sink has accepted.
        var framesSinceOpen = 0
    }

    let sound: AlarmSound
    /// The device names, for errors: the device first, then the fallback device if any.
    let devices: [String]
    /// Whole passes to play; `nil` plays until stopped (and then paces non-pacing devices).
    let loops: Int?
    let startAt: ContinuousClock.Instant
    let timer: Timer
    let control: PlaybackControl
    let onEvent: @Sendable (AlarmPlayer.Event) -> Void
    var backoff = Backoff(first: .milliseconds(100), limit: AlarmPlayer.retryLimit)
    /// The volume and fade-in applied to the samples (``Loudness/unchanged``: sample-exact).
    var loudness = Loudness.unchanged
    /// Frames of the fade-in an earlier try of this ringing already went through: the loudness
    /// goes on from there (0: from the ramp's start).
    var rampFramesDone = 0
    /// Interleaved samples played once before the loop on each opened device (a spoken line).
    ///
    /// Unscaled; empty for none. Whole frames in the sound's format.
    var lead: [Int16] = []
    /// Scaled samples of one chunk when ``loudness`` changes them; sized on first use.
    private var scaled: [Int16] = []

    private var report = AlarmPlayer.Report()
    /// Frames of the current pass already written.
    private var position = 0
    /// Frames of ``lead`` already written on the current device; the loop starts once all are.
    private var leadPosition = 0
    /// Lead frames accepted in total (all devices), so the loudness counts loop frames only.
    private var leadFramesWritten = 0
    /// A device failure was reported and no device has proved it plays since.
    private var awaitingRecovery = false
    /// The last open answered `EBUSY` (and that was reported).
    private var busy = false
    /// Which of ``devices`` is tried or played now.
    private(set) var deviceIndex: Int
    /// Devices that failed in a row since one last opened; the backoff waits once all of them have.
    private var failuresInRound = 0

    /// The name of the device tried or played now.
    private var device: String { devices[deviceIndex] }

    /// Creates a loop; nothing is opened until ``run(open:)``.
    ///
    /// - Parameters:
    ///   - sound: What to play; at least one frame.
    ///   - devices: The device names, for errors: the device, then the fallback device if any.
    ///   - firstDevice: The index in `devices` to open first.
    ///   - resuming: Whether this thread takes over a ringing whose device failed or stalled: it
    ///     then sends ``AlarmPlayer/Event/deviceRecovered`` once a device proves it plays.
    ///   - loops: Whole passes to play, at least 1; `nil` until stopped.
    ///   - startAt: When to write the first frame; now or past means at once.
    ///   - timer: The clock and sleeper; also stamps the device calls recorded in `control`.
    ///   - control: The stop request, wake pipe and device-call record.
    ///   - onEvent: Called on the playback thread for every event but the last (``run(open:)``'s
    ///     report is that); must be cheap and must not block.
    /// - Precondition: `sound.frames > 0`; `loops` is `nil` or positive; `devices` not empty and
    ///   `firstDevice` one of its indices.
    init(
        sound: AlarmSound, devices: [String], firstDevice: Int = 0, resuming: Bool = false, loops: Int?,
        startAt: ContinuousClock.Instant, timer: Timer, control: PlaybackControl,
        onEvent: @escaping @Sendable (AlarmPlayer.Event) -> Void
    ) {
        precondition(sound.frames > 0, "cannot loop an empty sound")
        precondition(loops.map { $0 > 0 } ?? true, "loops must be positive")
        precondition(devices.indices.contains(firstDevice), "no such device")
        self.sound = sound
        self.devices = devices
        self.deviceIndex = firstDevice
        self.awaitingRecovery = resuming
        control.use(device: firstDevice)
        self.loops = loops
        self.startAt = startAt
        self.timer = timer
        self.control = control
        self.onEvent = onEvent
    }

    /// Plays until stopped or until `loops` passes are written and drained, then closes the device.
    ///
    /// Blocks the calling thread. Sends ``AlarmPlayer/Event/firstFrame(at:)``,
    /// ``AlarmPlayer/Event/deviceUnavailable(_:)`` and ``AlarmPlayer/Event/deviceRecovered``
    /// through `onEvent`, but not the ending: the caller makes that from the report.
    /// - Parameter open: Opens the device at an index of ``devices``; called again after each
    ///   failure, with backoff between rounds.
    /// - Returns: What was played; see ``AlarmPlayer/Report``. `stoppedAt` is set exactly when the
    ///   ringing ended because a stop was requested.
    mutating func run<Sink: PCMSink & ~Copyable>(open: (Int) throws(ALSAError) -> Sink) -> AlarmPlayer.Report {
        precondition(lead.count % sound.channels == 0, "a lead must hold whole frames")
        let lead = self.lead
        sound.samples.withUnsafeBufferPointer { samples in
            lead.withUnsafeBufferPointer { lead in
                runSessions(samples, lead: lead, open: open)
            }
        }
        return report
    }

    private mutating func runSessions<Sink: PCMSink & ~Copyable>(
        _ samples: UnsafeBufferPointer<Int16>, lead: UnsafeBufferPointer<Int16>, open: (Int) throws(ALSAError) -> Sink
    ) {
        while !control.isStopRequested {
            var sink: Sink
            do {
                let index = deviceIndex
                control.use(device: index)
                sink = try calling("snd_pcm_open") { () throws(ALSAError) in try open(index) }
            } catch {
                if error.code == EBUSY {
                    waitForBusyDevice()
                } else {
                    busy = false
                    fail(.deviceUnavailable(device: device, reason: error.message))
                }
                continue
            }
            busy = false
            failuresInRound = 0
            switch play(samples, lead: lead, on: &sink) {
            case .stopped:
                halt(&sink)
                close(sink)
                return
            case .finished:
                _ = finish(&sink)
                close(sink)
                return
            case .lost(let error):
                close(sink)
                position = 0  // replay the interrupted pass from its start
                leadPosition = 0  // after the spoken line again
                fail(.deviceLost(device: device, reason: error.message))
            }
        }
        report.stoppedAt = timer.now()  // stopped while no device was open
    }

    /// Runs one call into the sink, recorded in `control` as the device call `function` from now
    /// (by the timer) until it returns.
    private func calling<Result: ~Copyable>(
        _ function: String, _ body: () throws(ALSAError) -> Result
    ) throws(ALSAError) -> Result {
        control.enter(function, at: timer.now())
        defer { control.leave() }
        return try body()
    }

    /// Closes `sink`, recorded as the device call `snd_pcm_close`.
    private func close<Sink: PCMSink & ~Copyable>(_ sink: consuming Sink) {
        control.fed()
        control.enter("snd_pcm_close", at: timer.now())
        sink.close()
        control.leave()
    }

    /// Reports a busy device (once per run of busy opens) and waits ``AlarmPlayer/busyRetry``
    /// (ended early by a stop); the backoff is left alone.
    ///
    /// A device held by another process is not failing: it becomes free when that process closes
    /// it (another timer acknowledged), so it is asked again soon and at a steady rate, and the
    /// ringing plays from its start once it gets it.
    private mutating func waitForBusyDevice() {
        let error = AlarmError.deviceBusy(device: device)
        report.lastError = error
        awaitingRecovery = true
        if !busy { onEvent(.deviceUnavailable(error)) }
        busy = true
        timer.sleep(until: timer.now() + AlarmPlayer.busyRetry, control: control)
    }

    /// Reports a device failure, then moves to the next device (the fallback, or back to the
    /// first), waiting out the backoff (ended early by a stop) once every device has failed in turn.
    private mutating func fail(_ error: AlarmError) {
        report.lastError = error
        awaitingRecovery = true
        onEvent(.deviceUnavailable(error))
        failuresInRound += 1
        deviceIndex = (deviceIndex + 1) % devices.count
        guard failuresInRound >= devices.count else { return }
        failuresInRound = 0
        let delay = backoff.next()
        timer.sleep(until: timer.now() + delay, control: control)
    }

    /// Writes the lead once, then the sound in a loop, to one open sink until stop, the last pass,
    /// or a failure.
    private mutating func play<Sink: PCMSink & ~Copyable>(
        _ samples: UnsafeBufferPointer<Int16>, lead: UnsafeBufferPointer<Int16>, on sink: inout Sink
    ) -> SessionEnd {
        let channels = sound.channels
        let frames = sound.frames
        let chunkFrames = max(1, sink.bufferFrames)  // one buffer per write
        var descriptors: [pollfd]
        do {
            descriptors = try calling("snd_pcm_poll_descriptors") { () throws(ALSAError) in try sink.pollDescriptors() }
        } catch {
            return .lost(error)
        }
        let sinkDescriptors = descriptors.count
        descriptors.append(pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0))

        if timer.now() < startAt { timer.sleep(until: startAt, control: control) }

        var session = Session(
            chunkFrames: chunkFrames, provenFrames: chunkFrames + 1,
            steadyFrames: chunkFrames + framesLasting(backoff.limit))
        let leadFrames = lead.count / channels
        while true {
            if control.isStopRequested { return .stopped }
            let inLead = leadPosition < leadFrames
            if !inLead, position == frames {
                report.passes += 1
                position = 0
                if let loops, report.passes >= loops { return .finished }
            }
            let count = min(chunkFrames, inLead ? leadFrames - leadPosition : frames - position)
            if pace(&session, nextFrames: count) { continue }

            let written: Int
            do {
                if inLead {
                    let chunk = UnsafeBufferPointer(
                        rebasing: lead[(leadPosition * channels)..<((leadPosition + count) * channels)])
                    written = try calling("snd_pcm_writei") { () throws(ALSAError) in try sink.write(chunk) }
                } else {
                    let chunk = UnsafeBufferPointer(
                        rebasing: samples[(position * channels)..<((position + count) * channels)])
                    written = try writeAtLoudness(chunk, to: &sink)
                }
            } catch {
                if let end = recover(from: error, on: &sink, session: &session) { return end }
                continue
            }

            if written == 0 {
                session.devicePaces = true
                session.justRecovered = false  // the wait below keeps this from spinning
                control.starving(since: timer.now())  // until a write takes frames again
                do {
                    try waitUntilWritable(&descriptors, sinkDescriptors: sinkDescriptors, sink: sink)
                } catch {
                    return .lost(error)
                }
                continue
            }
            accept(written, inLead: inLead, session: &session)
            // A device that takes everything at once (`null`, `file:`, a counted `--loops`) would
            // keep this thread writing flat out; at SCHED_FIFO that holds the core from every
            // other real-time thread of its priority (another timer waking for its deadline). Go
            // to the back of the queue after each chunk: free when nothing else waits.
            if !session.devicePaces { sched_yield() }
        }
    }

    /// On a device that does not pace itself while ringing until stopped, sleeps if writing
    /// `nextFrames` more would put the loop more than two buffers ahead of real time.
    /// - Returns: Whether it slept (the caller then checks for a stop and tries again).
    private func pace(_ session: inout Session, nextFrames: Int) -> Bool {
        guard loops == nil, !session.devicePaces, let paceStart = session.paceStart else { return false }
        let aheadLimit = duration(ofFrames: 2 * session.chunkFrames)
        let ahead =
            duration(ofFrames: session.framesSincePaceStart + nextFrames) - paceStart.duration(to: timer.now())
        guard ahead > aheadLimit else { return false }
        timer.sleep(until: timer.now() + (ahead - aheadLimit), control: control)
        return true
    }

    /// Handles a failed write: repairs an underrun, suspend or interruption in place, or gives
    /// the sink up.
    ///
    /// A write that fails again right after a successful repair is not retried at once: the loop
    /// may run at SCHED_FIFO, and a device that underruns on every write would otherwise spin
    /// it. It pauses 1 ms, doubling up to 100 ms, until a write succeeds. A device still
    /// suspended is asked again every 50 ms.
    /// - Returns: How the session ends, or `nil` to go on writing.
    private mutating func recover<Sink: PCMSink & ~Copyable>(
        from error: ALSAError, on sink: inout Sink, session: inout Session
    ) -> SessionEnd? {
        guard error.code == EPIPE || error.code == ESTRPIPE || error.code == EINTR else { return .lost(error) }
        // One suspend counts once, however many retries it takes to resume.
        if error.code != EINTR && !session.suspended { report.underruns += 1 }
        let pause = session.justRecovered ? session.retry.next() : nil
        do {
            let ready = try calling("snd_pcm_recover") { () throws(ALSAError) in try sink.recover(from: error) }
            session.suspended = !ready
            session.justRecovered = ready
        } catch {
            return .lost(error)
        }
        if session.suspended {
            timer.sleep(until: timer.now() + .milliseconds(50), control: control)
        } else if let pause {
            timer.sleep(until: timer.now() + pause, control: control)
        }
        return nil
    }

    /// Writes `chunk` at the ringing's loudness: as it is, or scaled for the frames it starts at.
    /// - Returns: The frames the sink accepted.
    private mutating func writeAtLoudness<Sink: PCMSink & ~Copyable>(
        _ chunk: UnsafeBufferPointer<Int16>, to sink: inout Sink
    ) throws(ALSAError) -> Int {
        let loopFrames = report.framesWritten - leadFramesWritten + rampFramesDone
        if loudness.isUnity(from: loopFrames) {
            return try calling("snd_pcm_writei") { () throws(ALSAError) in try sink.write(chunk) }
        }
        if scaled.count < chunk.count { scaled = [Int16](repeating: 0, count: chunk.count) }
        let (loudness, first, channels) = (self.loudness, loopFrames, sound.channels)
        var buffer: [Int16] = []
        swap(&buffer, &scaled)  // owned here while writing: no copy of the array
        defer { swap(&buffer, &scaled) }
        return try buffer.withUnsafeMutableBufferPointer { (output) throws(ALSAError) -> Int in
            loudness.apply(chunk, channels: channels, firstFrame: first, into: output)
            let ready = UnsafeBufferPointer(rebasing: output[0..<chunk.count])
            return try calling("snd_pcm_writei") { () throws(ALSAError) in try sink.write(ready) }
        }
    }

    /// Counts `written` frames accepted by the sink (of the lead when `inLead`, else of the
    /// current pass) and sends the events they earn.
    private mutating func accept(_ written: Int, inLead: Bool, session: inout Session) {
        control.fed()
        if report.firstFrameAt == nil || session.paceStart == nil {
            let now = timer.now()
            if report.firstFrameAt == nil {
                report.firstFrameAt = now
                onEvent(.firstFrame(at: now))
            }
            if session.paceStart == nil { session.paceStart = now }
        }
        session.suspended = false
        session.justRecovered = false
        session.retry.reset()
        report.everPlayed = true
        report.framesWritten += written
        session.framesSincePaceStart += written
        if inLead {
            leadPosition += written
            leadFramesWritten += written
        } else {
            position += written
        }
        let before = session.framesSinceOpen
        session.framesSinceOpen += written
        if awaitingRecovery, session.framesSinceOpen >= session.provenFrames {
            awaitingRecovery = false
            onEvent(.deviceRecovered(device: device))
        }
        if before < session.steadyFrames, session.framesSinceOpen >= session.steadyFrames { backoff.reset() }
    }

    /// Polls the sink's descriptors and the wake pipe until the sink has room, a stop is requested,
    /// or half a second passes (then the caller simply tries again).
    ///
    /// The `poll` itself is not a device call (it times out); reading the result is.
    private func waitUntilWritable<Sink: PCMSink & ~Copyable>(
        _ descriptors: inout [pollfd], sinkDescriptors: Int, sink: borrowing Sink
    ) throws(ALSAError) {
        let timeout: Int32 = control.wakeFD >= 0 ? 500 : 10
        while !control.isStopRequested {
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw ALSAError(code: errno, function: "poll")
            }
            if ready == 0 || descriptors[sinkDescriptors].revents != 0 { return }
            let polled = Array(descriptors[0..<sinkDescriptors])
            let writable = try calling("snd_pcm_poll_descriptors_revents") { () throws(ALSAError) in
                try sink.readyToWrite(after: polled)
            }
            if writable { return }
        }
    }

    /// How long past the device's buffer time a drain may take before the rest is cut by the close:
    /// a server that stopped playing must not keep a finished ringing open.
    static var drainMargin: Duration { .milliseconds(250) }

    /// Lets the last pass play out; returns `true` if a stop cut it short (the sink is then dropped).
    ///
    /// The drain is made of short non-blocking calls with sleeps between them that a stop ends at
    /// once. It is given up (the close then cuts what is left) once the sink's buffer time plus
    /// ``drainMargin`` has passed: everything queued should have played by then.
    private mutating func finish<Sink: PCMSink & ~Copyable>(_ sink: inout Sink) -> Bool {
        let deadline = timer.now() + duration(ofFrames: sink.bufferFrames) + Self.drainMargin
        while true {
            if control.isStopRequested {
                halt(&sink)
                return true
            }
            do {
                switch try calling("snd_pcm_drain", { () throws(ALSAError) in try sink.drain() }) {
                case .done: return false
                case .pending(let left):
                    let now = timer.now()
                    if now >= deadline { return false }
                    timer.sleep(until: min(now + min(left, .milliseconds(50)), deadline), control: control)
                }
            } catch {
                report.lastError = .deviceLost(device: device, reason: error.message)
                return false
            }
        }
    }

    /// Drops the queued frames and records when that returned.
    private mutating func halt<Sink: PCMSink & ~Copyable>(_ sink: inout Sink) {
        do {
            try calling("snd_pcm_drop") { () throws(ALSAError) in try sink.drop() }
        } catch {
            // The device is being closed either way.
        }
        report.stoppedAt = timer.now()
    }

    /// The frames at the sound's rate that play for `duration`, rounded down.
    private func framesLasting(_ duration: Duration) -> Int {
        Int(duration / .seconds(1) * Double(sound.sampleRate))
    }

    private func duration(ofFrames frames: Int) -> Duration {
        .seconds(frames / sound.sampleRate) + .seconds(frames % sound.sampleRate) / sound.sampleRate
    }
}
