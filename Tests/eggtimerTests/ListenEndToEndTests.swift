import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing

/// Issue 46 end to end.
///
/// The real `eggtimer kitchen --listen mic` hears commands spoken by
/// espeak-ng through an ALSA capture device that reads a FIFO (``Microphone``), recognises them
/// with the real PocketSphinx, and acts and answers as the keypad does: timers started, paused,
/// resumed, stopped and cancelled, and the spoken answers made and played into the house's file
/// PCM. Every wait is on the kitchen's log or a timer's state, never a sleep: a command the
/// kitchen must not act on is followed by one it must, whose line comes after.
@Suite struct ListenEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// A house, its microphone and its kitchen listening on `mic`, once it listens.
    private func listening(
        _ arguments: [String] = [], config: String = ""
    ) throws -> (house: House, microphone: Microphone, kitchen: PipedChild) {
        let house = House(config: config)
        let microphone = try Microphone()
        let kitchen = PipedChild(
            ["kitchen", "--keys", "none", "--listen", "mic"] + arguments,
            environment: house.environment.merging(microphone.environment) { _, new in new })
        #expect(kitchen.expect("kitchen: listening on", until: soon()), "\(kitchen.stdout)")
        return (house, microphone, kitchen)
    }

    /// Says `text` into the microphone and waits for `wanted` in the kitchen's log after it.
    private func say(
        _ text: String, to microphone: Microphone, _ kitchen: PipedChild, corpus: SpokenCorpus, until wanted: String
    ) throws -> Bool {
        let offset = kitchen.stdout.count
        try microphone.hear(corpus.samples(text, voice: "en-us", wordsPerMinute: 150))
        return kitchen.expect(wanted, after: offset, until: soon())
    }

    private func stop(_ kitchen: PipedChild) {
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// "Egg timer, soft egg" starts the soft egg and is answered by voice; "no" right after the
    /// answer, without the wake phrase, takes it back; a "no" with no spoken start before it
    /// does nothing.
    @Test func aSpokenStartIsAnsweredAndNoTakesItBack() throws {
        let (house, microphone, kitchen) = try listening()
        let corpus = SpokenCorpus()
        #expect(kitchen.stdout.contains("listen: hearing mic (English) after \"egg timer\"\n"), "\(kitchen.stdout)")
        #expect(
            try say(
                "egg timer, soft egg", to: microphone, kitchen, corpus: corpus, until: "Soft: started, rings in 5:00"),
            "\(kitchen.stdout)")
        #expect(kitchen.stdout.contains("listen: heard \"egg timer soft egg\"\n"), "\(kitchen.stdout)")
        #expect(kitchen.stdout.contains("(from voice)\n"), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: saying 'Soft egg, five minutes'\n", until: soon()), "\(kitchen.stdout)")
        #expect(house.status("Soft")?.state == .counting)
        #expect(
            try say("no", to: microphone, kitchen, corpus: corpus, until: "listen: Soft: cancelled"),
            "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: saying 'Cancelled'\n", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: 'Cancelled': played\n", until: soon()), "\(kitchen.stdout)")
        #expect(house.captured() > 0, "the answers were played into the house's file PCM")
        stop(kitchen)
    }

    /// "No" takes back only the very timer the voice started: one of the same label started
    /// from a shell since (a tester's case) is left alone.
    @Test func noLeavesATimerOfTheSameLabelThatTheVoiceDidNotStart() throws {
        let (house, microphone, kitchen) = try listening()
        let corpus = SpokenCorpus()
        #expect(
            try say(
                "egg timer, soft egg", to: microphone, kitchen, corpus: corpus, until: "Soft: started, rings in 5:00"),
            "\(kitchen.stdout)")
        #expect(house.command(["cancel", "soft"]).termination == .exited(0))
        #expect(kitchen.expect("Soft: ended", until: soon()), "\(kitchen.stdout)")
        #expect(house.command(["start", "soft"]).termination == .exited(0))
        #expect(kitchen.expect("(from shell)", until: soon()), "\(kitchen.stdout)")
        #expect(
            try say("no", to: microphone, kitchen, corpus: corpus, until: "listen: no spoken start of the last 15 s"),
            "\(kitchen.stdout)")
        #expect(house.status("Soft")?.state == .counting)
        stop(kitchen)
    }

    /// A microphone whose input ends (alsa-lib's file plugin then hands back its last buffer as
    /// fast as it is read) is a stalled device: one line, and the kitchen goes on answering.
    @Test func aMicrophoneThatRepeatsItsSamplesIsAStalledDeviceInOneLine() throws {
        let (house, microphone, kitchen) = try listening()
        try microphone.hear(Signal.noise(milliseconds: 500, amplitude: 20))
        microphone.unplug()
        #expect(
            kitchen.expect(
                "listen: mic: the same samples 10 times in a row: the device stalled (its input ended?); "
                    + "opened again every 1 s\n", until: soon()), "\(kitchen.stdout)")
        #expect(house.command(["start", "1m", "tea"]).termination == .exited(0), "the kitchen answers")
        stop(kitchen)
    }

    /// Asked how long is left, the kitchen says it; "pause" pauses the newest timer counting,
    /// "resume" resumes it, "add a minute" moves it, "cancel" cancels it: each answered.
    @Test func spokenCommandsQueryPauseResumeAndCancelTheNewestTimer() throws {
        let (house, microphone, kitchen) = try listening()
        let corpus = SpokenCorpus()
        #expect(house.command(["start", "10m", "pasta"]).termination == .exited(0))
        #expect(kitchen.expect("pasta: started", until: soon()))
        #expect(
            try say("egg timer, how long is left", to: microphone, kitchen, corpus: corpus, until: "listen: pasta: "),
            "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: saying 'pasta: ", until: soon()), "\(kitchen.stdout)")
        #expect(
            try say("egg timer, pause", to: microphone, kitchen, corpus: corpus, until: "listen: pasta: paused"),
            "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: saying 'pasta paused'\n", until: soon()), "\(kitchen.stdout)")
        #expect(house.status("pasta")?.state == .paused)
        #expect(
            try say("egg timer, resume", to: microphone, kitchen, corpus: corpus, until: "listen: pasta: resumed"),
            "\(kitchen.stdout)")
        #expect(house.status("pasta")?.state == .counting)
        #expect(
            try say("egg timer, cancel", to: microphone, kitchen, corpus: corpus, until: "listen: pasta: cancelled"),
            "\(kitchen.stdout)")
        stop(kitchen)
    }

    /// "Egg timer, stop" stops a ringing alarm, from the voice front.
    @Test func stopSpokenStopsTheRingingAlarm() throws {
        let (house, microphone, kitchen) = try listening()
        let corpus = SpokenCorpus()
        #expect(house.command(["start", "1s", "tea"]).termination == .exited(0))
        let watch = try ControlClient.watch(label: "tea", folder: house.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        #expect(
            try say("egg timer, stop", to: microphone, kitchen, corpus: corpus, until: "listen: tea: alarm stopped"),
            "\(kitchen.stdout)")
        #expect(try watch.awaitState(.done, until: soon()))
        stop(kitchen)
    }

    /// Unrelated speech, and commands without the wake phrase, start and stop nothing: the
    /// kitchen's next line is the answer to the woken question after them.
    @Test func unrelatedSpeechAndCommandsWithoutTheWakePhraseDoNothing() throws {
        let (house, microphone, kitchen) = try listening()
        let corpus = SpokenCorpus()
        #expect(house.command(["start", "10m", "pasta"]).termination == .exited(0))
        #expect(kitchen.expect("pasta: started", until: soon()))
        let offset = kitchen.stdout.count
        for text in [
            "The soup needs another ten minutes, and then we can eat in the garden.",
            "stop", "cancel pasta", "seven minutes", "pause",
            "I think the timer on the oven is broken again, could you look at it later?",
        ] {
            try microphone.hear(corpus.samples(text, voice: "en-us", wordsPerMinute: 150))
        }
        #expect(
            try say("egg timer, how long is left", to: microphone, kitchen, corpus: corpus, until: "listen: pasta: "),
            "\(kitchen.stdout)")
        let after = String(kitchen.stdout.dropFirst(offset))
        let heard = after.split(separator: "\n").filter { $0.hasPrefix("listen: heard") }
        #expect(heard == ["listen: heard \"egg timer how long is left\""], "\(after)")
        #expect(!after.contains("started") && !after.contains("cancelled") && !after.contains("paused"), "\(after)")
        #expect(house.status("pasta")?.state == .counting)
        stop(kitchen)
    }

    /// `--wake` or `--listen-labels` without `--listen` do nothing, and one line says so (here
    /// before the second kitchen of the house is refused with 75).
    @Test func theWakePhraseWithoutAMicrophoneIsAWarning() {
        let house = House(config: "")
        let kitchen = house.kitchen(["--keys", "none"])
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let second = house.command(["kitchen", "--keys", "none", "--wake", "hey kitchen"])
        #expect(second.termination == .exited(75), "\(second.stderr)")
        #expect(
            second.stderr.hasPrefix(
                "eggtimer: warning: kitchen: wake and listen-labels do nothing without listen (--listen DEVICE)\n"),
            "\(second.stderr)")
        stop(kitchen)
    }

    /// A capture device that cannot be opened, and a wake phrase the dictionary lacks, are one
    /// line and 69, 64 (the command line) or 78 (the config file) at start.
    @Test func aMissingDeviceOrAnUnknownWakeWordIsOneLineAndItsStatus() throws {
        let house = House(config: "")
        let microphone = try Microphone()
        let environment = house.environment.merging(microphone.environment) { _, new in new }
        let missing = runEggtimer(["kitchen", "--keys", "none", "--listen", "nosuchmic"], environment: environment)
        #expect(missing.termination == .exited(69), "\(missing.stderr)")
        #expect(missing.stderr.hasPrefix("eggtimer: kitchen: listen: cannot open the capture device nosuchmic: "))
        #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        let unknown = runEggtimer(
            ["kitchen", "--keys", "none", "--listen", "mic", "--wake", "zzqx timer"], environment: environment)
        #expect(unknown.termination == .exited(64), "\(unknown.stderr)")
        #expect(
            unknown.stderr
                == "eggtimer: --wake: the recogniser's dictionary lacks the word 'zzqx'; choose another wake phrase\n")
        house.appendConfig("wake = kitchen zzqx\n")
        let configured = runEggtimer(["kitchen", "--keys", "none", "--listen", "mic"], environment: environment)
        #expect(configured.termination == .exited(78), "\(configured.stderr)")
        #expect(
            configured.stderr.hasSuffix(
                ":2: wake: the recogniser's dictionary lacks the word 'zzqx'; choose another wake phrase\n"))
        let bad = runEggtimer(["kitchen", "--listen", "mic", "--wake", "egg-timer!"], environment: environment)
        #expect(bad.termination == .exited(64))
        #expect(
            bad.stderr == "eggtimer: option '--wake' needs 1 to 4 words of letters, got 'egg-timer!'\n", "\(bad.stderr)"
        )
    }
}
