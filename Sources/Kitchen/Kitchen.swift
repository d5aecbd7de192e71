package import AlarmAudio
import ControlChannel
import EventLoop
import Glibc
import HouseBus
import KitchenWeb
import Listening
import Speech
import SystemKit
import TimerCore
package import TimerEngine
import TimerModel
import TimerText

/// `eggtimer kitchen`: the long-running front of this box's timers.
///
/// It counts no time itself. It starts timers as a shell would (``TimerLaunch``: this binary,
/// detached in a session of its own, each with its record, so `status`, `ack`, `recover` and MQTT
/// see them as any other), asked for on its socket (``KitchenInbox``, `eggtimer start`), and
/// follows every running timer of this user through its control socket's `watch`
/// (``TimerFollows``; a ``FolderWatch`` on the runtime folder sees each new socket), so a
/// restarted kitchen finds them again. At most ``KitchenSettings/maxTimers`` run at once. SIGTERM and
/// SIGINT end it (exit 0) and never its timers.
///
/// The runner only: it makes the sources, feeds the loop's inputs to ``KitchenCore``, which
/// decides, and carries out its ``KitchenEffect``s; the ``start(_:from:)`` entry and the
/// ``timers`` picture are what the other fronts (MQTT, keys, voice, HTTP) build on. Owned by the
/// main thread. The executable makes it from its options (``KitchenSettings``) and runs it.
package final class Kitchen {
    /// What it was told: the command line over the config file.
    package let settings: KitchenSettings
    let clock = MonotonicClock()
    private(set) var core: KitchenCore
    var loop: EventLoop
    private var out = Output(descriptor: STDOUT_FILENO)
    let runtime: String
    private var inbox: KitchenInbox?
    private var follows: TimerFollows?
    /// The kitchen's MQTT side and its client with `--mqtt`; nil without a broker (Kitchen+Bus.swift).
    var bus: (reducer: KitchenBus, client: BusClient)?
    /// The commands in flight to the timers, each answered on its own (TimerExchanges.swift).
    private(set) var exchanges: TimerExchanges
    /// The kitchen's own player while it plays (the speaker test, a spoken answer:
    /// Kitchen+Keypad.swift, Kitchen+Voice.swift), and what it plays, for its lines.
    var speakerTest: AlarmPlayer?
    var speakerUse = "key: speaker test"
    /// The kitchen's spoken answers; nil with `announce = no` (Kitchen+Voice.swift).
    var voice: KitchenVoice?
    /// The "… is ringing but cannot reach its speaker" lines asked for and not played yet, with
    /// the label each is about: one whose timer no longer rings silent is dropped, not said late.
    var unheardLines: [String: String] = [:]
    /// The timer the last spoken start made and when it began, which "no" or "cancel that"
    /// takes back within ``undoWindow`` (Kitchen+Listening.swift).
    var heardStart: (label: String, pid: Int32, at: ContinuousClock.Instant)?
    /// What the listener's grammar offers, as loaded (labels and presets the dictionary lacks
    /// left out); nil while the kitchen does not listen (Kitchen+Listening.swift).
    var heardVocabulary: CommandGrammar.Vocabulary?
    /// The alarm sound, decoded at the first speaker test.
    var alarmSound: AlarmSound?
    /// The HTTP API with `--http`; nil without (Kitchen+Web.swift).
    var web: KitchenWebFront?
    /// The web API's pairing code and paired devices (Kitchen+Pairing.swift).
    var pairing = Kitchen.makePairing()
    /// The wall clock in milliseconds since the Unix epoch, which the timers' deadlines are on;
    /// a test's may stand still (Kitchen+Voice.swift).
    var wallMilliseconds: () -> Int64 = Kitchen.systemWallMilliseconds

    /// Reads the alarm sound as a timer does, lent by the executable.
    ///
    /// `--sound`, else the shipped one, else the built-in tone; nil when it cannot be read.
    let loadSound: (SoundFilePath?) -> AlarmSound?

    /// Prepares the kitchen.
    /// - Parameters:
    ///   - settings: What it is told (the command line over the config file).
    ///   - loadSound: Reads the alarm sound (see ``loadSound``).
    package init(settings: KitchenSettings, loadSound: @escaping (SoundFilePath?) -> AlarmSound?) {
        (self.settings, self.loadSound) = (settings, loadSound)
        runtime = RuntimeFolder.current()
        core = KitchenCore(maxTimers: settings.maxTimers, presets: settings.presets, socketFolder: runtime)
        loop = EventLoop(clock: clock)
        exchanges = TimerExchanges(folder: runtime)
    }

    /// The running timers it follows, by label: the latest status each one's watch sent.
    ///
    /// What the keypad, the voice and the web page read.
    var timers: [String: TimerStatus] {
        Dictionary(core.timers.values.map { ($0.label, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Runs until SIGTERM or SIGINT.
    /// - Returns: 0 when a signal ended it; 75 when another kitchen of this user runs; 78 when the
    ///   runtime folder is too deep for its socket; 71 when the runtime folder is unsafe or signal
    ///   handling cannot be set up.
    package func run() -> ExitStatus {
        do throws(ControlError) {
            try RuntimeFolder.prepare(runtime)
            inbox = try KitchenInbox(runtime: runtime)
        } catch .labelInUse {
            // Nothing is wrong with the command line: try again once that kitchen ends.
            printError("eggtimer: kitchen: another kitchen of this user runs (\(KitchenInbox.folder(in: runtime)))")
            return .temporaryFailure
        } catch {
            // 78 too deep for its socket, 71 unsafe or refused: as a start's refusal over it.
            printError("eggtimer: kitchen: \(RuntimeFolder.advice(error))")
            return KitchenCore.Refusal.Kind(folder: error).exitStatus
        }
        guard let signals = SignalSet() else {
            printError("eggtimer: cannot set up signal handling")
            return .osError
        }
        defer { signals.close() }
        defer { loop.close() }
        loop.add(signals)
        if let inbox {
            loop.add(inbox)
            loop.add(inbox.keeper)
        }
        if let watch = FolderWatch(folder: runtime, creations: true) {
            loop.add(watch)
        } else {
            say("cannot watch \(runtime): timers started elsewhere are found only when the kitchen restarts")
        }
        let follows = TimerFollows(folder: runtime, at: clock.now())
        self.follows = follows
        loop.add(follows)
        loop.add(exchanges)
        loadPairing()
        if let keypad = openKeypad() { loop.add(keypad) }
        do throws(ExitStatus) {
            if let listener = try openListener(interruptedBy: signals.pollRequests.map(\.descriptor)) {
                loop.add(listener)
            }
        } catch { return error }
        if settings.announce {
            let voice = KitchenVoice(voice: settings.voice, preparer: SpeechLinePreparer())
            self.voice = voice
            loop.add(voice)
        }
        if settings.bus.url != nil {
            do throws(ExitStatus) {
                loop.add(
                    try openBus(settings.bus, presets: settings.presets.map(\.name), at: clock.now()))
            } catch { return error }
            watchRecords()
        }
        if settings.web.address != nil {
            do throws(ExitStatus) { loop.add(try openWeb()) } catch { return error }
        }
        say("kitchen: listening on \(inbox?.path ?? ""), at most \(core.maxTimers) timers")
        // The timers that died by a signal while no kitchen ran come back now (issue 40).
        if RecordStore.current()?.names().isEmpty == false { perform([.recover(label: nil)]) }
        while true {
            let inputs: [Input]
            let due = [core.nextCheck, bus?.reducer.nextCheck].compactMap { $0 }.min()
            do { inputs = try loop.wait(until: due) } catch {
                web?.close()
                return error
            }
            for input in inputs {
                if let status = handle(input) {
                    web?.close()
                    finishBus()
                    return status
                }
            }
            voiceRound()
            webRound()
        }
    }

    /// The one entry for a start from any front: admits it, and starts it or answers the refusal.
    ///
    /// The answer (``KitchenCore/Outcome``) goes to `origin` once the timer runs, exits first or
    /// does not answer within ``KitchenCore/startLimit``; a refusal goes at once. Never blocks.
    /// - Parameters:
    ///   - request: The typed request.
    ///   - id: Its asker's id (a repeat is answered as the first was: issue 42), or nil.
    ///   - origin: Who asked (the answer's way back).
    func start(_ request: StartRequest, id: RequestID? = nil, from origin: KitchenCore.Origin) {
        perform(core.decide(.start(request, id: id), from: origin, at: clock.now()))
    }

    /// The one entry for an action on the running timers from any front.
    ///
    /// The core decides which timers it touches, the commands go out as exchanges, and the answer
    /// goes to `origin` once every timer replied or its deadline passed (at once when none fits).
    /// Never blocks.
    /// - Parameters:
    ///   - action: The action.
    ///   - origin: Who asked (the answer's way back).
    func act(_ action: KitchenCore.Action, from origin: KitchenCore.Origin) {
        perform(core.decide(.act(action), from: origin, at: clock.now()))
    }

    /// Handles one input of the loop.
    ///
    /// On the loop's thread; internal so that tests can feed it inputs (a timer's status).
    /// - Returns: The exit status when it ends the kitchen; nil to go on.
    func handle(_ input: Input) -> ExitStatus? {
        let now = clock.now()
        switch input {
        case .signal(let number) where [SIGTERM, SIGINT, SIGQUIT].contains(number):
            say("kitchen: ended by \(ExitStatus.signal(number).signalName ?? "signal \(number)"); its timers run on")
            return .done
        case .signal(SIGTSTP):
            // Ctrl-Z: stopped as any program is (its timers count on in their own processes);
            // `fg`, `bg` or SIGCONT go on from here.
            kill(getpid(), SIGSTOP)
        case .startRequest(let text, let id, let connection):
            do throws(UsageError) {
                start(
                    try StartRequest.parse(text, presets: settings.presets.map(\.name)), id: id,
                    from: .shell(connection: connection))
            } catch {
                perform([
                    .answer(.shell(connection: connection), .refused(.init(kind: .usage, text: error.description)))
                ])
            }
        case .pairRequest(let connection): inbox?.reply(connection, pairingCodeLine())
        case .unpairRequest(let connection): inbox?.reply(connection, unpairAllLine())
        case .timerStatus(let socket, let status): perform(core.status(socket: socket, status))
        case .timerReply(let exchange, let reply):
            if let reply {
                perform(core.replied(exchange: exchange, reply))
            } else {
                perform(core.failed(exchange: exchange, "closed without an answer"))
            }
        case .timerEnded(let socket):
            if let last = core.timers[socket] { web?.ended.append(KitchenAPI.timer(last, node: settings.bus.nodeName)) }
            perform(core.ended(socket: socket))
        case .keyAction(let action): perform(key: action)
        case .heard(let words, let confident): hear(words, confident: confident)
        case .audio(let event): handleSpeakerTest(event)
        case .note(let line): say(line)
        case .fileWritten(let name):
            if let name, name.hasSuffix(".sock") {
                follows?.look(at: String(name.dropLast(5)), now: now)
            } else if name == nil {
                follows?.look(at: nil, now: now)
            }
        case .fileRemoved(let name):
            // A record (not a temporary file renamed over one: every write moves one away).
            let record = name.map { !$0.hasPrefix(".") && $0.hasSuffix(RecordStore.suffix) } ?? true
            if record { clearForgottenLeftovers() }
        case .childExited(let pid, let exit):
            switch exit {
            case .exited(let status):
                let said = core.startingLog(pid: pid).flatMap(TimerLaunch.said(in:))
                perform(core.childExited(pid: pid, status: status, said: said))
            case .signaled(let signal): perform(core.childExited(pid: pid, status: 128 + signal))
            }
        case .tick:
            perform(core.expire(at: now))
            busRound(at: now)
        case .bus(let event): handleBus(event)
        default: break
        }
        return nil
    }

    /// Carries out `effects` in order.
    func perform(_ effects: [KitchenEffect]) {
        for effect in effects {
            switch effect {
            case .say(let line): say(line)
            case .event(let event): publishEvent(event)
            case .ringsUnheard(let label, let reason):
                say("\(label): rings silent: \(reason)")
                unheardLines[phrases.ringingUnheard(label)] = label
                speak(phrases.ringingUnheard(label))
            case .spawn(let label, let arguments, let origin, let id):
                let log = TimerLaunch.log(label: label)
                do throws(SpawnError) {
                    let startID = id.map { ["--request-id", $0.text] } ?? []
                    let pid = try TimerLaunch.start(
                        arguments + startID + KitchenBus.timerArguments(settings.bus), log: log,
                        announce: settings.announce)
                    loop.add(ChildWatch(pid: pid, at: clock.now()) { .childExited(pid: pid, $0) })
                    perform(core.spawned(label: label, pid: pid, origin: origin, log: log, id: id, at: clock.now()))
                } catch {
                    let text = "\(label): not started: cannot start eggtimer: \(errorText(error.code))"
                    perform([.answer(origin, .refused(.init(kind: .system, text: text, label: label)))])
                }
            case .send(let exchange, let request, let socket):
                if let reason = exchanges.begin(exchange, request.line, to: socket) {
                    perform(core.failed(exchange: exchange, reason))
                }
            case .drop(let exchange): exchanges.drop(exchange)
            case .recover(let label):
                do throws(SpawnError) {
                    let pid = try TimerLaunch.recover(label: label)
                    loop.add(ChildWatch(pid: pid, at: clock.now()) { .childExited(pid: pid, $0) })
                } catch {
                    say("\(label ?? "kitchen"): cannot start eggtimer recover: \(errorText(error.code))")
                }
            case .forgetRecord(let label, let pid): forgetRecord(label: label, pid: pid)
            case .answerAction(let origin, let answer): answerAction(answer, to: origin)
            case .answer(let origin, let outcome):
                say(Self.line(outcome, origin: origin))
                publishEvent(KitchenEvent.answer(outcome, origin: origin))
                if origin == .keypad || origin == .voice { answer(outcome) }
                if origin == .voice, case .started(let status) = outcome {
                    heardStart = (status.label, status.pid, clock.now())
                }
                if case .shell(let connection) = origin { inbox?.reply(connection, outcome.line) }
                if case .web(let exchange, let form) = origin { web?.answer(exchange, outcome, form: form) }
                if case .bus(let id) = origin { answerBus(outcome, id: id) }
            }
        }
    }

    /// Removes the kept record of the timer `label` when process `pid` wrote it, with one line.
    ///
    /// One small file read and an unlink in the state folder (as the pairing store's writes);
    /// nothing when the record is gone or is a newer timer's. C: `unlink`, `fsync`.
    private func forgetRecord(label: String, pid: Int32) {
        guard let store = RecordStore.current() else { return }
        let name = RecordStore.fileName(label: label)
        guard let record = try? RecordStore.read(path: store.folder + "/" + name), record.pid == pid else { return }
        if let code = store.remove(name: name) {
            say(
                "\(label): stopped, but its kept record cannot be removed (\(errorText(code))): "
                    + "`eggtimer recover` would start it again")
        } else {
            say("\(label): stopped; its kept record is removed: `eggtimer recover` will not start it")
        }
    }

    /// The log's line for a start's outcome.
    static func line(_ outcome: KitchenCore.Outcome, origin: KitchenCore.Origin) -> String {
        let by =
            switch origin {
            case .shell: "shell"
            case .bus: "MQTT"
            case .keypad: "keypad"
            case .voice: "voice"
            case .web: "HTTP"
            }
        switch outcome {
        case .started(let status): return "\(StartCommand.said(status)) (from \(by))"
        case .refused(let refusal): return "\(refusal.text) (from \(by))"
        }
    }

    /// Writes one line to the kitchen's log.
    func say(_ line: String) { out.write(line + "\n") }
}
