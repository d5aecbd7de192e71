import AlarmAudio
import ControlChannel
import Glibc
import Speech
import TimerCore
import TimerModel

// The kitchen's answers by voice (issue 28): every keypad press is answered, a start ("Soft egg,
// five minutes"; "Not started"), the report ("Pasta: three minutes forty left", "Nothing is
// running"), an acknowledge ("Pasta stopped"; "Nothing is ringing"), a snooze ("Snoozed for ten
// minutes"), a minute more or less ("Pasta: four minutes left"), a cancel ("Pasta is cancelled in
// three seconds", "Not cancelled", "Cancelled"); the speaker test is its own answer. Spoken
// through the kitchen's own device as the speaker test is, in the config's voice. Never while a
// followed timer rings nor within 2 s of a deadline: a line made then waits up to
// ``KitchenVoice/holdLimit`` for that to pass (an acknowledged alarm's last status comes a moment
// after the answer), else is only logged; so the kitchen never holds a device a timer needs.
extension Kitchen {
    /// How close to a followed timer's deadline the kitchen says nothing, in milliseconds, on
    /// top of the line's own length (issue 26: nothing of the kitchen's within 2 s of one).
    static let quietMargin: Int64 = 2000

    /// The phrases in the voice's language (English, or German for a `de` voice).
    var phrases: Phrasebook { Phrasebook(voice: settings.voice ?? SpeechLinePreparer.defaultVoice) }

    /// Asks for `text` to be said (once made, after the loop's round: ``voiceRound()``); the log
    /// has the line in any case.
    func speak(_ text: String) {
        guard let voice, let sound = kitchenSound() else { return }
        voice.ask(text, in: sound, at: clock.now())
    }

    /// A keypad start's answer: the started timer's label and length, or that it was not started
    /// and why (issue 42: the refusal reaches the one who asked).
    func answer(_ outcome: KitchenCore.Outcome) {
        if case .refused(let refusal) = outcome {
            switch refusal.kind {
            case .busy: return speak(phrases.notStarted(.full(core.maxTimers)))
            case .usage: return speak(phrases.notStarted(.refused))
            default: return speak(phrases.notStarted(.failed))
            }
        }
        guard case .started(let status) = outcome else { return }
        // Its time left as the countdown shows it, in whole seconds rounded up: 5:00, not 4:59.9.
        let shown = Duration.seconds((status.remaining + .milliseconds(999)).components.seconds)
        // A timer named by its length (`5min`) is not read out as "five min, five minutes".
        let named = (try? DurationParser.parse(status.label)) == nil
        speak(named ? phrases.started(status.label, duration: shown) : phrases.started(duration: shown))
    }

    /// The keypad's report spoken: what runs, newest first, or that nothing does.
    func speakReport() {
        let now = wallMilliseconds()
        let counting = newestTimers.filter { $0.state == .counting || $0.state == .paused }
        speak(
            counting.isEmpty
                ? phrases.nothingRunning
                : counting.map {
                    phrases.left($0.label, remaining: Self.timeLeft($0, atWall: now), paused: $0.state == .paused)
                }
                .joined(separator: ". "))
    }

    /// The answer to the acknowledge or snooze press: what the timers that did it said (nil: none
    /// rang, so "Nothing is ringing"; empty: none answered, nothing said).
    ///
    /// An acknowledgement names every timer it stopped and those whose alarm never reached a
    /// speaker (issue 37, ``KitchenCore/stopped(label:before:reply:)``): one `key: …` line
    /// (``KitchenCore/stoppedText(_:)``) and the same sentence spoken.
    /// - Parameters:
    ///   - command: `.acknowledge` or `.snooze`.
    ///   - done: Each timer's label and reply (`ok` and its status after the command).
    ///   - before: The followed timers' statuses at the press, by label.
    ///   - prefix: The front's prefix of the line (`key: `, `listen: `).
    func answerRinging(
        _ command: Command, _ done: [(label: String, reply: String)]?, before: [String: TimerStatus] = [:],
        prefix: String = "key: "
    ) {
        guard let done else { return speak(phrases.nothingRinging) }
        guard !done.isEmpty else { return }
        if case .snooze = command {
            speak(phrases.snoozed(for: done.lazy.compactMap { TimerStatus(line: $0.reply)?.remaining }.first))
        } else {
            let stopped = done.map { KitchenCore.stopped(label: $0.label, before: before[$0.label], reply: $0.reply) }
            if let text = KitchenCore.stoppedText(stopped) { say(prefix + text) }
            speak(phrases.stopped(stopped.map(\.label), silent: stopped.filter(\.silent).map(\.label)))
        }
    }

    /// The answer to a minute more or less: the timer's time left now, from its reply.
    /// - Parameter reply: The timer's reply (`ok` and its status after the change).
    func answerMoved(_ reply: String) {
        guard let status = TimerStatus(line: reply) else { return }
        speak(phrases.left(status.label, remaining: status.remaining))
    }

    /// After each round of the loop: the voice's log lines, then the oldest line made, played
    /// when the kitchen's player is free and no followed timer rings or is due within
    /// ``quietMargin`` plus the line's length; otherwise it waits (``KitchenVoice/hold(_:at:)``)
    /// and is dropped with one line once older than ``KitchenVoice/holdLimit``.
    func voiceRound() {
        guard let voice else { return }
        for note in voice.takeNotes() { say(note) }
        guard speakerTest == nil, let line = voice.takeLine(), let sound = alarmSound else { return }
        if let label = unheardLines[line.text] {
            // Said only while that timer still rings unheard (found by a tester: said after its ack).
            guard timers.values.contains(where: { $0.label == label && $0.state == .silent }) else {
                unheardLines[line.text] = nil
                return say("voice: '\(line.text)' not said: \(label) no longer rings silent")
            }
        }
        let frames = line.samples.count / max(sound.channels, 1)
        let length = Int64(frames) * 1000 / Int64(max(sound.sampleRate, 1))
        let now = clock.now()
        let quiet = Self.quietReason(
            timers: core.timers.values, wallMilliseconds: wallMilliseconds(), lineMilliseconds: length)
        if let quiet {
            if voice.hold(line, at: now) { return }
            return say("voice: '\(line.text)' not said: \(quiet)")
        }
        let speech = AlarmSound(samples: line.samples, sampleRate: sound.sampleRate, channels: sound.channels)
        play(
            speech, loudness: Loudness(volumePercent: settings.volume, rampFrames: 0), as: "voice: '\(line.text)'",
            at: now)
        unheardLines[line.text] = nil
        say("voice: saying '\(line.text)'")
    }

    /// Why the kitchen may not speak now, or nil when it may: a followed timer rings on its
    /// device, or one not over yet has its deadline within ``quietMargin`` plus the line's length
    /// of `now`, before or after it (an acknowledged or cancelled one needs no device).
    ///
    /// A timer ringing `silent` holds no quiet at all (issue 37): its alarm reaches no device, and
    /// the kitchen's line ("Pasta is ringing but cannot reach its speaker") is then the only
    /// sound (a deadline window after it dropped the line for longer labels: found by a tester).
    ///
    /// Pure: the wall clock comes in (``wallMilliseconds``, injected by tests).
    /// - Parameters:
    ///   - timers: The followed timers' latest statuses (their deadlines range-checked when parsed).
    ///   - now: The wall clock now, in milliseconds since the Unix epoch.
    ///   - lineMilliseconds: The line's length, in milliseconds, 0 or more.
    /// - Returns: The reason, for the log ("a timer rings", "a timer is due within 2 s"), or nil.
    static func quietReason(
        timers: some Sequence<TimerStatus>, wallMilliseconds now: Int64, lineMilliseconds: Int64
    ) -> String? {
        let margin = quietMargin + min(max(0, lineMilliseconds), 3_600_000)
        var due = false
        for status in timers {
            if status.state == .ringing { return "a timer rings" }
            guard !status.state.isFinal, status.state != .silent, let deadline = status.deadlineUnixMilliseconds
            else { continue }
            let (distance, overflow) = deadline.subtractingReportingOverflow(now)
            if overflow || distance.magnitude < UInt64(margin) { due = true }
        }
        return due ? "a timer is due within 2 s" : nil
    }

    /// The wall clock (CLOCK_REALTIME) now, in milliseconds since the Unix epoch.
    ///
    /// The clock the timers' deadlines are given on. Never blocks. C: `clock_gettime`.
    static func systemWallMilliseconds() -> Int64 {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return Int64(wall.tv_sec) * 1000 + Int64(wall.tv_nsec) / 1_000_000
    }
}
