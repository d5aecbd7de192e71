import SystemKit

/// Plays an ``AlarmSound`` in a loop on an ALSA device, from a dedicated playback thread, without
/// ever blocking the thread that drives it.
///
/// Each ringing runs on a POSIX thread of its own. The thread opens the device non-blocking,
/// waits for the start instant, then loops the sound sample-exactly (no gap or padding between
/// passes). A stop wakes it through a pipe, so the device is dropped within microseconds whatever
/// the buffer length. Underruns and suspends are recovered in place; a lost or unavailable device
/// is reopened with backoff (100 ms doubling to ``retryLimit``, 1 s) until it works or the ringing
/// is stopped; a busy one (`EBUSY`: another timer rings on the same `hw:` device) every
/// ``busyRetry``. The backoff starts again from 100 ms only after a device has played 1 s of audio
/// beyond its buffer without failing, so a device that opens but fails soon after (a `file:` PCM
/// whose file cannot be written, a flaky USB link) is retried ever more slowly rather than at
/// 10 Hz, yet never less often than once a second.
///
/// With a fallback device (``init(sound:device:fallbackDevice:latency:loudness:)``), a device that
/// cannot be opened, is lost, or stalls gives way to the other at once; a ringing stays on the
/// device that works until it ends, and the next ringing tries the first device again.
///
/// ## Driving it from an event loop
/// Nothing here blocks or joins a thread that might still be working. The owner puts
/// ``descriptor`` in its poll set, wakes no later than ``nextCheck``, and then calls
/// ``events(at:)``, which hands over what the playback thread reported, in order. Every ringing
/// that ``start(at:loops:now:)`` begins ends with exactly one of ``Event/finished(_:)``,
/// ``Event/stopped(_:)`` or ``Event/hung(_:)``, unless a later `start` replaces it (then it ends
/// silently); a ringing may be played by several threads in turn (after stalls), but its events
/// come as from one.
///
/// ## Stalled and hung devices
/// A device call that never returns (a stalled sound server, a Bluetooth sink or a USB speaker
/// waking from power saving, ALSA's `file` plugin writing into a pipe nobody reads) must neither
/// freeze the program nor silence the rest of the ringing. When the playback thread has been
/// inside one device call for ``answerLimit`` while the ringing plays, ``events(at:)`` reports
/// ``Event/stalled(_:)`` and abandons the thread: it is never joined, its stop request stays set
/// (so if the call ever returns it drops, closes and exits without playing again), and its later
/// events are dropped. The ringing goes on: ``stallRetry`` later a new thread tries the device
/// again (the fallback device, if there is one), so while a device stays stalled a new try starts
/// at most ``answerLimit`` + ``stallRetry`` (750 ms) after the last, and playback resumes, with
/// ``Event/deviceRecovered(device:)``, as soon as a device answers. At most ``stuckThreadLimit``
/// abandoned threads may be stuck in device calls at once; at that bound the next try waits until
/// one of them returns (the device answered it, so a new try can work), and starts then at once.
///
/// A stop that gets no answer within ``answerLimit`` ends the ringing with ``Event/hung(_:)``,
/// abandoning the thread the same way.
///
/// Confined to one thread, the owner's (typically the main thread's event loop): every method and
/// property must be called there. Playback threads share only thread-safe objects with it.
public final class AlarmPlayer {
    /// Something that happened to a ringing, as returned by ``AlarmPlayer/events(at:)``.
    public enum Event: Sendable, Equatable {
        /// The first samples of this ringing were accepted by ALSA (`snd_pcm_writei` returned > 0)
        /// at this instant (by the playback thread's clock, `ContinuousClock`).
        ///
        /// Sent once per ringing. Accepted is not yet heard: a device may take its first buffer and
        /// then fail (``deviceUnavailable(_:)`` follows at once). Until a ``deviceRecovered(device:)``
        /// comes after that, no device has been shown to play.
        case firstFrame(at: ContinuousClock.Instant)
        /// The device could not be opened (``AlarmError/deviceUnavailable(device:reason:)``), is
        /// held by another process (``AlarmError/deviceBusy(device:)``) or failed mid-play
        /// (``AlarmError/deviceLost(device:reason:)``); the player retries. Not an ending: the
        /// ringing goes on.
        ///
        /// A failing device is retried with backoff and reported once per failed attempt:
        /// 100 ms, 200 ms, … up to every 2 s while it keeps failing. A busy device is retried
        /// every ``AlarmPlayer/busyRetry`` and reported once per run of busy attempts (the next
        /// event is the ``firstFrame(at:)`` or ``deviceRecovered(device:)`` of the open that got
        /// it, or another error). With a fallback device, each device's failure is reported.
        case deviceUnavailable(AlarmError)
        /// A device call did not return within ``AlarmPlayer/answerLimit`` while the ringing
        /// played (no stop asked): always ``AlarmError/deviceHung(device:call:)``. Not an ending:
        /// the thread is abandoned and the ringing goes on with a new try
        /// ``AlarmPlayer/stallRetry`` later (see the type's "Stalled and hung devices").
        case stalled(AlarmError)
        /// After a ``deviceUnavailable(_:)`` or ``stalled(_:)``, a device has shown that it plays:
        /// it has accepted more frames than its buffer holds, so some of them must have left the
        /// buffer. `device` names it: the device, or the fallback device.
        ///
        /// Sent at most once per run of failures, and never for a device that fails again before
        /// that point (nor if the requested passes end first).
        case deviceRecovered(device: String)
        /// The requested passes were written and drained and the device closed; the ringing is
        /// over. An ending (see ``endsRinging``). `report.stoppedAt` is `nil`.
        case finished(Report)
        /// After ``AlarmPlayer/stop(at:)``, the queued audio was dropped and the device closed; the
        /// ringing is over. An ending. `report.stoppedAt` is set.
        case stopped(Report)
        /// A stop went unanswered for ``AlarmPlayer/answerLimit``: always
        /// ``AlarmError/deviceHung(device:call:)``. The ringing is over and its thread abandoned.
        /// An ending.
        case hung(AlarmError)

        /// Whether this event ends its ringing (``finished(_:)``, ``stopped(_:)``, ``hung(_:)``).
        public var endsRinging: Bool {
            switch self {
            case .finished, .stopped, .hung: true
            case .firstFrame, .deviceUnavailable, .stalled, .deviceRecovered: false
            }
        }
    }

    /// What one ringing did, carried by ``Event/finished(_:)`` and ``Event/stopped(_:)``.
    public struct Report: Sendable, Equatable {
        /// Whole passes of the sound written.
        public var passes: Int
        /// Frames accepted by devices in total, including partial passes.
        public var framesWritten: Int
        /// When the first frame was accepted; `nil` if none was.
        public var firstFrameAt: ContinuousClock.Instant?
        /// When the device was dropped (or, with no device open, when the thread noticed the stop)
        /// after ``AlarmPlayer/stop(at:)``; `nil` if the ringing finished its passes on its own.
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

    /// How long one device call (open, write, drain, drop, close, …) may take, and how long a
    /// stop may go unanswered, before the device is declared hung: 500 ms.
    ///
    /// A working device answers in microseconds (open and set-up in under a millisecond, a drop
    /// in 10–50 µs), a sound server in a few milliseconds; half a second is far beyond that and
    /// still short enough that a stop key seems to work at once.
    public static let answerLimit: Duration = .milliseconds(500)

    /// How often a busy device (the open answered `EBUSY`) is tried again: 200 ms.
    ///
    /// Not a backoff: the device is held by another process (another timer ringing on a `hw:`
    /// device) and becomes free when that one is acknowledged, so the waiting alarm starts at most
    /// this long after it. An open that fails costs microseconds, so five a second are nothing.
    public static let busyRetry: Duration = .milliseconds(200)

    /// The longest wait between two tries of a device that fails or is lost while a ringing goes
    /// on: 1 s (the backoff's limit; it starts at 100 ms and doubles).
    ///
    /// A device that comes back (a USB speaker re-enumerated, a sound server restarted) is played
    /// again within this much of answering.
    public static let retryLimit: Duration = .seconds(1)

    /// How long after a stall is declared a new try starts: 250 ms, so tries of a device that
    /// stays stalled start at most ``answerLimit`` + 250 ms = 750 ms apart.
    ///
    /// The pause lets a device that is waking (a Bluetooth sink, a USB speaker leaving power
    /// saving) answer the call in flight before another is queued behind it.
    public static let stallRetry: Duration = .milliseconds(250)

    /// How many abandoned playback threads may be stuck in device calls at once: 4.
    ///
    /// Each stalled try leaves one thread blocked in alsa-lib until the device answers; without a
    /// bound, a device stalled for an hour would pile up thousands. Four tries cover the first
    /// 3 s of a stall at the full rate; after that a new try waits for one of them to return.
    public static let stuckThreadLimit = 4

    /// The call named when a device has made no room for audio for ``answerLimit`` (the thread
    /// waits in `poll` for it, as `snd_pcm_wait` would).
    static let starvedCall = "snd_pcm_wait"

    /// ``answerLimit`` as text for messages, for example "500 ms".
    static var answerLimitText: String { "\(Int(answerLimit / .milliseconds(1))) ms" }

    /// The body of a playback thread: plays one try of a ringing and returns its report.
    typealias Runner =
        @Sendable (
            _ control: PlaybackControl, _ play: Try, _ onEvent: @escaping @Sendable (Event) -> Void
        ) -> Report

    /// What one playback thread is asked to play.
    struct Try: Sendable {
        let startAt: ContinuousClock.Instant
        let loops: Int?
        let lead: [Int16]
        /// The index in the player's devices to open first.
        let firstDevice: Int
        /// Whether an earlier try of the same ringing failed or stalled.
        let resuming: Bool
        /// Loop frames of the ringing's fade-in already gone by (real time since its first frame),
        /// so a try after a stall goes on at the loudness reached instead of the ramp's start.
        var rampFramesDone = 0
    }

    /// The ringing in progress, as the owning thread sees it.
    private struct Ringing {
        /// The try playing now, or the one that stalled while ``retryAt`` is set.
        var control: PlaybackControl
        /// `nil` when no thread could be started (its events were queued by ``start(at:loops:now:)``)
        /// and while waiting for a retry.
        var thread: SystemThread?
        /// When an unanswered stop makes the device hung; `nil` until ``stop(at:)``.
        var stopDeadline: ContinuousClock.Instant?
        /// What the first try was asked to play; retries play the same.
        let play: Try
        /// When the next try starts after a stall; `nil` while a try runs.
        var retryAt: ContinuousClock.Instant?
        /// The device the last stalled try was on.
        var stalledDevice = 0
        /// When a device first accepted frames of this ringing (any try); reported once.
        var firstFrameAt: ContinuousClock.Instant?
        /// The last stall, for the ending's report.
        var stall: AlarmError?
    }

    /// The device names: the device, then the fallback device if any.
    private let devices: [String]
    private var device: String { devices[0] }
    /// The sound's samples per frame, which a ``lead`` must match.
    private let channels: Int
    /// The sound's frames per second, in Hz.
    private let sampleRate: Int
    private let runner: Runner
    private let inbox = PlaybackInbox()
    private var ringing: Ringing?
    private var lastRun: UInt64 = 0
    /// The `now` of the last call that took one; a hang can start no earlier than this.
    private var lastCheck: ContinuousClock.Instant?
    /// Runs whose threads were abandoned inside a device call and have not returned yet (their
    /// ending, posted when the call returns, removes them).
    private var stuckRuns: Set<UInt64> = []

    /// How many abandoned playback threads are stuck in device calls now (at most
    /// ``stuckThreadLimit``, plus any abandoned by an unanswered stop or a replaced ringing).
    public var stuckThreads: Int { stuckRuns.count }

    /// Creates a player; nothing is opened until ``start(at:loops:now:)``.
    ///
    /// Opens the event pipe (close-on-exec, non-blocking); if none can be made (out of
    /// descriptors) ``descriptor`` is -1 and ``nextCheck`` asks to be polled every 10 ms instead.
    /// - Parameters:
    ///   - sound: What to play; at least one frame. Shared read-only with playback threads.
    ///   - device: ALSA PCM name, for example `"default"`, `"null"`, `"file:'/tmp/x.raw',raw"` or
    ///     `"plughw:CARD=Headphones"`.
    ///   - fallbackDevice: A second ALSA PCM name that a ringing moves to when `device` cannot be
    ///     opened, is lost or stalls; `nil` for none.
    ///   - latency: The device buffer to ask for; bounds how far writes run ahead of what is heard.
    ///   - loudness: The volume and fade-in of every ringing (default: the samples unchanged).
    /// - Precondition: `sound.frames > 0` and `latency > .zero`.
    public convenience init(
        sound: AlarmSound, device: String, fallbackDevice: String? = nil, latency: Duration = .milliseconds(100),
        loudness: Loudness = .unchanged
    ) {
        precondition(latency > .zero, "latency must be positive")
        let devices = [device] + (fallbackDevice.map { [$0] } ?? [])
        self.init(sound: sound, devices: devices, timer: SystemPlaybackTimer(), loudness: loudness) {
            (index: Int) throws(ALSAError) in
            try PCMPlayback(
                device: devices[index], sampleRate: sound.sampleRate, channels: sound.channels, latency: latency)
        }
    }

    /// Creates a player around any sink and timer: the seam for tests.
    /// - Parameters:
    ///   - sound: What to play; at least one frame.
    ///   - device: The name used in errors.
    ///   - timer: The clock and sleeper the playback threads use; it also stamps device calls and
    ///     every instant they report, so ``events(at:)`` must be given `now` by the same clock.
    ///   - loudness: The volume and fade-in of every ringing.
    ///   - onEvent: Also called on the playback thread with each event as it is posted (not the
    ///     ending); for tests that must look at a fake device at that moment.
    ///   - open: Opens a sink; called on the playback thread, again after each failure.
    /// - Precondition: `sound.frames > 0`.
    convenience init<Sink: PCMSink & ~Copyable>(
        sound: AlarmSound, device: String, timer: some PlaybackTimer, loudness: Loudness = .unchanged,
        onEvent: @escaping @Sendable (Event) -> Void = { _ in },
        open: @escaping @Sendable () throws(ALSAError) -> Sink
    ) {
        self.init(sound: sound, devices: [device], timer: timer, loudness: loudness, onEvent: onEvent) {
            (_: Int) throws(ALSAError) in try open()
        }
    }

    /// Creates a player around any sink and timer with one or two devices: the seam for tests.
    /// - Parameters:
    ///   - sound: What to play; at least one frame.
    ///   - devices: The device names used in errors: the device, then the fallback device if any.
    ///   - timer: The clock and sleeper of the playback threads (see
    ///     ``init(sound:device:timer:loudness:onEvent:open:)``).
    ///   - loudness: The volume and fade-in of every ringing.
    ///   - onEvent: Also called on the playback thread with each event as it is posted.
    ///   - open: Opens the sink of the device at an index of `devices`; called on the playback
    ///     thread, again after each failure.
    /// - Precondition: `sound.frames > 0`; one or two devices.
    init<Sink: PCMSink & ~Copyable>(
        sound: AlarmSound, devices: [String], timer: some PlaybackTimer, loudness: Loudness = .unchanged,
        onEvent: @escaping @Sendable (Event) -> Void = { _ in },
        open: @escaping @Sendable (Int) throws(ALSAError) -> Sink
    ) {
        precondition(sound.frames > 0, "cannot loop an empty sound")
        precondition((1...2).contains(devices.count), "one device and at most one fallback")
        self.devices = devices
        self.channels = sound.channels
        self.sampleRate = sound.sampleRate
        let observer = onEvent
        runner = { control, play, post in
            var loop = PlaybackLoop(
                sound: sound, devices: devices, firstDevice: play.firstDevice, resuming: play.resuming,
                loops: play.loops, startAt: play.startAt, timer: timer, control: control,
                onEvent: { event in
                    observer(event)
                    post(event)
                })
            loop.loudness = loudness
            loop.rampFramesDone = play.rampFramesDone
            loop.lead = play.lead
            return loop.run(open: open)
        }
    }

    /// Asks a ringing still in progress to stop and lets its thread go; never waits.
    ///
    /// The thread drops, closes and exits on its own afterwards (microseconds later on a working
    /// device). To know the device is closed before going on, call ``stop(at:)`` and wait for the
    /// ending first.
    deinit {
        guard let ringing else { return }
        ringing.control.requestStop()
        ringing.thread?.detach()
    }

    /// Readable (`POLLIN`) whenever events are waiting for ``events(at:)``: put it in the owning
    /// loop's poll set.
    ///
    /// Close-on-exec and non-blocking; owned by the player (do not close it); the same for the
    /// player's whole life. -1 if no pipe could be made (see ``init(sound:device:latency:)``).
    public var descriptor: Int32 { inbox.descriptor }

    /// Interleaved S16 samples played once at the head of every ringing started from now on (a
    /// spoken line: "Soft eggs are ready"), then the loop, in the same stream; empty for none.
    ///
    /// In the sound's own sample rate and channel count (the caller converts). The first lead
    /// frame is written at the start instant exactly as the first loop frame is without one, and
    /// the loop follows it sample-exactly. ``Loudness`` (volume and fade-in) applies to the loop
    /// only: the lead plays as given, and the ramp starts at the loop's first frame. A ringing that
    /// starts again (a snooze ends, a lost device is reopened, a busy one is got) plays the lead
    /// again first. Changing it does not touch a ringing already started.
    /// - Precondition: A whole number of frames (`count` a multiple of the sound's channels).
    public var lead: [Int16] = [] {
        didSet { precondition(lead.count % channels == 0, "a lead must hold whole frames") }
    }

    /// Whether a ringing is active: started and not yet ended by an event that ``events(at:)``
    /// has returned (``Event/finished(_:)``, ``Event/stopped(_:)``, ``Event/hung(_:)``).
    public var isRunning: Bool { ringing != nil }

    /// Starts a ringing on a new playback thread (a POSIX thread, not a Task); returns at once.
    ///
    /// The thread opens the device immediately, waits until `startAt` (sleeping coarsely, then
    /// precisely), and writes the first frame within a fraction of a millisecond of it. It then
    /// loops the sound until ``stop(at:)`` or until `loops` passes are written and drained. If no
    /// device works it keeps retrying, sending ``Event/deviceUnavailable(_:)``; passes do not advance
    /// meanwhile. With `loops == nil`, a device that does not pace itself (`null`, `file:`) is paced
    /// to at most two buffers ahead of real time; with `loops` set, writes run as fast as the device
    /// takes them. A try that stalls is replaced by another (see "Stalled and hung devices"); it
    /// plays the lead and the passes again from their start.
    ///
    /// A ringing still active is asked to stop first and then forgotten: its thread is never
    /// joined here, and its later events (including its ending) are dropped. If no thread can be
    /// created, the new ringing's events are ``Event/deviceUnavailable(_:)`` and then
    /// ``Event/finished(_:)`` with that error as `lastError`, both waiting in ``descriptor`` at once.
    /// - Parameters:
    ///   - startAt: When the first frame should reach ALSA; now or in the past means at once.
    ///   - loops: Whole passes to play, at least 1; `nil` plays until ``stop(at:)``.
    ///   - now: The current instant (`ContinuousClock`, or the test timer's clock).
    /// - Precondition: `loops` is `nil` or positive. Called on the owning thread.
    /// C: `pthread_create`.
    public func start(at startAt: ContinuousClock.Instant, loops: Int?, now: ContinuousClock.Instant) {
        precondition(loops.map { $0 > 0 } ?? true, "loops must be positive")
        if let previous = ringing.take() {
            // Stuck in a device call: it counts against the bound until it returns.
            if previous.thread != nil, previous.control.currentCall != nil { stuckRuns.insert(previous.control.run) }
            previous.control.requestStop()
            previous.thread?.detach()
        }
        lastCheck = now
        let play = Try(startAt: startAt, loops: loops, lead: lead, firstDevice: 0, resuming: false)
        ringing = launch(play)
    }

    /// Starts a thread for `play` under a new run; if none can be started, queues its failure
    /// and ending.
    private func launch(_ play: Try) -> Ringing {
        lastRun += 1
        let control = PlaybackControl(run: lastRun)
        let (inbox, runner, run) = (self.inbox, self.runner, lastRun)
        let post: @Sendable (Event) -> Void = { inbox.post($0, run: run) }
        switch SystemThread.start({
            let report = runner(control, play, post)
            post(report.stoppedAt == nil ? .finished(report) : .stopped(report))  // the thread's last act
        }) {
        case .success(let thread):
            return Ringing(control: control, thread: thread, play: play)
        case .failure(let error):
            let failure = AlarmError.deviceUnavailable(
                device: devices[play.firstDevice], reason: "cannot start the playback thread: \(errorText(error.code))")
            post(.deviceUnavailable(failure))
            post(.finished(Report(lastError: failure)))
            return Ringing(control: control, thread: nil, play: play)
        }
    }

    /// Asks the current ringing to stop; returns at once and never waits for the thread.
    ///
    /// ``Event/stopped(_:)`` follows through ``descriptor`` (microseconds later on a working
    /// device, at once while waiting to try a stalled device again), or ``Event/hung(_:)`` from
    /// ``events(at:)`` if there is no answer within ``answerLimit`` of `now`. If the ringing had
    /// already ended on its own, its ``Event/finished(_:)`` comes instead. Does nothing when no
    /// ringing is active or a stop was already asked for.
    /// - Parameter now: The current instant, by the same clock as ``events(at:)``.
    /// - Precondition: Called on the owning thread.
    public func stop(at now: ContinuousClock.Instant) {
        lastCheck = now
        guard var current = ringing, current.stopDeadline == nil else { return }
        current.stopDeadline = now + Self.answerLimit
        if current.retryAt != nil {
            // No thread plays: the ringing ends here, its ending queued under a run of its own.
            lastRun += 1
            current.control = PlaybackControl(run: lastRun)
            current.retryAt = nil
            inbox.post(.stopped(Report(stoppedAt: now, lastError: current.stall)), run: lastRun)
        }
        current.control.requestStop()
        ringing = current
    }

    /// Takes the events of the current ringing that are waiting, oldest first, declares a stall or
    /// a hang when a deadline has passed, and starts a due retry; never blocks.
    ///
    /// Call it when ``descriptor`` is readable and at ``nextCheck``. Events of replaced or
    /// abandoned threads are dropped (their endings only free their place among the
    /// ``stuckThreadLimit``). When an ending is returned the ringing is over (``isRunning``
    /// becomes `false`); after ``Event/finished(_:)`` or ``Event/stopped(_:)`` the thread, which
    /// has returned, is joined. A ``Event/firstFrame(at:)`` comes once per ringing, whichever try
    /// sends it; an ending's report carries the ringing's first frame and last stall.
    ///
    /// A device call (open, write, recover, poll descriptors, drop, drain, close) that has lasted
    /// ``answerLimit`` at `now`, or an open device that has made no room for audio that long (the
    /// call is then named `snd_pcm_wait`), gives ``Event/stalled(_:)`` while the ringing plays and
    /// ``Event/hung(_:)`` (an ending) once a stop was asked; an unanswered stop alone also gives
    /// ``Event/hung(_:)``. Sleeping for the start instant or between reopening attempts, and
    /// waiting in `poll` for room in the buffer, are not device calls.
    /// - Parameter now: The current instant, by the clock of the playback timer (`ContinuousClock`).
    /// - Returns: The events, possibly none; an ending, if any, is last.
    /// - Precondition: Called on the owning thread.
    public func events(at now: ContinuousClock.Instant) -> [Event] {
        lastCheck = now
        // Judged before taking the events: a thread that ended in time has posted its ending by now.
        let hang = ringing.flatMap { hangError(of: $0, at: now) }
        let taken = inbox.take()
        for (run, event) in taken where event.endsRinging { stuckRuns.remove(run) }
        guard var current = ringing else { return [] }
        var events: [Event] = []
        // While waiting to try again, `control` is the stalled try's: what it posts is dropped.
        for (run, event) in taken where run == current.control.run && current.retryAt == nil {
            switch event {
            case .firstFrame(let at):
                guard current.firstFrameAt == nil else { continue }  // a retry's: already said
                current.firstFrameAt = at
            case .finished(var report), .stopped(var report):
                current.thread?.join()  // it has posted its last event and is returning
                ringing = nil
                report.firstFrameAt = current.firstFrameAt ?? report.firstFrameAt
                report.everPlayed = report.everPlayed || current.firstFrameAt != nil
                report.lastError = report.lastError ?? current.stall
                events.append(report.stoppedAt == nil ? .finished(report) : .stopped(report))
                return events
            default:
                break
            }
            events.append(event)
        }
        if let hang {
            current.control.requestStop()
            current.thread?.detach()
            // Counted until its ending comes (at once from a thread that was only waiting for room).
            if current.thread != nil { stuckRuns.insert(current.control.run) }
            if current.stopDeadline != nil {
                ringing = nil
                events.append(.hung(hang))
                return events
            }
            // A stall while ringing: try again shortly, on the other device if there is one.
            current.thread = nil
            current.stall = hang
            current.stalledDevice = current.control.device
            current.retryAt = now + Self.stallRetry
            events.append(.stalled(hang))
        }
        if let retryAt = current.retryAt, now >= retryAt, stuckRuns.count < Self.stuckThreadLimit {
            let next = (current.stalledDevice + 1) % devices.count
            let play = current.play
            var resumed = Try(
                startAt: play.startAt, loops: play.loops, lead: play.lead, firstDevice: next, resuming: true)
            if let first = current.firstFrameAt, now > first {
                resumed.rampFramesDone = Int(min(first.duration(to: now) / .seconds(1), 86_400) * Double(sampleRate))
            }
            var retry = launch(resumed)
            (retry.firstFrameAt, retry.stall) = (current.firstFrameAt, current.stall)
            current = retry
        }
        ringing = current
        return events
    }

    /// When ``events(at:)`` must be called even if ``descriptor`` stays quiet: the earliest instant
    /// at which the current ringing could be declared stalled or hung, or its next try is due;
    /// `nil` when no ringing is active.
    ///
    /// While a try runs this is never more than ``answerLimit`` after the last `now` given to the
    /// player, since the thread may enter a device call at any moment (so a ringing costs the
    /// owning loop at most two wake-ups a second). While ``stuckThreadLimit`` threads are stuck, a
    /// due retry waits for ``descriptor`` (a stuck thread's ending).
    /// - Precondition: Called on the owning thread.
    public var nextCheck: ContinuousClock.Instant? {
        guard let current = ringing, let lastCheck else { return nil }
        if let retryAt = current.retryAt {
            return stuckRuns.count < Self.stuckThreadLimit ? max(retryAt, lastCheck) : nil
        }
        var check = current.control.currentCall.map { $0.since + Self.answerLimit } ?? lastCheck + Self.answerLimit
        if let starved = current.control.starvedSince { check = min(check, starved + Self.answerLimit) }
        if let stopDeadline = current.stopDeadline { check = min(check, stopDeadline) }
        if inbox.descriptor < 0 { check = min(check, lastCheck + .milliseconds(10)) }
        return check
    }

    /// The hang `ringing` shows at `now`, if any (see ``events(at:)``); none while waiting for a
    /// retry.
    private func hangError(of ringing: Ringing, at now: ContinuousClock.Instant) -> AlarmError? {
        guard ringing.retryAt == nil else { return nil }
        let call = ringing.control.currentCall
        if let call, now >= call.since + Self.answerLimit {
            return .deviceHung(device: devices[ringing.control.device], call: call.function)
        }
        // A device that has made no room for audio that long stalls the alarm too (unless the
        // thread is only waiting to see a stop: then it is leaving).
        if !ringing.control.isStopRequested, let starved = ringing.control.starvedSince,
            now >= starved + Self.answerLimit
        {
            return .deviceHung(device: devices[ringing.control.device], call: Self.starvedCall)
        }
        if let stopDeadline = ringing.stopDeadline, now >= stopDeadline {
            return .deviceHung(device: devices[ringing.control.device], call: call?.function ?? "stop request")
        }
        return nil
    }
}
