import CAlsa
import Glibc
import SystemKit

/// An open, non-blocking ALSA playback stream of interleaved signed 16-bit samples; sole owner of
/// its `snd_pcm_t` (and of the private configuration tree it was opened from, if any).
///
/// Not thread-safe: create, use and drop it on one thread. Dropping it closes the device.
struct PCMPlayback: ~Copyable, PCMSink {
    private let pcm: OpaquePointer
    private let configuration: OpaquePointer?
    /// Frames per second, in Hz.
    let sampleRate: Int
    /// Samples per frame.
    let channels: Int
    /// The ring buffer's length as configured, in frames.
    let bufferFrames: Int
    /// The period (the wake-up granularity) as configured, in frames.
    let periodFrames: Int
    /// The drain found the stream run dry and has waited for what the device still held.
    private var drainedDry = false

    /// Opens and configures an ALSA playback device in non-blocking mode.
    /// - Parameters:
    ///   - device: ALSA PCM name, for example `"default"`, `"null"` or `"plughw:CARD=Headphones"`.
    ///   - sampleRate: Frames per second, in Hz; resampled by alsa-lib if the device needs it.
    ///   - channels: Samples per frame, 1 or 2.
    ///   - latency: The buffer length to ask for (the period is a quarter of it); bounds how far
    ///     writes run ahead of what is heard.
    /// - Throws: `ALSAError` if the device cannot be opened or does not accept the format.
    /// C: `snd_pcm_open`, `snd_pcm_set_params`, `snd_pcm_get_params`.
    init(device: String, sampleRate: Int, channels: Int, latency: Duration) throws(ALSAError) {
        var handle: OpaquePointer?
        try ALSAError.check(snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK), "snd_pcm_open")
        guard let handle else { throw ALSAError(code: ENODEV, function: "snd_pcm_open") }
        try self.init(opened: handle, configuration: nil, sampleRate: sampleRate, channels: channels, latency: latency)
    }

    /// Opens the PCM `name` defined in configuration text, ignoring the system configuration.
    ///
    /// alsa.conf, ~/.asoundrc and the environment play no part, which makes it the tool for tests:
    /// each can open its own `type file` PCM.
    /// - Parameters:
    ///   - configuration: alsa-lib configuration syntax, for example
    ///     `pcm.capture { type file slave.pcm { type null } file "/tmp/x.raw" format "raw" }`.
    ///   - name: The PCM to open from it, for example `"capture"`.
    ///   - sampleRate: Frames per second, in Hz.
    ///   - channels: Samples per frame, 1 or 2.
    ///   - latency: The buffer length to ask for.
    /// - Throws: `ALSAError` if the text does not parse or the PCM cannot be opened or configured.
    /// C: `snd_config_top`, `snd_input_buffer_open`, `snd_config_load`, `snd_pcm_open_lconf`.
    init(
        configuration: String, name: String, sampleRate: Int, channels: Int, latency: Duration
    ) throws(ALSAError) {
        var tree: OpaquePointer?
        try ALSAError.check(snd_config_top(&tree), "snd_config_top")
        guard let tree else { throw ALSAError(code: ENOMEM, function: "snd_config_top") }
        let handle: OpaquePointer
        do throws(ALSAError) {
            var input: OpaquePointer?
            try ALSAError.check(
                configuration.withCString { snd_input_buffer_open(&input, $0, strlen($0)) }, "snd_input_buffer_open")
            defer { snd_input_close(input) }
            try ALSAError.check(snd_config_load(tree, input), "snd_config_load")
            var opened: OpaquePointer?
            try ALSAError.check(
                snd_pcm_open_lconf(&opened, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK, tree), "snd_pcm_open_lconf"
            )
            guard let opened else { throw ALSAError(code: ENODEV, function: "snd_pcm_open_lconf") }
            handle = opened
        } catch {
            snd_config_delete(tree)
            throw error
        }
        try self.init(opened: handle, configuration: tree, sampleRate: sampleRate, channels: channels, latency: latency)
    }

    /// Configures an opened PCM; closes it (and deletes `configuration`) if that fails.
    private init(
        opened pcm: OpaquePointer, configuration: OpaquePointer?, sampleRate: Int, channels: Int, latency: Duration
    ) throws(ALSAError) {
        precondition(channels == 1 || channels == 2, "channels must be 1 or 2")
        precondition(sampleRate > 0 && latency > .zero, "sample rate and latency must be positive")
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        do {
            let microseconds = latency.wholeMicroseconds()
            try ALSAError.check(
                snd_pcm_set_params(
                    pcm, SND_PCM_FORMAT_S16, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(sampleRate),
                    1, UInt32(clamping: max(microseconds, 1))),
                "snd_pcm_set_params")
            try ALSAError.check(snd_pcm_get_params(pcm, &buffer, &period), "snd_pcm_get_params")
        } catch {
            snd_pcm_close(pcm)  // self is not initialised yet, so deinit will not run
            if let configuration { snd_config_delete(configuration) }
            throw error
        }
        self.pcm = pcm
        self.configuration = configuration
        self.sampleRate = sampleRate
        self.channels = channels
        self.bufferFrames = Int(buffer)
        self.periodFrames = Int(period)
    }

    deinit {
        snd_pcm_close(pcm)
        if let configuration { snd_config_delete(configuration) }
    }

    /// Queues as many of `samples` as fit without blocking.
    /// - Parameter samples: Interleaved samples; `count` is a positive multiple of `channels`.
    /// - Returns: The number of frames accepted; 0 when the buffer is full (`EAGAIN`).
    /// - Throws: `ALSAError` (`EPIPE` underrun, `ESTRPIPE` suspended, `ENODEV` unplugged, …).
    /// C: `snd_pcm_writei`.
    mutating func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> Int {
        precondition(samples.count % channels == 0, "partial frame")
        let result = snd_pcm_writei(pcm, samples.baseAddress, snd_pcm_uframes_t(samples.count / channels))
        if result == -Int(EAGAIN) { return 0 }
        return try ALSAError.check(result, "snd_pcm_writei")
    }

    /// Repairs the stream after `EPIPE`, `ESTRPIPE` or `EINTR` without blocking (unlike
    /// `snd_pcm_recover`, which sleeps for a second at a time while the device is suspended).
    /// - Parameter error: The error ``write(_:)`` threw.
    /// - Returns: `true` when the stream accepts writes again; `false` while still suspended.
    /// - Throws: `ALSAError` if preparing fails, or `error` itself for any other code.
    /// C: `snd_pcm_recover`, `snd_pcm_resume`, `snd_pcm_prepare`.
    mutating func recover(from error: ALSAError) throws(ALSAError) -> Bool {
        switch error.code {
        case EPIPE, EINTR:
            try ALSAError.check(snd_pcm_recover(pcm, -error.code, 1), "snd_pcm_recover")
            return true
        case ESTRPIPE:
            let resumed = snd_pcm_resume(pcm)
            if resumed == -EAGAIN { return false }
            if resumed < 0 { try ALSAError.check(snd_pcm_prepare(pcm), "snd_pcm_prepare") }
            return true
        default:
            throw error
        }
    }

    /// The descriptors to poll while the buffer is full.
    ///
    /// - Returns: The descriptors with `events` set.
    /// - Throws: `ALSAError` if alsa-lib cannot list them. C: `snd_pcm_poll_descriptors`.
    func pollDescriptors() throws(ALSAError) -> [pollfd] {
        let wanted = try ALSAError.check(snd_pcm_poll_descriptors_count(pcm), "snd_pcm_poll_descriptors_count")
        var descriptors = [pollfd](repeating: pollfd(), count: Int(wanted))
        let filled = try ALSAError.check(
            snd_pcm_poll_descriptors(pcm, &descriptors, UInt32(wanted)), "snd_pcm_poll_descriptors")
        return Array(descriptors.prefix(Int(filled)))
    }

    /// Whether the polled descriptors mean room in the buffer (or an error to collect by writing).
    /// - Parameter polled: The descriptors from ``pollDescriptors()`` with `revents` filled in.
    /// - Returns: `true` on room to write (`POLLOUT`) or an error condition to collect by writing.
    /// - Throws: `ALSAError` if alsa-lib cannot interpret them.
    /// C: `snd_pcm_poll_descriptors_revents`.
    func readyToWrite(after polled: [pollfd]) throws(ALSAError) -> Bool {
        var descriptors = polled
        var revents: UInt16 = 0
        try ALSAError.check(
            snd_pcm_poll_descriptors_revents(pcm, &descriptors, UInt32(descriptors.count), &revents),
            "snd_pcm_poll_descriptors_revents")
        return Int32(revents) & (POLLOUT | POLLERR | POLLHUP | POLLNVAL) != 0
    }

    /// Stops playback at once and discards the queued frames; returns in tens of microseconds.
    /// - Throws: `ALSAError` if the device refuses. C: `snd_pcm_drop`.
    mutating func drop() throws(ALSAError) {
        try ALSAError.check(snd_pcm_drop(pcm), "snd_pcm_drop")
    }

    /// Lets the queued frames play out in short, non-blocking steps; call again until `.done`.
    ///
    /// `snd_pcm_drain` is not non-blocking everywhere: the kernel (`hw`) answers `EAGAIN` and
    /// drains in the background, but ALSA's PulseAudio plugin ignores the non-blocking flag and
    /// waits inside the call until the server has played everything queued (measured: 150 ms
    /// for a 100 ms buffer), which no stop can cut short. So while more than a period is queued
    /// this only reads the delay and says how long is left; `snd_pcm_drain` is called once at
    /// most a period remains (then even a blocking plugin returns within about a period), and
    /// again on each call while the stream is draining, since I/O plugins without a drain of
    /// their own (BlueALSA) only advance inside that call.
    ///
    /// Closing a PulseAudio stream right after its queue ran dry can still cut what the server
    /// had mixed but not yet played (it rewinds the sink when a stream goes away); its own drain
    /// waits for that too, which is why it is still called at the end. If the stream ran dry
    /// (`XRUN`) before that (the thread woke late), the drain waits once more for the delay the
    /// device reported then, and is done. Frames queued below the start threshold (a sound
    /// shorter than the buffer) are started first.
    /// - Returns: `.done` once everything queued has played (or been handed on, by a plugin);
    ///   otherwise about how long is left.
    /// - Throws: `ALSAError` if the device fails or is unplugged (`ENODEV`).
    /// C: `snd_pcm_state`, `snd_pcm_delay`, `snd_pcm_avail`, `snd_pcm_start`, `snd_pcm_drain`.
    mutating func drain() throws(ALSAError) -> DrainProgress {
        switch snd_pcm_state(pcm) {
        case SND_PCM_STATE_RUNNING:
            let queued = try queuedFrames()
            if queued > periodFrames { return .pending(duration(ofFrames: queued - periodFrames)) }
            return try requestDrain()
        case SND_PCM_STATE_PREPARED:
            let available = snd_pcm_avail(pcm)
            guard available >= 0, available < bufferFrames else { return .done }  // nothing queued
            try ALSAError.check(snd_pcm_start(pcm), "snd_pcm_start")
            return .pending(duration(ofFrames: bufferFrames - available))
        case SND_PCM_STATE_DRAINING:
            return try requestDrain()
        case SND_PCM_STATE_XRUN:
            let left = drainedDry ? 0 : ((try? queuedFrames()) ?? 0)
            drainedDry = true
            return left > 0 ? .pending(duration(ofFrames: left)) : .done
        case SND_PCM_STATE_DISCONNECTED:
            throw ALSAError(code: ENODEV, function: "snd_pcm_drain")
        default:
            return .done  // SETUP (drained or dropped), SUSPENDED, OPEN
        }
    }

    /// Calls `snd_pcm_drain` once; `.done` when it finished, else the time the delay says is left.
    private mutating func requestDrain() throws(ALSAError) -> DrainProgress {
        let result = snd_pcm_drain(pcm)
        if result == 0 { return .done }
        if result != -EAGAIN { try ALSAError.check(result, "snd_pcm_drain") }
        let queued = (try? queuedFrames()) ?? 0
        return .pending(queued > 0 ? duration(ofFrames: queued) : .milliseconds(5))
    }

    /// The frames written but not yet heard; 0 once the stream ran dry (`EPIPE`).
    ///
    /// C: `snd_pcm_delay`.
    private func queuedFrames() throws(ALSAError) -> Int {
        var delay: snd_pcm_sframes_t = 0
        let result = snd_pcm_delay(pcm, &delay)
        if result == -EPIPE { return 0 }
        try ALSAError.check(result, "snd_pcm_delay")
        return max(0, delay)
    }

    private func duration(ofFrames frames: Int) -> Duration {
        .seconds(frames / sampleRate) + .seconds(frames % sampleRate) / sampleRate
    }

    /// Closes the device.
    ///
    /// C: `snd_pcm_close`.
    consuming func close() {}
}
