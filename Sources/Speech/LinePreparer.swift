/// What a ``LinePreparer`` made of one line.
package enum LineOutcome: Equatable, Sendable {
    /// The line as interleaved S16 samples in the format asked for, ready to play.
    case ready([Int16])
    /// No line, and why: one line for the user (a synthesis that failed or ran out of time).
    case failed(String)
    /// No line because the speech library is not installed: worth one warning per process.
    case libraryMissing(String)
}

/// Turns text into a spoken line in the alarm's format, off the event loop: the seam between the
/// timer and the speech layer (``SpeechLinePreparer`` over ``SpeechPreparer`` in production, a test double
/// in the tests).
///
/// The preparer works on a thread of its own and is bounded in time (a line not made within its
/// limit is ``LineOutcome/failed(_:)``); it reports through ``descriptor`` and ``nextCheck``, so
/// the loop never waits for it. Every ticket ``prepare(_:voice:sampleRate:channels:now:)``
/// returns gets exactly one outcome from ``results(at:)``, or none if the preparer is stuck (the
/// timer then rings plain: see the executable's `SpokenLine`).
///
/// Confined to the event loop's thread.
package protocol LinePreparer: AnyObject {
    /// Readable (`POLLIN`) when outcomes wait in ``results(at:)``; -1 for none (then
    /// ``nextCheck`` brings the look).
    var descriptor: Int32 { get }
    /// When ``results(at:)`` must be called even if ``descriptor`` stays quiet (boot clock); nil:
    /// only when it is readable.
    var nextCheck: ContinuousClock.Instant? { get }
    /// Asks for `text` spoken in `voice`, converted to `sampleRate` Hz and `channels`; returns at once.
    /// - Parameters:
    ///   - text: The words, valid by the command line's `--say` rule (`Options.isValidSay`).
    ///   - voice: An espeak-ng voice name (the command line's `Options.isValidVoice`); nil for the default.
    ///   - sampleRate: The alarm's rate, in Hz.
    ///   - channels: The alarm's samples per frame, 1 or 2.
    ///   - now: The boot clock now: the time bound runs from here.
    /// - Returns: The ticket its outcome will carry.
    func prepare(_ text: String, voice: String?, sampleRate: Int, channels: Int, now: ContinuousClock.Instant)
        -> UInt64
    /// Takes the outcomes decided by `now`, oldest first; never blocks.
    func results(at now: ContinuousClock.Instant) -> [(ticket: UInt64, outcome: LineOutcome)]
}
