import AlarmAudio
import Glibc

/// The kitchen's spoken answers (issue 28): lines asked of a ``LinePreparer`` and kept until the
/// kitchen plays them (Kitchen+Voice.swift).
///
/// Made off the event loop (the preparer's own thread, bounded in time), so a press is answered
/// without the loop ever waiting for speech; at most ``queueLimit`` lines wait, the oldest
/// dropped first (a burst of presses is answered by the newest). A source of the event loop (the
/// preparer's descriptor and next check); confined to the loop's thread.
final class KitchenVoice: LoopSource {
    /// The most lines made and waiting to be played.
    static let queueLimit = 2

    /// The espeak-ng voice; nil for the default.
    let voice: String?
    private let preparer: any LinePreparer
    /// The lines asked for and not come back, by their ticket.
    private var asked: [UInt64: String] = [:]
    /// Lines made and not played yet, oldest first: the words and interleaved S16 samples.
    private var made: [(text: String, samples: [Int16])] = []
    /// Lines for the kitchen's log, taken by ``takeNotes()``.
    private var notes: [String] = []
    /// Whether the missing library was said (once per process).
    private var toldMissing = false

    /// - Parameters:
    ///   - voice: An espeak-ng voice name (``Options/isValidVoice(_:)``); nil for the default.
    ///   - preparer: Makes the lines.
    init(voice: String?, preparer: any LinePreparer) { (self.voice, self.preparer) = (voice, preparer) }

    /// Asks for `text` in the alarm's format; returns at once.
    /// - Parameters:
    ///   - text: The words.
    ///   - sound: The sound whose rate and channels the line is made in (the device's format).
    ///   - now: The boot clock now.
    func ask(_ text: String, in sound: AlarmSound, at now: ContinuousClock.Instant) {
        let ticket = preparer.prepare(
            text, voice: voice, sampleRate: sound.sampleRate, channels: sound.channels, now: now)
        asked[ticket] = text
    }

    /// The oldest line made and not played, if any; taken.
    func takeLine() -> (text: String, samples: [Int16])? { made.isEmpty ? nil : made.removeFirst() }

    /// The log's lines gathered since the last call.
    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    var pollRequests: [PollRequest] {
        guard !asked.isEmpty, preparer.descriptor >= 0 else { return [] }
        return [PollRequest(descriptor: preparer.descriptor, events: Int16(POLLIN))]
    }

    var nextCheck: ContinuousClock.Instant? { asked.isEmpty ? nil : preparer.nextCheck }

    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        for (ticket, outcome) in preparer.results(at: now) {
            guard let text = asked.removeValue(forKey: ticket) else { continue }
            switch outcome {
            case .ready(let samples) where !samples.isEmpty:
                made.append((text, samples))
                if made.count > Self.queueLimit { made.removeFirst() }
            case .ready: notes.append("voice: '\(text)' came back empty: not said")
            case .failed(let reason): notes.append("voice: cannot say '\(text)': \(reason)")
            case .libraryMissing(let reason):
                if !toldMissing { notes.append("voice: warning: \(reason); the kitchen answers in its log only") }
                toldMissing = true
            }
        }
    }
}
