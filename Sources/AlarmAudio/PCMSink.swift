import Glibc

/// How far a non-blocking drain has come.
enum DrainProgress: Equatable {
    /// Every queued frame has been played (or handed on, for a plugin); the stream is stopped.
    case done
    /// Frames are still playing; about this much time is left.
    case pending(Duration)
}

/// An open, non-blocking playback stream of interleaved signed 16-bit samples.
///
/// The playback loop writes to it. ``PCMPlayback`` is the real one; tests substitute fakes that
/// script errors.
///
/// A sink is opened (created) by the loop's opener, used, and closed on one thread.
/// (`SendableMetatype`: the player hands the sink type to its playback thread; sinks themselves
/// never cross threads.)
protocol PCMSink: ~Copyable, SendableMetatype {
    /// The device buffer's length, in frames: how far writes can run ahead of what is heard.
    var bufferFrames: Int { get }

    /// Queues as many of `samples` as fit without blocking.
    /// - Parameter samples: Interleaved samples; a whole number of frames, at least one.
    /// - Returns: The number of frames accepted; 0 when the buffer is full (`EAGAIN`): wait with
    ///   ``pollDescriptors()`` and try again.
    /// - Throws: `ALSAError`; `EPIPE`, `ESTRPIPE` and `EINTR` can be fixed with ``recover(from:)``,
    ///   anything else means the device is gone.
    mutating func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> Int

    /// Repairs the stream after `EPIPE` (underrun), `ESTRPIPE` (suspend) or `EINTR`; does not block.
    /// - Parameter error: The error ``write(_:)`` threw.
    /// - Returns: `true` when the stream accepts writes again; `false` while the device is still
    ///   suspended (call again a little later).
    /// - Throws: `ALSAError` if the stream cannot be repaired, including any other error passed in.
    mutating func recover(from error: ALSAError) throws(ALSAError) -> Bool

    /// The descriptors to `poll` while the buffer is full, with their `events` set.
    /// - Throws: `ALSAError` if the device cannot tell.
    func pollDescriptors() throws(ALSAError) -> [pollfd]

    /// Whether, after `poll` filled in `revents` of the descriptors from ``pollDescriptors()``, a
    /// write would make progress (or report an error).
    /// - Parameter polled: The descriptors in the order ``pollDescriptors()`` gave them, with `revents`.
    /// - Returns: `true` if a write would accept frames or report an error.
    /// - Throws: `ALSAError` if the device cannot tell.
    func readyToWrite(after polled: [pollfd]) throws(ALSAError) -> Bool

    /// Stops at once, discarding every queued frame; does not block.
    /// - Throws: `ALSAError` if the device refuses (it is then closed anyway).
    mutating func drop() throws(ALSAError)

    /// Lets every queued frame play out without blocking; call again until it returns `.done`.
    /// - Returns: Whether draining has finished, or about how long it still takes.
    /// - Throws: `ALSAError` if the device fails while draining.
    mutating func drain() throws(ALSAError) -> DrainProgress

    /// Closes the stream; frames not yet drained are lost.
    consuming func close()
}
