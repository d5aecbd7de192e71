import AlarmAudio
import Glibc

/// The line a timer speaks at the head of each ringing: asked for once, at start, from a
/// ``LinePreparer``, and handed to the ``AlarmPlayer`` as its lead when it comes.
///
/// The timing rule: the line is asked for when the timer starts (a recovered one: when it is
/// started again), not near the deadline, so it is ready minutes before it is needed; a pause, a
/// resume, an `add` or a snooze changes nothing about it (the same frames play at every
/// ringing). The alarm never waits for it: a ringing that starts while the line is not ready
/// (the preparer is slow or stuck) rings plain, with one line said; a line that fails is one
/// line and the plain alarm; a missing speech library one warning. A line that comes after a
/// ringing started is played from the next ringing on (after a snooze).
///
/// A source of the event loop (the preparer's descriptor and next check). Confined to the loop's
/// thread.
final class SpokenLine: LoopSource {
    /// Where the line is.
    enum Stage: Equatable {
        /// Not asked for yet.
        case idle
        /// Asked for: the ticket its outcome carries.
        case waiting(UInt64)
        /// Handed to the player.
        case ready
        /// No line: the plain alarm.
        case failed
    }

    let text: String
    let voice: String?
    private let preparer: any LinePreparer
    private let player: AlarmPlayer
    private let sampleRate: Int
    private let channels: Int
    private(set) var stage = Stage.idle
    /// Lines for the user (standard error, or the screen's messages), taken by ``takeNotes()``.
    private var notes: [String] = []
    /// Whether a ringing was said to start without the line.
    private var toldLate = false
    /// The ringing started without the line and not sounding yet (a timer shorter than the
    /// device's early open): when it sounds and its passes, so a line that comes in time
    /// restarts it with the line at the same instant.
    private var lateRinging: (at: ContinuousClock.Instant, loops: Int?)?
    /// How long before the deadline a late line may still restart the ringing: time for the
    /// player to open the device again (a busy one is asked again every 200 ms).
    static let restartMargin = Duration.milliseconds(400)

    /// - Parameters:
    ///   - text: The words (valid by ``Options/isValidSay(_:)``).
    ///   - voice: The espeak-ng voice; nil for the default.
    ///   - sound: The alarm's sound: the line is asked for in its rate and channels.
    ///   - preparer: Makes the line.
    ///   - player: Gets the line as its ``AlarmPlayer/lead``.
    init(text: String, voice: String?, sound: AlarmSound, preparer: any LinePreparer, player: AlarmPlayer) {
        (self.text, self.voice, self.preparer, self.player) = (text, voice, preparer, player)
        (sampleRate, channels) = (sound.sampleRate, sound.channels)
    }

    /// Asks the preparer for the line (once; later calls do nothing).
    /// - Parameter now: The boot clock now.
    func request(at now: ContinuousClock.Instant) {
        guard stage == .idle else { return }
        stage = .waiting(preparer.prepare(text, voice: voice, sampleRate: sampleRate, channels: channels, now: now))
    }

    /// Called just before a ringing starts: says once that it rings without the line if it is
    /// not ready and the ringing sounds within ``restartMargin`` (a later one may still be started
    /// again with it: ``service(_:at:into:)``).
    ///
    /// Never waits: the ringing takes whatever lead the player has now.
    /// - Parameters:
    ///   - at: When the ringing sounds (boot clock).
    ///   - loops: Its passes, as the player's start takes them.
    ///   - now: The boot clock now.
    func alarmStarting(at: ContinuousClock.Instant, loops: Int?, now: ContinuousClock.Instant) {
        guard case .waiting = stage else { return }
        if now < at - Self.restartMargin {
            lateRinging = (at, loops)
            return
        }
        tellLate()
    }

    /// Says once that a ringing sounds without the line.
    private func tellLate() {
        guard !toldLate else { return }
        toldLate = true
        notes.append("the spoken line was not ready when the alarm started: it rings without it")
    }

    /// The ringing was stopped (acknowledged, paused, snoozed): a late line no longer restarts it.
    func alarmStopped() { lateRinging = nil }

    /// The user's lines gathered since the last call.
    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    var pollRequests: [PollRequest] {
        guard case .waiting = stage, preparer.descriptor >= 0 else { return [] }
        return [PollRequest(descriptor: preparer.descriptor, events: Int16(POLLIN))]
    }

    var nextCheck: ContinuousClock.Instant? {
        guard case .waiting = stage else { return nil }
        return preparer.nextCheck
    }

    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        guard case .waiting(let ticket) = stage else { return }
        for (number, outcome) in preparer.results(at: now) where number == ticket {
            switch outcome {
            case .ready(let samples) where !samples.isEmpty && samples.count % channels == 0:
                player.lead = samples
                stage = .ready
                if let late = lateRinging, now < late.at - Self.restartMargin {
                    // Not sounding yet: started again with the line, at the same instant.
                    player.start(at: late.at, loops: late.loops, now: now)
                } else {
                    if lateRinging != nil { tellLate() }
                    if toldLate { notes.append("the spoken line is ready: the next ringing starts with it") }
                }
                lateRinging = nil
            case .ready:
                lateRinging = nil
                stage = .failed
                notes.append("the spoken line came back empty or in pieces: the alarm rings without it")
            case .failed(let reason):
                lateRinging = nil
                stage = .failed
                notes.append("cannot speak the line: \(reason); the alarm rings without it")
            case .libraryMissing(let reason):
                lateRinging = nil
                stage = .failed
                notes.append("warning: \(reason); the alarm rings without the spoken line")
            }
        }
    }
}
