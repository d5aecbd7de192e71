import AlarmAudio
import EventLoop
import Glibc
import Speech
import TimerEngine

/// The line a timer speaks at the head of each ringing: asked for once, at start, from a
/// ``LinePreparer``, and handed to the ``AlarmPlayer`` as its lead when it comes, followed by
/// ``pause`` of silence before the loop.
///
/// The timing rule: the line is asked for when the timer starts (a recovered one: when it is
/// started again), not near the deadline, so it is ready minutes before it is needed; a pause, a
/// resume, an `add` or a snooze changes nothing about it (the same frames play at every
/// ringing). The alarm never waits for it: a ringing that starts while the line is not ready
/// (the preparer is slow or stuck) rings plain, with one line said; a line that fails is one
/// line and the plain alarm; a missing speech library one warning. A line that comes after a
/// ringing started is played from the next ringing on (after a snooze). A pomodoro has a line
/// per kind of ringing (``RingLine``: "Break time", "Long break", "Back to work"), all asked for
/// at start; each ringing is handed its own.
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

    /// The words of each line, by the ringing it starts (``RingLine``); a ringing whose line is
    /// not here speaks ``RingLine/ready``'s, if any (`--say` for every ringing of a pomodoro).
    let texts: [RingLine: String]
    let voice: String?
    private let preparer: any LinePreparer
    private let player: AlarmPlayer
    private let sampleRate: Int
    private let channels: Int
    /// Where each line is.
    private(set) var stages: [RingLine: Stage] = [:]
    /// The samples of each line made.
    private var made: [RingLine: [Int16]] = [:]
    /// The line the last ringing started with (its key in ``texts``).
    private var current: RingLine?
    /// Lines for the user (standard error, or the screen's messages), taken by ``takeNotes()``.
    private var notes: [String] = []
    /// Whether a ringing was said to start without the line.
    private var toldLate = false
    /// Whether the missing speech library was said (once, however many lines).
    private var toldMissing = false
    /// The ringing started without the line and not sounding yet (a timer shorter than the
    /// device's early open): when it sounds, its passes and its line, so a line that comes in
    /// time restarts it with the line at the same instant.
    private var lateRinging: (at: ContinuousClock.Instant, loops: Int?, line: RingLine)?
    /// How long before the deadline a late line may still restart the ringing: time for the
    /// player to open the device again (a busy one is asked again every 200 ms).
    static let restartMargin = Duration.milliseconds(400)
    /// The silence between the spoken line and the alarm loop: 400 ms (issue 37).
    ///
    /// Part of the lead, so the line still starts at the deadline and the loop follows the pause
    /// in the same stream. Without it the alarm's first frame came with the line's last: a pause
    /// about as long as one between spoken sentences lets the words end before the alarm covers
    /// them (deleting pauses from clearly spoken sentences lowered their intelligibility: Uchanski
    /// et al. 1996, JSLHR 39:494–509; see `SpeechSynthesizer.wordsPerMinute`).
    static let pause = Duration.milliseconds(400)
    /// ``pause`` in interleaved samples of the alarm's format: 17 640 frames at 44.1 kHz.
    private var pauseSamples: Int { Int(Self.pause / .milliseconds(1)) * sampleRate / 1000 * channels }

    /// - Parameters:
    ///   - texts: The words of each line (valid by ``Options/isValidSay(_:)``), by the ringing it
    ///     starts; not empty.
    ///   - voice: The espeak-ng voice; nil for the default.
    ///   - sound: The alarm's sound: the lines are asked for in its rate and channels.
    ///   - preparer: Makes the lines.
    ///   - player: Gets the ringing's line as its ``AlarmPlayer/lead``.
    init(
        texts: [RingLine: String], voice: String?, sound: AlarmSound, preparer: any LinePreparer, player: AlarmPlayer
    ) {
        (self.texts, self.voice, self.preparer, self.player) = (texts, voice, preparer, player)
        (sampleRate, channels) = (sound.sampleRate, sound.channels)
    }

    /// One line for every ringing (`--say`, a timer's `--announce`).
    convenience init(text: String, voice: String?, sound: AlarmSound, preparer: any LinePreparer, player: AlarmPlayer) {
        self.init(texts: [.ready: text], voice: voice, sound: sound, preparer: preparer, player: player)
    }

    /// The words of the timer's own line (``RingLine/ready``), if it has one.
    var text: String? { texts[.ready] }

    /// Where the line of ``RingLine/ready`` is (the only one but for a pomodoro's).
    var stage: Stage { stages[.ready] ?? .idle }

    /// The key in ``texts`` of the line a ringing of `line` speaks.
    private func key(_ line: RingLine) -> RingLine { texts[line] == nil ? .ready : line }

    /// Asks the preparer for every line (once; later calls do nothing), in a fixed order.
    /// - Parameter now: The boot clock now.
    func request(at now: ContinuousClock.Instant) {
        let order: [RingLine] = [.ready, .breakTime(long: false), .breakTime(long: true), .backToWork]
        for line in order where (stages[line] ?? .idle) == .idle {
            guard let text = texts[line] else { continue }
            stages[line] = .waiting(
                preparer.prepare(text, voice: voice, sampleRate: sampleRate, channels: channels, now: now))
        }
    }

    /// Called just before a ringing starts: hands the player the line it starts with, or none if
    /// that one is not ready; then says once that it rings without the line if the ringing sounds
    /// within ``restartMargin`` (a later one may still be started again with it:
    /// ``service(_:at:into:)``).
    ///
    /// Never waits: the ringing takes whatever lead the player has now.
    /// - Parameters:
    ///   - at: When the ringing sounds (boot clock).
    ///   - loops: Its passes, as the player's start takes them.
    ///   - line: The line it starts with (``Effect/startAlarm(at:loops:line:)``).
    ///   - now: The boot clock now.
    func alarmStarting(at: ContinuousClock.Instant, loops: Int?, line: RingLine = .ready, now: ContinuousClock.Instant)
    {
        let line = key(line)
        current = line
        player.lead = made[line] ?? []
        lateRinging = nil
        guard case .waiting? = stages[line] else { return }
        if now < at - Self.restartMargin {
            lateRinging = (at, loops, line)
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

    /// Whether any line is still being made.
    private var isWaiting: Bool {
        stages.values.contains {
            if case .waiting = $0 { return true }
            return false
        }
    }

    var pollRequests: [PollRequest] {
        guard isWaiting, preparer.descriptor >= 0 else { return [] }
        return [PollRequest(descriptor: preparer.descriptor, events: Int16(POLLIN))]
    }

    var nextCheck: ContinuousClock.Instant? { isWaiting ? preparer.nextCheck : nil }

    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        for (number, outcome) in preparer.results(at: now) {
            guard let line = stages.first(where: { $0.value == .waiting(number) })?.key else { continue }
            let late = lateRinging?.line == line ? lateRinging : nil
            if late != nil { lateRinging = nil }
            switch outcome {
            case .ready(let spoken) where !spoken.isEmpty && spoken.count % channels == 0:
                let samples = spoken + [Int16](repeating: 0, count: pauseSamples)
                made[line] = samples
                stages[line] = .ready
                guard current == line else { continue }
                player.lead = samples
                if let late, now < late.at - Self.restartMargin {
                    // Not sounding yet: started again with the line, at the same instant.
                    player.start(at: late.at, loops: late.loops, now: now)
                } else {
                    if late != nil { tellLate() }
                    if toldLate { notes.append("the spoken line is ready: the next ringing starts with it") }
                }
            case .ready:
                stages[line] = .failed
                notes.append("the spoken line came back empty or in pieces: the alarm rings without it")
            case .failed(let reason):
                stages[line] = .failed
                notes.append("cannot speak the line: \(reason); the alarm rings without it")
            case .libraryMissing(let reason):
                stages[line] = .failed
                // One warning: every other line fails for the same reason.
                if !toldMissing { notes.append("warning: \(reason); the alarm rings without the spoken line") }
                toldMissing = true
            }
        }
    }
}
