import ControlChannel
import EventLoop
import Glibc
import SystemKit
package import TimerCore
package import TimerEngine
import TimerModel
import TimerText

/// `eggtimer start WHAT [LABEL]` (or `--label L`) from a shell: one timer started, detached, through the
/// kitchen when it runs (its socket's `start`), else directly as the kitchen would.
///
/// The words are parsed by `StartRequest` (so `start '7m --on-done x'` starts nothing); the
/// kitchen parses the request's text again. One line on standard output when the timer runs
/// (``said(_:)``), else one on standard error; a timer whose device cannot be opened adds one
/// warning on standard error (``warning(_:)``). Blocks the main thread for at most
/// ``KitchenCore/startLimit`` and a little more.
package enum StartCommand {
    /// Starts the timer `what` (a preset or a duration, perhaps with a label) labelled `label`.
    /// - Parameters:
    ///   - what: The words as typed.
    ///   - label: `--label`, already checked by the label rule.
    ///   - presets: The egg presets.
    /// - Returns: 0 when it runs; 64 for a bad request or a label in use; 75 when the kitchen runs
    ///   as many as it may; 69 when the timer does not answer in time (or the kitchen does not);
    ///   71 when the system refuses a process or the runtime folder; when the timer exits first,
    ///   its own status where it names a cause (78 for its config file, 65, 66), else 70.
    package static func run(what: String, label: String?, presets: [Preset] = Preset.eggs) -> ExitStatus {
        let request: StartRequest
        do throws(UsageError) {
            request = try StartRequest.parse(what, label: label, presets: presets.map(\.name))
        } catch {
            printError("eggtimer: start: \(error.description)")
            return .usage
        }
        let runtime = RuntimeFolder.current()
        let outcome: KitchenCore.Outcome
        switch ask(request, runtime: runtime) {
        case .outcome(let answer): outcome = answer
        case .noKitchen: outcome = direct(request, presets: presets, runtime: runtime)
        case .failed(let status): return status
        }
        switch outcome {
        case .started(let status):
            var out = Output(descriptor: STDOUT_FILENO)
            out.write(said(status) + "\n")
            // Still 0: the timer runs, and its other fronts (the page, MQTT, the kitchen's voice) ring.
            if let warning = warning(status) { printError("eggtimer: start: " + warning) }
            return .done
        case .refused(let refusal):
            printError("eggtimer: start: \(refusal.text)")
            return refusal.kind.exitStatus
        }
    }

    /// How many times `start` asks the kitchen before it gives up (issue 42), each waiting
    /// ``attemptLimit``: a kitchen stopped for a while (Ctrl-Z, SIGSTOP) and continued within
    /// about 20 s still starts the timer, once.
    static let attempts = 3
    /// How long one asking waits for the kitchen's answer: its own ``KitchenCore/startLimit`` for
    /// the timer, and 2 s more.
    static let attemptLimit = KitchenCore.startLimit + .seconds(2)

    /// What asking the kitchen came to.
    enum Asked: Equatable {
        /// The kitchen's answer.
        case outcome(KitchenCore.Outcome)
        /// No kitchen runs, and none took the request: start it directly.
        case noKitchen
        /// Said on standard error; end with this status.
        case failed(ExitStatus)
    }

    /// Asks the kitchen to start `request`, once per request (issue 42).
    ///
    /// The request carries a random id (``RequestID``, 16 bytes from `getrandom`); when no answer
    /// comes within ``attemptLimit`` it is asked again with the same id, ``attempts`` times in all,
    /// and the kitchen answers a repeat as it answered the first. It never acts on a request whose
    /// asker has gone, so "not started" is said only when the kitchen never read one
    /// (``ControlClient/Delivery/unread(peerPID:)``); once it read one, that the timer may have
    /// started. Blocks for at most ``attempts`` × ``attemptLimit``.
    /// - Parameters:
    ///   - request: The typed request.
    ///   - runtime: The runtime folder.
    /// - Returns: The answer, that no kitchen runs, or a failure already said.
    static func ask(_ request: StartRequest, runtime: String) -> Asked {
        let id = (try? randomBytes(16)).map(RequestID.init(randomBytes:))
        let line = ControlRequest.start(request.description, id: id).line
        var read = false  // the kitchen read one of the deliveries: it may have acted on it
        var pid: Int32?
        var timedOut = 0  // deliveries that waited their whole limit
        let attempts = id == nil ? 1 : Self.attempts
        let mayHave = "the timer may have started (see `eggtimer status`)"
        for attempt in 1...attempts {
            do throws(ControlError) {
                switch try ControlClient.deliver(
                    line, label: KitchenCore.ownLabel, folder: KitchenInbox.folder(in: runtime),
                    timeout: Self.attemptLimit)
                {
                case .answered(let reply):
                    guard let answer = KitchenCore.Outcome(line: reply) else {
                        printError("eggtimer: start: the kitchen answered something else: \(reply)")
                        return .failed(.software)
                    }
                    return .outcome(answer)
                case .unread(let peer): (pid, timedOut) = (peer ?? pid, timedOut + 1)
                case .unanswered(let peer): (read, pid, timedOut) = (true, peer ?? pid, timedOut + 1)
                case .closed(let wasRead):
                    // It ended (killed) while asked: asked again at once (a kitchen restarted
                    // answers; none: started directly, unless it had read the request).
                    read = read || wasRead
                    continue
                }
            } catch .system(_, let code) where code == ENOENT || code == ECONNREFUSED {
                if !read { return .noKitchen }  // none runs, and none took it
                printError("eggtimer: start: the kitchen ended after it took the request; " + mayHave)
                return .failed(.unavailable)
            } catch {
                printError("eggtimer: start: the kitchen: \(error.description)")
                return .failed(.unavailable)
            }
            if attempt < attempts {
                printError(
                    "eggtimer: start: \(kitchen(pid)) did not answer within \(Self.attemptLimit.components.seconds) s; "
                        + "asking again (\(attempt + 1) of \(attempts))")
            }
        }
        let waited = Self.attemptLimit.components.seconds * Int64(timedOut)
        if timedOut == 0 {
            printError(
                "eggtimer: start: "
                    + (read
                        ? "the kitchen ended after it took the request; " + mayHave
                        : "not started: the kitchen ended while asked"))
        } else if read {
            printError(
                "eggtimer: start: \(kitchen(pid)) took the request but did not answer within \(waited) s; " + mayHave)
        } else {
            printError("eggtimer: start: not started: \(kitchen(pid)) did not take the request within \(waited) s")
        }
        return .failed(.unavailable)
    }

    /// The kitchen as a line names it: `the kitchen (pid 42)`, and when it is stopped how to
    /// continue it: `the kitchen (pid 42), stopped (`kill -CONT 42` continues it),`.
    private static func kitchen(_ pid: Int32?) -> String {
        guard let pid else { return "the kitchen" }
        return "the kitchen (pid \(pid))"
            + (ProcessState.isStopped(pid) ? ", stopped (`kill -CONT \(pid)` continues it)," : "")
    }

    /// The line for a timer that runs: `Soft: started, rings in 5:00 (pid 4242)`.
    static func said(_ status: TimerStatus) -> String {
        let when =
            status.deadlineUnixMilliseconds == nil
            ? "paused with \(status.remaining.clockText) left" : "rings in \(status.remaining.clockText)"
        return "\(status.label): started, \(when) (pid \(status.pid))"
    }

    /// The warning for a timer whose device cannot be opened (its first status says `device=down`,
    /// after its start-up probe): `warning: Soft will ring silent: cannot open audio device 'X':
    /// REASON; it runs anyway (set a working device in the config file; see aplay -L)`; nil when
    /// its device works.
    static func warning(_ status: TimerStatus) -> String? {
        guard status.deviceDown else { return nil }
        let reason = status.silentReason ?? "its alarm reaches no device"
        return "warning: \(status.label.escapingControlCharacters) will ring silent: "
            + "\(reason.escapingControlCharacters); it runs anyway (set a working device in the config file; see aplay -L)"
    }

    /// Starts the timer without a kitchen, as the kitchen would, and waits until it runs.
    ///
    /// Refused at once when a timer of its label answers (a second one could not take the
    /// socket). Waits in an ``EventLoop`` on the child's pidfd, the runtime folder (a socket bound)
    /// and the timer's watch, until its first status names the child.
    static func direct(_ request: StartRequest, presets: [Preset], runtime: String) -> KitchenCore.Outcome {
        let core = KitchenCore(maxTimers: KitchenCore.maxTimersLimit, presets: presets, socketFolder: runtime)
        var request = request
        var label = core.label(of: request)
        var socket = ControlServer.socketName(for: label)
        func answering(_ socket: String) -> TimerStatus? {
            (try? ControlClient.exchange(
                ControlRequest.status.line, label: socket, folder: runtime, timeout: ControlAnswer.answerLimit))
                .flatMap { TimerStatus(line: $0) }
        }
        // A second soft egg is `Soft-2`, as the kitchen numbers it (KitchenCore.admit).
        if answering(socket) != nil, KitchenCore.isDefault(label, of: request),
            let next = KitchenCore.numbered(label, isTaken: { answering($0) != nil })
        {
            (label, request.label, socket) = (next, next, ControlServer.socketName(for: next))
        }
        if let running = answering(socket) {
            return .refused(
                .init(kind: .usage, text: "\(label): a timer with this label is running (pid \(running.pid))"))
        }
        if label == KitchenCore.ownLabel {
            return .refused(.init(kind: .usage, text: "'\(label)': the kitchen's own label"))
        }
        // Nothing starts out of reach (issue 40): a detached timer without a control socket could
        // be stopped by nobody, and a retry would start a second one.
        if let refusal = KitchenCore.outOfReach(label, folder: runtime) { return .refused(refusal) }
        do throws(ControlError) { try RuntimeFolder.prepare(runtime) } catch {
            // As the kitchen ends for its own folder: 78 too deep, 71 refused (unsafe).
            return .refused(
                .init(kind: .init(folder: error), text: "\(label): not started: \(RuntimeFolder.advice(error))"))
        }
        let clock = MonotonicClock()
        var loop = EventLoop(clock: clock)
        defer { loop.close() }
        // Watched before the timer starts, so its socket's creation is not missed.
        if let watch = FolderWatch(folder: runtime, creations: true) { loop.add(watch) }
        let log = TimerLaunch.log(label: label)
        let child: pid_t
        do { child = try TimerLaunch.start(request.arguments, log: log) } catch {
            return .refused(
                .init(kind: .system, text: "\(label): not started: cannot start eggtimer: \(errorText(error.code))"))
        }
        loop.add(ChildWatch(pid: child, at: clock.now()) { .childExited(pid: child, $0) })
        let follows = TimerFollows(folder: runtime, only: socket, at: clock.now())
        loop.add(follows)
        let giveUp = clock.now() + KitchenCore.startLimit
        while clock.now() < giveUp {
            guard let inputs = try? loop.wait(until: giveUp) else { break }
            for input in inputs {
                switch input {
                case .timerStatus(_, let status) where status.pid == child: return .started(status)
                case .fileWritten(let name?) where name == socket + ".sock": follows.look(at: socket, now: clock.now())
                case .childExited(_, let exit):
                    let status: Int32
                    switch exit {
                    case .exited(let code): status = code
                    case .signaled(let signal): status = 128 + signal
                    }
                    // 64: the timer refused its command line (a label another process holds);
                    // 78: its config file, said in its log's last line.
                    return .refused(.exited(label, status: status, said: TimerLaunch.said(in: log), log: log))
                default: break
                }
            }
        }
        return .refused(
            .init(
                kind: .unavailable,
                text:
                    "\(label): started (pid \(child)) but not answering within \(KitchenCore.startLimit.components.seconds) s; see \(log)"
            ))
    }
}
