import ControlChannel
import TimerEngine
import TimerModel

// An action's answer carried to the front that asked, once the core has every timer's reply:
// one log line per timer touched, then the keypad's spoken answer or the HTTP exchange resumed.

extension Kitchen {
    /// One touched timer's outcome: the line to log (`tea: alarm stopped`), and its reply line
    /// when it did the command.
    struct TouchedOutcome {
        /// The timer's label.
        var label: String
        /// The log line, without the front's prefix.
        var line: String
        /// Its reply (`ok` and its status) when it did it; nil when it refused or did not answer.
        var reply: String?
    }

    /// What each touched timer's reply means (``ControlAnswer/outcome(of:command:label:time:)``).
    /// - Parameter answer: The core's answer.
    /// - Returns: One outcome per timer touched, in order.
    static func outcomes(of answer: KitchenCore.ActionAnswer) -> [TouchedOutcome] {
        answer.touched.map { touched in
            let label = touched.before.label
            switch touched.reply {
            case .waiting: return TouchedOutcome(label: label, line: "\(label): no answer", reply: nil)
            case .failed(let reason): return TouchedOutcome(label: label, line: "\(label): \(reason)", reply: nil)
            case .alreadyStopped(let status):
                let state = TimerStatus(line: status)?.state.rawValue ?? "over"
                return TouchedOutcome(label: label, line: "\(label): already stopped (\(state))", reply: status)
            case .answered(let reply):
                switch ControlAnswer.outcome(of: reply, command: answer.action.command, label: label, time: .system) {
                case .success(let line): return TouchedOutcome(label: label, line: line, reply: reply)
                case .failure(let failure): return TouchedOutcome(label: label, line: failure.message, reply: nil)
                }
            }
        }
    }

    /// Carries an action's answer to `origin`: the log's lines, then the keypad's spoken answer
    /// or the HTTP exchange's response.
    func answerAction(_ answer: KitchenCore.ActionAnswer, to origin: KitchenCore.Origin) {
        let outcomes = Self.outcomes(of: answer)
        let prefix =
            switch origin {
            case .keypad: "key: "
            case .voice: "listen: "
            case .web: "HTTP: "
            case .bus: "MQTT: "
            case .shell: "shell: "
            }
        for outcome in outcomes { say(prefix + outcome.line) }
        switch origin {
        case .keypad: answerKeypad(answer, outcomes, prefix: prefix)
        case .voice: answerVoice(answer, outcomes, prefix: prefix)
        case .web(let exchange, let form): web?.answerAction(exchange, answer, outcomes, form: form)
        case .bus, .shell: break
        }
    }

    /// The keypad's answer to its action: spoken, and one line when nothing fitted.
    /// - Parameters:
    ///   - answer: The core's answer.
    ///   - outcomes: Each touched timer's outcome.
    ///   - prefix: The front's prefix of the log's lines (`key: `, `listen: `).
    func answerKeypad(_ answer: KitchenCore.ActionAnswer, _ outcomes: [TouchedOutcome], prefix: String) {
        let done = outcomes.compactMap { outcome in outcome.reply.map { (label: outcome.label, reply: $0) } }
        switch answer.action {
        case .acknowledgeAll, .snoozeRinging:
            if answer.touched.isEmpty { say(prefix + "nothing rings") }
            let before = Dictionary(
                answer.touched.map { ($0.before.label, $0.before) }, uniquingKeysWith: { first, _ in first })
            answerRinging(
                answer.action.command, answer.touched.isEmpty ? nil : done, before: before, prefix: prefix)
        case .addToNewest:
            guard !answer.touched.isEmpty else {
                say(prefix + "no timer runs to move")
                return speak(phrases.nothingRunning)
            }
            if let reply = done.first?.reply { answerMoved(reply) }
        case .cancelNewest:
            guard !answer.touched.isEmpty else {
                say(prefix + "no timer runs to cancel")
                return speak(phrases.nothingRunning)
            }
            if !done.isEmpty { speak(phrases.cancelled) }
        case .command: break
        }
    }
}
