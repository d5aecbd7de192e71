import AlarmAudio
import ControlChannel
import Speech
import TimerModel

// The kitchen's answers by voice (issue 28): a keypad's start ("Soft egg, five minutes"), its
// report ("Pasta: three minutes forty left", "Nothing is running") and its cancel ("Cancelled"),
// spoken through the kitchen's own device as the speaker test is, in the config's voice. Never
// while a followed timer rings nor within 2 s of a deadline (the line is then only logged), so
// the kitchen never holds a device a timer needs.
extension Kitchen {
    /// How close to a followed timer's deadline the kitchen says nothing, in milliseconds, on
    /// top of the line's own length (issue 26: nothing of the kitchen's within 2 s of one).
    static let quietMargin: Int64 = 2000

    /// The phrases in the voice's language (English, or German for a `de` voice).
    var phrases: Phrasebook { Phrasebook(voice: options.voice ?? SpeechLinePreparer.defaultVoice) }

    /// Asks for `text` to be said (once made, after the loop's round: ``voiceRound()``); the log
    /// has the line in any case.
    func speak(_ text: String) {
        guard let voice, let sound = kitchenSound() else { return }
        voice.ask(text, in: sound, at: clock.now())
    }

    /// A keypad start's answer: the started timer's label and length.
    func answer(_ outcome: KitchenCore.Outcome) {
        guard case .started(let status) = outcome else { return }
        // Its time left as the countdown shows it, in whole seconds rounded up: 5:00, not 4:59.9.
        let shown = Duration.seconds((status.remaining + .milliseconds(999)).components.seconds)
        speak(phrases.started(status.label, duration: shown))
    }

    /// The keypad's report spoken: what runs, newest first, or that nothing does.
    func speakReport() {
        let counting = newestTimers.filter { $0.state == .counting || $0.state == .paused }
        speak(
            counting.isEmpty
                ? phrases.nothingRunning
                : counting.map { phrases.left($0.label, remaining: $0.remaining) }.joined(separator: ". "))
    }

    /// After each round of the loop: the voice's log lines, then the oldest line made, played
    /// when the kitchen's player is free and no followed timer rings or is due within
    /// ``quietMargin`` plus the line's length (else it is dropped with one line).
    func voiceRound() {
        guard let voice else { return }
        for note in voice.takeNotes() { say(note) }
        guard speakerTest == nil, let line = voice.takeLine(), let sound = alarmSound else { return }
        let frames = line.samples.count / max(sound.channels, 1)
        let length = Int64(frames) * 1000 / Int64(max(sound.sampleRate, 1))
        if core.timers.values.contains(where: { $0.state.isRinging }) {
            return say("voice: '\(line.text)' not said: a timer rings")
        }
        if timerDue(within: Self.quietMargin + length) {
            return say("voice: '\(line.text)' not said: a timer is due within 2 s")
        }
        let speech = AlarmSound(samples: line.samples, sampleRate: sound.sampleRate, channels: sound.channels)
        let now = clock.now()
        play(
            speech, loudness: Loudness(volumePercent: options.volume, rampFrames: 0), as: "voice: '\(line.text)'",
            at: now)
        say("voice: saying '\(line.text)'")
    }
}
