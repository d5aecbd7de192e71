import CAlsa
import Glibc
import SystemKit

/// An open ALSA capture stream of mono signed 16-bit samples, read in blocking calls; sole owner
/// of its `snd_pcm_t` (issue 46: the kitchen's microphone).
///
/// Meant for a thread of its own (the kitchen's listener): ``read(into:)`` blocks until samples
/// come or ``stallLimit`` passes. Not thread-safe: create, use and drop it on one thread.
/// Dropping it closes the device.
public struct CaptureDevice: ~Copyable {
    /// How long a read waits for the device before it calls it stalled: 2 s.
    public static let stallLimit = Duration.seconds(2)
    /// How many reads in a row may hand back the very same samples before the device is called
    /// stalled: 10.
    ///
    /// Samples that are all zero do not count (a muted input). No microphone repeats its noise
    /// exactly; alsa-lib's `file` plugin at the end of its input hands back its last buffer again
    /// and again, as fast as it is read (a tester's listener spun a core on it).
    public static let repeatLimit = 10

    private let pcm: OpaquePointer
    /// The last read's samples, and how many reads in a row handed them back.
    private var lastRead: [Int16] = []
    private var repeatedReads = 0

    /// Opens `device` for capture, mono S16 at `sampleRate`, resampled and mixed down by alsa-lib
    /// when the device needs it.
    ///
    /// Blocks for as long as the device takes to open; any thread, which then owns the device.
    /// - Parameters:
    ///   - device: An ALSA PCM name, for example `"default"`, `"plughw:CARD=Device"` or a
    ///     `~/.asoundrc` definition.
    ///   - sampleRate: Frames per second, in Hz (16 000 for the recogniser).
    ///   - latency: The buffer length to ask for; a read waits for a period of about a quarter
    ///     of it.
    /// - Throws: ``CaptureError`` naming the alsa-lib call and its reason when the device cannot
    ///   be opened or does not take the format.
    /// C: `snd_pcm_open`, `snd_pcm_set_params`.
    public init(device: String, sampleRate: Int, latency: Duration = .milliseconds(400)) throws(CaptureError) {
        precondition(sampleRate > 0 && latency > .zero, "sample rate and latency must be positive")
        var handle: OpaquePointer?
        do {
            try ALSAError.check(snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, 0), "snd_pcm_open")
        } catch {
            throw CaptureError(error)
        }
        guard let handle else { throw CaptureError(ALSAError(code: ENODEV, function: "snd_pcm_open")) }
        do {
            try ALSAError.check(
                snd_pcm_set_params(
                    handle, SND_PCM_FORMAT_S16, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1,
                    UInt32(clamping: max(latency.wholeMicroseconds(), 1))),
                "snd_pcm_set_params")
        } catch {
            snd_pcm_close(handle)  // self is not initialised yet, so deinit will not run
            throw CaptureError(error)
        }
        pcm = handle
    }

    deinit { snd_pcm_close(pcm) }

    /// Reads the samples that came, up to `buffer.count`, into the front of `buffer`.
    ///
    /// Blocks until at least one frame came or ``stallLimit`` passed. An overrun (the reader
    /// came too late, samples were lost) is recovered and the read goes on. More than
    /// ``repeatLimit`` reads in a row of the very same samples are a stalled device.
    /// - Parameter buffer: Where the samples go; its length is the most read at once.
    /// - Returns: The frames read, at least 1.
    /// - Throws: ``CaptureError``: the device stalled (nothing for ``stallLimit``, or the same
    ///   samples again and again), was unplugged (`ENODEV`) or failed otherwise.
    /// C: `snd_pcm_wait`, `snd_pcm_readi`, `snd_pcm_recover`.
    public mutating func read(into buffer: inout [Int16]) throws(CaptureError) -> Int {
        precondition(!buffer.isEmpty, "nothing to read into")
        let waitMilliseconds = Int32(Self.stallLimit / .milliseconds(1))
        for _ in 0..<8 {
            let ready = snd_pcm_wait(pcm, waitMilliseconds)
            if ready == 0 { throw CaptureError(stalledFor: Self.stallLimit) }
            let result =
                ready < 0
                ? Int(ready)
                : buffer.withUnsafeMutableBufferPointer { samples in
                    snd_pcm_readi(pcm, samples.baseAddress, snd_pcm_uframes_t(samples.count))
                }
            if result > 0 {
                try checkRepeats(buffer[0..<result])
                return result
            }
            if result == 0 || result == -Int(EAGAIN) { continue }
            do {
                try ALSAError.check(snd_pcm_recover(pcm, Int32(clamping: result), 1), "snd_pcm_readi")
            } catch {
                throw CaptureError(error)
            }
        }
        throw CaptureError(stalledFor: Self.stallLimit)
    }

    /// Counts reads of the very same samples in a row; throws at ``repeatLimit``.
    private mutating func checkRepeats(_ samples: ArraySlice<Int16>) throws(CaptureError) {
        if samples.count == lastRead.count, samples.elementsEqual(lastRead), samples.contains(where: { $0 != 0 }) {
            repeatedReads += 1
            if repeatedReads >= Self.repeatLimit {
                repeatedReads = 0
                throw CaptureError(repeating: Self.repeatLimit)
            }
        } else {
            (lastRead, repeatedReads) = (Array(samples), 0)
        }
    }
}

/// Why a capture device cannot be opened or read: one line (``description``).
public struct CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line, for example `snd_pcm_open: No such file or directory`.
    public let description: String

    init(_ error: ALSAError) { description = "\(error.function): \(error.message)" }

    init(stalledFor limit: Duration) {
        description = "no samples for \(limit.components.seconds) s: the device stalled"
    }

    init(repeating reads: Int) {
        description = "the same samples \(reads) times in a row: the device stalled (its input ended?)"
    }
}
