import ControlChannel
import Glibc
import Listening
import SystemKit
import TimerCore
import TimerEngine
import TimerModel
import TimerText

// The kitchen's ears (issue 46): with `--listen DEVICE` a listener (ListenerSource) hears the
// wake phrase and a command of the grammar made from the presets, the durations and the labels;
// each command goes through the same start and act as the keypad's, from `.voice`, and is answered
// as the keypad's are: spoken, and one `listen: …` line. Only what follows the wake phrase acts,
// but for "no" or "cancel that" within ``undoWindow`` of a spoken start, which cancels it; a start
// the recogniser is unsure of is not made ("Please say that again"), nor is a pause, resume or
// cancel.

extension Kitchen {
    /// How long after a spoken start "no" or "cancel that" takes it back: 15 s, time for the
    /// answer to be spoken (about 2 s) and heard.
    static let undoWindow = Duration.seconds(15)

    /// The grammar's vocabulary: the wake phrase, the presets that can be said (an egg's is
    /// "soft egg"), and the labels.
    /// - Parameters:
    ///   - listen: The listener's settings.
    ///   - presets: The kitchen's presets.
    /// - Returns: The vocabulary.
    static func vocabulary(_ listen: ListenSettings, presets: [Preset]) -> CommandGrammar.Vocabulary {
        let eggs = Set(Preset.eggs.map { $0.name.lowercased() })
        let spoken = presets.map { $0.name.lowercased() }.filter { name in
            !name.isEmpty && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) }
        }
        return CommandGrammar.Vocabulary(
            wakePhrase: listen.wakePhrase, presets: spoken.map { eggs.contains($0) ? $0 + " egg" : $0 },
            labels: listen.labels)
    }

    /// Starts listening with `--listen`: the recogniser loaded, the device open, before the loop
    /// runs; labels and presets with words the dictionary lacks are left out with one line.
    /// - Parameter interrupts: Descriptors whose readiness ends the wait for the listener (the
    ///   kitchen's signalfd); the loop then reads the signal.
    /// - Returns: The source, or nil without `--listen` or when a signal came first.
    /// - Throws: The exit status after its one line: 69 when the library, the model or the
    ///   device is missing or refused; 64 (78 from the config file) when the wake phrase has a
    ///   word the dictionary lacks.
    func openListener(interruptedBy interrupts: [Int32] = []) throws(ExitStatus) -> ListenerSource? {
        guard let listen = settings.listen else { return nil }
        var vocabulary = Self.vocabulary(listen, presets: settings.presets)
        while true {
            let grammar = CommandGrammar.text(for: vocabulary)
            switch ListenerSource.start(device: listen.device, grammar: grammar, interrupts: interrupts) {
            case .success(let source):
                heardVocabulary = vocabulary
                say(
                    "listen: hearing \(listen.device) (English) after \"\(vocabulary.wakePhrase.joined(separator: " "))\""
                        + (vocabulary.labels.isEmpty ? "" : "; labels \(vocabulary.labels.joined(separator: ", "))"))
                return source
            case .failure(.recogniser(.unknownWords(let words))):
                let unknown = Set(words)
                if let word = vocabulary.wakePhrase.first(where: unknown.contains) {
                    let problem = "the recogniser's dictionary lacks the word '\(word)'; choose another wake phrase"
                    if let line = listen.wakeConfigLine {
                        printError("eggtimer: \(line): wake: \(problem)")
                        throw .configuration
                    }
                    printError("eggtimer: --wake: \(problem)")
                    throw .usage
                }
                let lacking = { (phrase: String) in
                    phrase.split(separator: " ").contains { unknown.contains(String($0)) }
                }
                let dropped = vocabulary.labels.filter(lacking) + vocabulary.presets.filter(lacking)
                guard !dropped.isEmpty else { return try refuse(ListeningError.unknownWords(words).message) }
                say(
                    "listen: left out (the dictionary lacks a word): "
                        + dropped.map { "'\($0)'" }.joined(separator: ", ") + "; such timers can still be stopped")
                vocabulary.labels.removeAll(where: lacking)
                vocabulary.presets.removeAll(where: lacking)
            case .failure(.recogniser(let error)): return try refuse(error.message)
            case .failure(.device(let line)):
                return try refuse("cannot open the capture device \(line) (arecord -L lists them)")
            case .failure(.thread(let line)): return try refuse(line)
            case .failure(.interrupted):
                say("listen: not started: a signal came while the listener started")
                return nil
            }
        }
    }

    /// One line and 69, for a listener that cannot start.
    private func refuse(_ line: String) throws(ExitStatus) -> ListenerSource? {
        printError("eggtimer: kitchen: listen: \(line)")
        throw .unavailable
    }

    /// Carries out what the listener heard: nothing unless the wake phrase came first; then
    /// the command, from `.voice`, with its `listen: …` line.
    /// - Parameters:
    ///   - words: The words heard.
    ///   - confident: Whether the recogniser was sure of them.
    func hear(_ words: [String], confident: Bool) {
        guard let vocabulary = heardVocabulary else { return }
        let reading = VoiceCommand.read(words, vocabulary: vocabulary)
        let heard = "listen: heard \"\(words.joined(separator: " "))\"" + (confident ? "" : " (unsure)")
        switch Self.ruling(on: reading, confident: confident, sinceSpokenStart: heardStart.map { clock.now() - $0.at })
        {
        case .ignore: return
        case .askAgain:
            say(heard + ": not started, asked again")
            return speak(phrases.sayAgain)
        case .unsure:
            return say(heard + ": not done")
        case .act(let command):
            say(heard)
            carryOut(command)
        }
    }

    /// What a spoken command comes to (``ruling(on:confident:sinceSpokenStart:)``).
    enum Ruling: Equatable {
        /// Nothing: no command, or not for the kitchen (no wake phrase).
        case ignore
        /// A start not made: the recogniser was unsure; asked again.
        case askAgain
        /// Not done and not asked again: the recogniser was unsure of a command that would cost
        /// when wrong (a stop silencing an alarm, a cancel, a pause); one line.
        case unsure
        /// Done.
        case act(VoiceCommand)
    }

    /// What the kitchen does with what it heard.
    ///
    /// Only a command after the wake phrase acts, but for "no" or "cancel that" within ``undoWindow`` of a spoken start (its answer is the
    /// question, so the "no" needs no wake phrase). A command the recogniser was unsure of acts
    /// only when it cannot do harm (the report); an unsure start is asked again, any other is
    /// not done: a false "stop" would silence an alarm, which costs more than saying it again.
    /// Pure.
    /// - Parameters:
    ///   - reading: The words read as a command, or nil for none.
    ///   - confident: Whether the recogniser was sure of them (``Hypothesis/isConfident``).
    ///   - sinceSpokenStart: The boot clock's time since the last spoken start, nil for none.
    /// - Returns: The ruling.
    static func ruling(
        on reading: VoiceCommand.Reading?, confident: Bool, sinceSpokenStart: Duration?
    ) -> Ruling {
        guard let reading else { return .ignore }
        let undoing = reading.command == .undo && sinceSpokenStart.map { $0 <= undoWindow } == true
        guard reading.woken || undoing else { return .ignore }
        guard !confident else { return .act(reading.command) }
        switch reading.command {
        case .report: return .act(reading.command)
        case .start: return .askAgain
        case .stop, .snooze, .addMinute, .cancel, .pause, .resume, .undo: return .unsure
        }
    }

    /// Carries out a spoken command, from `.voice`.
    private func carryOut(_ command: VoiceCommand) {
        switch command {
        case .start(let spoken):
            // A preset is said in lower case; the request names it as the kitchen knows it.
            let text = settings.presets.first { $0.name.lowercased() == spoken }?.name ?? spoken
            do throws(UsageError) {
                start(try StartRequest.parse(text, presets: settings.presets.map(\.name)), from: .voice)
            } catch {
                perform([.answer(.voice, .refused(.init(kind: .usage, text: error.description)))])
            }
        case .stop: act(.acknowledgeAll, from: .voice)
        case .snooze: act(.snoozeRinging, from: .voice)
        case .addMinute: act(.addToNewest(.seconds(60)), from: .voice)
        case .report:
            say("listen: " + report())
            speakReport()
        case .cancel(label: nil): act(.cancelNewest, from: .voice)
        case .cancel(label: let label?):
            guard let status = newestTimers.first(where: { $0.label.lowercased() == label && !$0.state.isFinal })
            else {
                say("listen: no timer \(label) runs")
                return speak(phrases.nothingRunning)
            }
            act(.command(.cancel, label: status.label), from: .voice)
        case .pause:
            guard let status = newestTimers.first(where: { $0.state == .counting }) else {
                say("listen: no timer counts to pause")
                return speak(phrases.nothingToPause)
            }
            act(.command(.pause, label: status.label), from: .voice)
        case .resume:
            guard let status = newestTimers.first(where: { $0.state == .paused }) else {
                say("listen: no timer is paused")
                return speak(phrases.nothingPaused)
            }
            act(.command(.resume, label: status.label), from: .voice)
        case .undo:
            // The very timer the voice started: not another of its label started since (a tester's
            // shell cancelled the spoken pasta and started its own, which "no" then cancelled).
            guard let (label, pid, at) = heardStart, clock.now() - at <= Self.undoWindow,
                core.timers.values.contains(where: { $0.label == label && $0.pid == pid && !$0.state.isFinal })
            else {
                say("listen: no spoken start of the last \(Self.undoWindow.components.seconds) s to take back")
                return speak(phrases.nothingToTakeBack)
            }
            heardStart = nil
            act(.command(.cancel, label: label), from: .voice)
        }
    }

    /// A spoken command's answer: as the keypad's for the alarms, a minute more and the newest's
    /// cancel; for a timer's pause, resume or cancel, that timer's new state.
    func answerVoice(_ answer: KitchenCore.ActionAnswer, _ outcomes: [TouchedOutcome], prefix: String) {
        guard case .command(let command, let label) = answer.action else {
            return answerKeypad(answer, outcomes, prefix: prefix)
        }
        guard outcomes.contains(where: { $0.reply != nil }) else { return }
        switch command {
        case .pause: speak(phrases.paused(label, true))
        case .resume: speak(phrases.paused(label, false))
        case .cancel: speak(phrases.cancelled)
        default: break
        }
    }
}
