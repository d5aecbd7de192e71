/// The ``LinePreparer`` of the shipped binary: this target's ``SpeechPreparer``
/// (libespeak-ng and libsamplerate, loaded with dlopen; its own thread; a 2 s bound).
///
/// Confined to the event loop's thread, as the preparer it wraps.
package final class SpeechLinePreparer: LinePreparer {
    /// The voice asked for when none is given: espeak-ng's English.
    package static let defaultVoice = "en"

    private let preparer: SpeechPreparer
    private var tickets: [SpeechPreparer.Ticket: UInt64] = [:]
    private var last: UInt64 = 0
    /// Lines asked for in a format the speech layer cannot make, answered at the next look.
    private var refused: [UInt64] = []
    private var refusedAt: ContinuousClock.Instant?

    /// - Parameter preparer: The speech layer's preparer (the real synthesiser by default).
    package init(_ preparer: SpeechPreparer = SpeechPreparer()) { self.preparer = preparer }

    package var descriptor: Int32 { preparer.descriptor }
    package var nextCheck: ContinuousClock.Instant? { refused.isEmpty ? preparer.nextCheck : refusedAt }

    package func prepare(_ text: String, voice: String?, sampleRate: Int, channels: Int, now: ContinuousClock.Instant)
        -> UInt64
    {
        last += 1
        guard let format = SpeechFormat(sampleRate: sampleRate, channels: channels) else {
            refused.append(last)
            refusedAt = now
            return last
        }
        tickets[preparer.prepare(text, voice: voice ?? Self.defaultVoice, format: format, now: now)] = last
        return last
    }

    package func results(at now: ContinuousClock.Instant) -> [(ticket: UInt64, outcome: LineOutcome)] {
        var outcomes: [(ticket: UInt64, outcome: LineOutcome)] = refused.map {
            ($0, .failed("the alarm's sound format cannot be spoken in"))
        }
        refused = []
        for (ticket, outcome) in preparer.results(at: now) {
            guard let number = tickets.removeValue(forKey: ticket) else { continue }
            switch outcome {
            case .ready(let audio): outcomes.append((number, .ready(audio.samples)))
            case .failed(.libraryMissing): outcomes.append((number, .libraryMissing(outcomeMessage(outcome))))
            case .failed(let error): outcomes.append((number, .failed(error.message)))
            }
        }
        return outcomes
    }

    private func outcomeMessage(_ outcome: SpeechPreparer.Outcome) -> String {
        if case .failed(let error) = outcome { return error.message }
        return ""
    }
}
