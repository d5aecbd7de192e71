import Glibc

/// The body of an ``AlarmPlayer``'s playback thread: opens a sink, waits for the start instant,
/// loops the sound sample-exactly, recovers underruns, reopens lost devices with backoff, and
/// drops or drains at the end.
///
/// A device is trusted by what it has consumed, not by what it has queued: a write that accepts
/// frames may only have filled the buffer (alsa-lib's `file` plugin, for one, accepts a whole
/// buffer and fails on the write after it when it cannot write its file). So after a failure:
/// - ``AlarmPlayer/Event/deviceRecovered`` is sent once the reopened device has accepted more
///   frames than its buffer holds, which proves that some of them left the buffer (were played or
///   passed on). A device that fails before that gets no recovery event, only another
///   ``AlarmPlayer/Event/deviceUnavailable(_:)``.
/// - The backoff is reset only once a device has played, beyond its buffer, as long as the
///   longest backoff delay (2 s of audio) without failing. A device that keeps failing sooner is
///   retried ever more slowly (100 ms doubling to 2 s), so failure events never come faster than
///   about one per 2 s in the long run, and loss/recovery pairs no faster than that either.
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

    let sound: AlarmSound
    let device: String
    /// Whole passes to play; `nil` plays until stopped (and then paces non-pacing devices).
    let loops: Int?
    let startAt: ContinuousClock.Instant
    let timer: Timer
    let control: PlaybackControl
    let onEvent: @Sendable (AlarmPlayer.Event) -> Void
    var backoff = Backoff(first: .milliseconds(100), limit: .seconds(2))

    private var report = AlarmPlayer.Report()
    /// Frames of the current pass already written.
    private var position = 0
    /// A device failure was reported and no device has proved it plays since.
    private var awaitingRecovery = false

    /// Creates a loop; nothing is opened until ``run(open:)``.
    ///
    /// - Parameters:
    ///   - sound: What to play; at least one frame.
    ///   - device: The device name, for errors.
    ///   - loops: Whole passes to play, at least 1; `nil` until stopped.
    ///   - startAt: When to write the first frame; now or past means at once.
    ///   - timer: The clock and sleeper.
    ///   - control: The stop request and wake pipe.
    ///   - onEvent: Called on the playback thread; must be cheap and must not call ``AlarmPlayer/stop()``.
    /// - Precondition: `sound.frames > 0`; `loops` is `nil` or positive.
    init(
        sound: AlarmSound, device: String, loops: Int?, startAt: ContinuousClock.Instant, timer: Timer,
        control: PlaybackControl, onEvent: @escaping @Sendable (AlarmPlayer.Event) -> Void
    ) {
        precondition(sound.frames > 0, "cannot loop an empty sound")
        precondition(loops.map { $0 > 0 } ?? true, "loops must be positive")
        self.sound = sound
        self.device = device
        self.loops = loops
        self.startAt = startAt
        self.timer = timer
        self.control = control
        self.onEvent = onEvent
    }

    /// Plays until stopped or until `loops` passes are written and drained.
    ///
    /// Blocks the calling thread.
    /// - Parameter open: Opens the device; called again after each failure, with backoff between calls.
    /// - Returns: What was played; see ``AlarmPlayer/Report``.
    mutating func run<Sink: PCMSink & ~Copyable>(open: () throws(ALSAError) -> Sink) -> AlarmPlayer.Report {
        sound.samples.withUnsafeBufferPointer { samples in
            runSessions(samples, open: open)
        }
        return report
    }

    private mutating func runSessions<Sink: PCMSink & ~Copyable>(
        _ samples: UnsafeBufferPointer<Int16>, open: () throws(ALSAError) -> Sink
    ) {
        while !control.isStopRequested {
            var sink: Sink
            do {
                sink = try open()
            } catch {
                fail(.deviceUnavailable(device: device, reason: error.message))
                continue
            }
            switch play(samples, on: &sink) {
            case .stopped:
                halt(&sink)
                sink.close()
                return
            case .finished:
                let stopped = finish(&sink)
                sink.close()
                if !stopped { onEvent(.finished(passes: report.passes)) }
                return
            case .lost(let error):
                sink.close()
                position = 0  // replay the interrupted pass from its start
                fail(.deviceLost(device: device, reason: error.message))
            }
        }
        report.stoppedAt = timer.now()  // stopped while no device was open
    }

    /// Reports a device failure and waits out the backoff (ended early by a stop).
    private mutating func fail(_ error: AlarmError) {
        report.lastError = error
        awaitingRecovery = true
        onEvent(.deviceUnavailable(error))
        let delay = backoff.next()
        timer.sleep(until: timer.now() + delay, control: control)
    }

    /// Writes the sound in a loop to one open sink until stop, the last pass, or a failure.
    private mutating func play<Sink: PCMSink & ~Copyable>(
        _ samples: UnsafeBufferPointer<Int16>, on sink: inout Sink
    ) -> SessionEnd {
        let channels = sound.channels
        let frames = sound.frames
        let chunkFrames = max(1, sink.bufferFrames)  // one buffer per write
        // Never more than two buffers ahead of real time on a device that does not pace itself.
        let aheadLimit = duration(ofFrames: 2 * chunkFrames)
        var descriptors: [pollfd]
        do {
            descriptors = try sink.pollDescriptors()
        } catch {
            return .lost(error)
        }
        let sinkDescriptors = descriptors.count
        descriptors.append(pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0))

        if timer.now() < startAt { timer.sleep(until: startAt, control: control) }

        var devicePaces = false
        var recovering = false
        var paceStart: ContinuousClock.Instant?
        var framesSincePaceStart = 0
        // Frames this sink has accepted, and the totals that prove it plays (see the type's notes).
        var framesSinceOpen = 0
        let provenFrames = chunkFrames + 1
        let steadyFrames = chunkFrames + framesLasting(backoff.limit)
        while true {
            if control.isStopRequested { return .stopped }
            if position == frames {
                report.passes += 1
                position = 0
                if let loops, report.passes >= loops { return .finished }
            }
            let count = min(chunkFrames, frames - position)
            if loops == nil, !devicePaces, let paceStart {
                let ahead = duration(ofFrames: framesSincePaceStart + count) - paceStart.duration(to: timer.now())
                if ahead > aheadLimit {
                    timer.sleep(until: timer.now() + (ahead - aheadLimit), control: control)
                    continue
                }
            }

            let written: Int
            do {
                let chunk = UnsafeBufferPointer(
                    rebasing: samples[(position * channels)..<((position + count) * channels)])
                written = try sink.write(chunk)
            } catch {
                guard error.code == EPIPE || error.code == ESTRPIPE || error.code == EINTR else { return .lost(error) }
                // One suspend counts once, however many retries it takes to resume.
                if error.code != EINTR && !recovering { report.underruns += 1 }
                do {
                    recovering = !(try sink.recover(from: error))
                    if recovering { timer.sleep(until: timer.now() + .milliseconds(50), control: control) }
                } catch {
                    return .lost(error)
                }
                continue
            }

            if written == 0 {
                devicePaces = true
                do {
                    try waitUntilWritable(&descriptors, sinkDescriptors: sinkDescriptors, sink: sink)
                } catch {
                    return .lost(error)
                }
                continue
            }

            if report.firstFrameAt == nil || paceStart == nil {
                let now = timer.now()
                if report.firstFrameAt == nil {
                    report.firstFrameAt = now
                    onEvent(.firstFrame(at: now))
                }
                if paceStart == nil { paceStart = now }
            }
            recovering = false
            report.everPlayed = true
            report.framesWritten += written
            framesSincePaceStart += written
            position += written
            let before = framesSinceOpen
            framesSinceOpen += written
            if awaitingRecovery, framesSinceOpen >= provenFrames {
                awaitingRecovery = false
                onEvent(.deviceRecovered)
            }
            if before < steadyFrames, framesSinceOpen >= steadyFrames { backoff.reset() }
        }
    }

    /// Polls the sink's descriptors and the wake pipe until the sink has room, a stop is requested,
    /// or half a second passes (then the caller simply tries again).
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
            if try sink.readyToWrite(after: Array(descriptors[0..<sinkDescriptors])) { return }
        }
    }

    /// Drains after the last pass; returns `true` if a stop cut it short (the sink is then dropped).
    private mutating func finish<Sink: PCMSink & ~Copyable>(_ sink: inout Sink) -> Bool {
        while true {
            if control.isStopRequested {
                halt(&sink)
                return true
            }
            do {
                switch try sink.drain() {
                case .done: return false
                case .pending(let left):
                    timer.sleep(until: timer.now() + min(left, .milliseconds(50)), control: control)
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
            try sink.drop()
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
