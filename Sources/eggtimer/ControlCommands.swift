import ControlChannel
import Glibc
import SystemKit
import TimerCore
import TimerEngine
import TimerModel
import TimerText

/// `eggtimer status|ack|cancel|snooze`: a short-lived client of this user's running timers,
/// which it finds by their control sockets in ``RuntimeFolder/current()``.
///
/// Blocks the calling (main) thread: each timer has ``ControlAnswer/answerLimit`` to answer each request. A
/// stale socket (left by a killed timer: the connection is refused) is skipped silently and left
/// for its label's next timer to replace (a client cannot tell it from a timer still starting);
/// a timer that does not answer in time, or answers something else, is
/// skipped with one warning line on standard error.
enum ControlCommands {
    /// Runs `command` and says how it ended.
    /// - Returns: ``ExitStatus/done`` when listed or acted on (`status` also with no timers);
    ///   ``ExitStatus/noTimer`` when there was nothing to act on, or the timer refused;
    ///   ``ExitStatus/usage`` when several timers could be meant. `ack --all` and `cancel --all`:
    ///   ``ExitStatus/done`` when they acted on at least one timer, ``ExitStatus/noTimer`` when none fits.
    static func run(_ command: ControlCommand) -> ExitStatus {
        let folder = RuntimeFolder.current()
        switch command {
        case .status(let json):
            // A timer that does not answer (stopped, hung) is part of the report, not a warning,
            // except with --json, whose array holds only timers that answered.
            let (timers, _, unanswered) = survey(labels(in: folder) ?? [], folder: folder, warn: json)
            let store = RecordStore.current()
            let bootID = BootClock.bootID()
            let kept = store.map { KeptRecord.list(in: $0, running: timers, bootID: bootID, now: .now) } ?? []
            let time = LocalTime.system
            let now = AlarmRecovery.wallNow().unixNanoseconds / 1_000_000
            if json { return write(StatusReport.json(timers, kept: kept, time: time)) }
            let notes =
                store.map { KeptRecord.unlisted(in: $0, running: timers, folder: folder, bootID: bootID) } ?? []
            return write(
                StatusReport.table(timers, unanswered: unanswered, kept: kept, time: time, now: now)
                    + notes.map { $0 + "\n" }.joined())
        case .acknowledge(let label), .cancel(let label), .snooze(let label, _), .pause(let label),
            .resume(let label), .add(let label, _):
            guard let vocabulary = command.vocabulary else { return .software }
            return act(vocabulary, label: label, folder: folder)
        case .acknowledgeAll, .cancelAll:
            guard let vocabulary = command.vocabulary else { return .software }
            return actOnAll(vocabulary, folder: folder)
        case .recover(let bootOnly, let quiet, let label):
            return Recover.run(bootOnly: bootOnly, quiet: quiet, label: label)
        case .follow:
            printError("eggtimer: follow needs --mqtt URL (or mqtt = URL in the config file)")
            return .usage
        // main runs them (Kitchen, StartCommand, PairingCommand)
        case .kitchen, .start, .pair, .unpair: return .software
        }
    }

    /// Sends `command` to the timer chosen by ``TimerSelection`` and prints the outcome.
    /// - Parameters:
    ///   - command: What to ask of it; its verb (``Command/verb``) is the subcommand, for messages.
    ///   - label: The label given, or nil.
    ///   - folder: The runtime folder.
    /// - Returns: The exit status, as for ``run(_:)``.
    private static func act(_ command: Command, label: String?, folder: String) -> ExitStatus {
        let verb = command.verb
        guard let all = labels(in: folder) else { return .noTimer }
        let wanted = label.map { TimerSelection.socketLabel(for: $0, among: all) }
        if let wanted {
            // No timer can listen on a socket path too long to bind: the folder is misconfigured.
            do throws(ControlError) {
                _ = try ControlClient.socketPath(label: wanted, folder: folder)
            } catch {
                printError("eggtimer: \(wanted): \(error.description)")
                return .configuration
            }
        }
        let (timers, namedFailure, unanswered) = survey(wanted.map { [$0] } ?? all, folder: folder, named: wanted)
        if let namedFailure {
            printError("eggtimer: " + namedFailure)
            return .noTimer
        }
        let result: Result<String, ControlFailure>
        do {
            let target = try TimerSelection.target(among: timers, label: wanted, verb: verb)
            result = send(command, to: target.label, folder: folder)
        } catch {
            // `cancel LABEL` for a timer that no longer runs forgets its kept record, with no
            // `recover` running meanwhile: one that was may have started it again, so look again.
            if command == .cancel, error.status == .noTimer, let label {
                let lock = RecordStore.current().flatMap(Recover.holdOffRuns)
                defer { if let lock { close(lock) } }
                let again = survey([label], folder: folder, named: label).timers
                if let target = try? TimerSelection.target(among: again, label: label, verb: verb) {
                    result = send(command, to: target.label, folder: folder)
                } else if let forgotten = KeptRecord.forget(label: label, running: again) {
                    guard forgotten.removed else {
                        printError("eggtimer: " + forgotten.line)
                        return .osError
                    }
                    return write(forgotten.line + "\n")
                } else {
                    result = .failure(error)
                }
            } else {
                result = .failure(
                    snoozeHint(
                        socketless(
                            TimerSelection.unanswered(error, count: unanswered.count), running: timers, label: wanted),
                        command: command, label: label))
            }
        }
        switch result {
        case .success(let line): return write(line + "\n")
        case .failure(let failure):
            printError("eggtimer: " + failure.message)
            return failure.status
        }
    }

    /// Sends `command` to every timer ``TimerSelection/all(among:for:)`` picks, one line each:
    /// the outcome on standard output, a failure on standard error.
    /// - Parameters:
    ///   - command: ``Command/acknowledge`` or ``Command/cancel``.
    ///   - folder: The runtime folder.
    /// - Returns: ``ExitStatus/done`` when at least one timer acted; else the first failure's status
    ///   (``ExitStatus/noTimer`` when none fits).
    private static func actOnAll(_ command: Command, folder: String) -> ExitStatus {
        guard let all = labels(in: folder) else { return .noTimer }
        let targets: [TimerStatus]
        let (timers, _, unanswered) = survey(all, folder: folder)
        do { targets = try TimerSelection.all(among: timers, for: command) } catch {
            printError(
                "eggtimer: "
                    + socketless(TimerSelection.unanswered(error, count: unanswered.count), running: timers, label: nil)
                    .message)
            return error.status
        }
        var text = ""
        var failed: ExitStatus?
        var acted = false
        for target in targets {
            switch send(command, to: target.label, folder: folder) {
            case .success(let line):
                text += line + "\n"
                acted = true
            case .failure(let failure):
                printError("eggtimer: " + failure.message)
                failed = failed ?? failure.status
            }
        }
        let status = write(text)
        return acted ? status : failed ?? .noTimer
    }

    /// One exchange with the chosen timer.
    /// - Returns: The line to print, or why it failed.
    private static func send(_ command: Command, to label: String, folder: String) -> Result<String, ControlFailure> {
        do {
            let reply = try ControlClient.exchange(
                ControlRequest.command(command, by: .shell), label: label, folder: folder,
                timeout: ControlAnswer.answerLimit)
            return ControlAnswer.outcome(of: reply, command: command, label: label, time: .system)
        } catch  where error.isGone {
            return .failure(ControlFailure(status: .noTimer, message: "\(label) is no longer running"))
        } catch {
            return .failure(ControlFailure(status: .noTimer, message: failureText(error, label: label)))
        }
    }

    /// The status of each timer in `labels` (socket names) that answers, in that order, each with
    /// the label it answers to (`Roast Beef`, whose socket is its key `roast beef`: the name MQTT
    /// and its log use too); stale sockets and timers that close unanswered are skipped silently
    /// (gone or ending); a timer that does not answer in time (stopped, hung) is counted in
    /// `unanswered`, and warned about when `warn`; any other failure (another user's socket, an
    /// answer that is not eggtimer's: no timer of this user's) is always warned about.
    /// - Parameters:
    ///   - labels: The socket names to ask.
    ///   - folder: The runtime folder.
    ///   - named: A label the caller asked for by name: its failure is returned, not warned about
    ///     (the caller says it, once).
    ///   - warn: Whether to say a timer that did not answer on standard error, ending in `; skipped`.
    /// - Returns: The statuses, what went wrong with `named`, if anything, and one clause for each
    ///   other timer that did not answer in time (``failureText(_:label:)``).
    private static func survey(
        _ labels: [String], folder: String, named: String? = nil, warn: Bool = true
    ) -> (timers: [TimerStatus], namedFailure: String?, unanswered: [String]) {
        var timers: [TimerStatus] = []
        var namedFailure: String?
        var unanswered: [String] = []
        for label in labels {
            do throws(ControlError) {
                let reply = try ControlClient.exchange(
                    ControlRequest.status.line, label: label, folder: folder, timeout: ControlAnswer.answerLimit)
                guard let status = TimerStatus(line: reply) else { throw ControlError.badAnswer(path: label) }
                timers.append(status)
            } catch  where error.isGone {
                continue  // stale, starting, gone meanwhile, or ending while asked
            } catch {
                if label == named {
                    namedFailure = failureText(error, label: label)
                } else if case .noAnswer = error, !warn {
                    unanswered.append(failureText(error, label: label))
                } else {
                    // Not a timer of this user's (another user's socket, a foreign answer): a warning.
                    if case .noAnswer = error { unanswered.append(failureText(error, label: label)) }
                    printError("eggtimer: " + failureText(error, label: label) + "; skipped")
                }
            }
        }
        return (timers, namedFailure, unanswered)
    }

    /// The labels of the sockets in `folder`, when it passes the timer's own rules (a missing
    /// folder: none).
    /// - Returns: nil when the folder is refused, said in one line on standard error: a timer
    ///   never listens there, so nothing there may answer for one.
    private static func labels(in folder: String) -> [String]? {
        do {
            try RuntimeFolder.checkForUse(folder)
        } catch .system(_, let code) where code == ENOENT {
            return []
        } catch {
            printError("eggtimer: \(error.description); its sockets are not trusted")
            return nil
        }
        return ControlClient.labels(in: folder).filter(LabelRule.isValid)
    }

    /// `failure`, naming the timers of this boot that run without a control socket.
    ///
    /// When no timer could be asked (issue 40: `ack` said "no timers running" of a ringing one),
    /// with how to stop one's alarm: `no timer answers on a control socket; running without one: tea (pid 42);
    /// `kill -USR1 PID` stops one's alarm`. Any other failure as it is.
    /// - Parameters:
    ///   - failure: Why nothing was done.
    ///   - running: The timers the command's survey found answering (of `label` alone when
    ///     given: only its record is looked at, so no second survey is needed).
    ///   - label: The timer asked for (only its record is named); nil for any.
    /// - Returns: The failure to say.
    private static func socketless(_ failure: ControlFailure, running: [TimerStatus], label: String?)
        -> ControlFailure
    {
        guard failure.status == .noTimer, let store = RecordStore.current() else { return failure }
        guard
            let line = KeptRecord.unlisted(
                in: store, running: running, folder: RuntimeFolder.current(), bootID: BootClock.bootID(), only: label
            )
            .first(where: { $0.hasPrefix(KeptRecord.socketlessPrefix) })
        else { return failure }
        return ControlFailure(status: .noTimer, message: "\(failure.message); " + line)
    }

    /// `failure` with how to snooze for a length when `snooze LABEL` named no timer and `LABEL`
    /// reads as a duration: `no timer labelled '5m' is running (to snooze for 5m, give --for 5m)`.
    /// - Parameters:
    ///   - failure: Why nothing was done.
    ///   - command: The command asked for.
    ///   - label: The label given, as typed.
    /// - Returns: The failure to say.
    static func snoozeHint(_ failure: ControlFailure, command: Command, label: String?) -> ControlFailure {
        guard case .snooze = command, failure.status == .noTimer, let label else { return failure }
        if (try? DurationParser.parse(label)) != nil {
            return ControlFailure(
                status: failure.status, message: failure.message + " (to snooze for \(label), give --for \(label))")
        }
        // `snooze spätzle 2s`: the label's last words read as a duration (issue 41).
        let words = label.split(separator: " ")
        for count in 1..<max(1, words.count) {
            let duration = words[count...].joined(separator: " ")
            guard (try? DurationParser.parse(duration)) != nil else { continue }
            let named = words[..<count].joined(separator: " ")
            let given = count + 1 < words.count ? "'\(duration)'" : duration
            return ControlFailure(
                status: failure.status,
                message: failure.message + " (to snooze \(named) for \(duration), give: snooze \(named) --for \(given))"
            )
        }
        return failure
    }

    /// One clause about a failed exchange with the timer `label`: `Soft: no answer within 1 s`.
    ///
    /// `label` is a socket's name (the label's key, lowercased): the label as typed comes from the
    /// timer's record when it has one (issue 41: `tee küche: stopped` for `Tee Küche`).
    private static func failureText(_ error: ControlError, label socket: String) -> String {
        let label =
            RecordStore.current()
            .flatMap { try? RecordStore.read(path: $0.folder + "/" + RecordStore.fileName(label: socket)) }
            .map(\.label).flatMap { LabelRule.same($0, socket) ? $0 : nil } ?? socket
        return switch error {
        case .noAnswer(_, let pid?) where ProcessState.isStopped(pid):
            "\(label): stopped (SIGSTOP or Ctrl-Z), not answering (pid \(pid); `fg` or `kill -CONT \(pid)` continues it)"
        case .noAnswer(_, let pid?):
            "\(label): no answer within \(ControlAnswer.answerLimit.components.seconds) s (pid \(pid))"
        case .noAnswer: "\(label): no answer within \(ControlAnswer.answerLimit.components.seconds) s"
        case .badAnswer: "\(label) answered something that is not eggtimer's"
        default: "\(label): \(error.description)"
        }
    }

    /// Writes `text` on standard output; a failure is said on standard error, and the status
    /// stays ``ExitStatus/done`` (a failing standard output never decides it).
    private static func write(_ text: String) -> ExitStatus {
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(text)
        if let error = out.failed { printError("eggtimer: cannot write to standard output: \(errorText(error))") }
        return .done
    }
}

extension ControlCommand {
    /// What the subcommand asks of a running timer in the one vocabulary every front speaks (its
    /// socket line and MQTT payload are made from it); nil for those that ask no timer (`status`
    /// surveys them, `recover`, `follow`).
    ///
    /// `snooze --for D` carries whole seconds, at least one (D rounded up), as the protocol does.
    var vocabulary: Command? {
        switch self {
        case .acknowledge, .acknowledgeAll: .acknowledge
        case .cancel, .cancelAll: .cancel
        case .snooze(_, let length): .snooze(length.map { max(.seconds(1), $0.roundedUpToWholeSeconds) })
        case .pause: .pause
        case .resume: .resume
        case .add(_, let delta): .add(delta)
        case .status, .recover, .follow, .kitchen, .start, .pair, .unpair: nil
        }
    }
}
