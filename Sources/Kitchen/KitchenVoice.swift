import AlarmAudio
import EventLoop
import Glibc
package import Speech
import TimerEngine

/// The kitchen's spoken answers (issue 28): lines asked of a ``LinePreparer`` and kept until the
/// kitchen plays them (Kitchen+Voice.swift).
///
/// Made off the event loop (the preparer's own thread, bounded in time), so a press is answered
/// without the loop ever waiting for speech; at most ``queueLimit`` lines wait, the oldest
/// dropped first (a burst of presses is answered by the newest). A source of the event loop (the
/// preparer's descriptor and next check); confined to the loop's thread.
package final class KitchenVoice: LoopSource {
    /// The most lines made and waiting to be played.
    static let queueLimit = 2

    /// The espeak-ng voice; nil for the default.
    let voice: String?
    private let preparer: any LinePreparer
    /// The lines asked for and not come back, by their ticket.
    private var asked: [UInt64: String] = [:]
    /// How long a line made may wait for a quiet moment (no timer ringing or due) before it is
    /// dropped: 5 s, time for an acknowledged alarm's last status to come.
    static let holdLimit = Duration.seconds(5)
    /// How often a waiting line looks again whether it may be played.
    static let holdCheck = Duration.milliseconds(100)

    /// Lines made and not played yet, oldest first: the words, interleaved S16 samples, and when
    /// it was first held back (nil: never).
    private var made: [(text: String, samples: [Int16], heldSince: ContinuousClock.Instant?)] = []
    /// When a held line looks again (``hold(_:at:)``); nil while none is held.
    private var recheck: ContinuousClock.Instant?
    /// Lines for the kitchen's log, taken by ``takeNotes()``.
    private var notes: [String] = []
    /// Whether the missing library was said (once per process).
    private var toldMissing = false

    /// - Parameters:
    ///   - voice: An espeak-ng voice name (``ValueRule/isValidVoice(_:)``); nil for the default.
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
    func takeLine() -> (text: String, samples: [Int16])? {
        recheck = nil
        guard !made.isEmpty else { return nil }
        let line = made[0]
        held = line.heldSince
        made.removeFirst()
        return (line.text, line.samples)
    }

    /// When the line last taken was first held back.
    private var held: ContinuousClock.Instant?

    /// Puts the line last taken back at the head, to be played once the kitchen is quiet, unless
    /// it has waited ``holdLimit`` already; a look is due ``holdCheck`` later.
    /// - Parameters:
    ///   - line: The line ``takeLine()`` returned last.
    ///   - now: The boot clock now.
    /// - Returns: Whether it was put back; false when it is too old (the caller says it is dropped).
    func hold(_ line: (text: String, samples: [Int16]), at now: ContinuousClock.Instant) -> Bool {
        let since = held ?? now
        guard now - since < Self.holdLimit else { return false }
        made.insert((line.text, line.samples, since), at: 0)
        recheck = now + Self.holdCheck
        return true
    }

    /// The log's lines gathered since the last call.
    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    var pollRequests: [PollRequest] {
        guard !asked.isEmpty, preparer.descriptor >= 0 else { return [] }
        return [PollRequest(descriptor: preparer.descriptor, events: Int16(POLLIN))]
    }

    var nextCheck: ContinuousClock.Instant? {
        [asked.isEmpty ? nil : preparer.nextCheck, recheck].compactMap { $0 }.min()
    }

    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        for (ticket, outcome) in preparer.results(at: now) {
            guard let text = asked.removeValue(forKey: ticket) else { continue }
            switch outcome {
            case .ready(let samples) where !samples.isEmpty:
                made.append((text, samples, nil))
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
