import AlarmAudio
import ControlChannel
import EventLoop
import Glibc
import HouseLink
import SystemKit
import TerminalUI
import TimerCore
import TimerEngine
import TimerModel
import TimerText

/// One run of the event loop: the controller, what carries out its effects (the alarm player,
/// the terminal, the log), and the loop that feeds it.
///
/// Owned by the main thread.
struct Session {
    var controller: Controller
    /// The timer as the last round left it (``Controller/snapshot(at:wall:)``, at the round's
    /// instants): what the fronts read.
    private(set) var snapshot: TimerSnapshot
    var terminal: TerminalSession
    var output: EventOutput
    var view: View
    var loop: EventLoop
    let player: AlarmPlayer
    let signals: SignalSet
    let clock: MonotonicClock
    /// `--on-done`'s command line.
    private let doneCommand: String?
    /// The label this process answers to on its control socket.
    private let label: String
    /// `--json` was given (an input of ``OutputRouting/decide(_:)``).
    let json: Bool
    /// Whether this job is in the background of a terminal it would use in the foreground, so
    /// the loop looks every ``foregroundCheck`` for `fg`.
    var awaitsForeground = false

    /// How often a background job looks whether it was brought to the foreground.
    ///
    /// `fg` sends no signal to a job that is running in the background (bash and dash send SIGCONT
    /// only to a stopped one), and nothing else reports it: so it is looked for, at a cost of four
    /// `tcgetpgrp` calls a second, and the UI appears at most this long after `fg`.
    static let foregroundCheck: Duration = .milliseconds(250)
    /// Which output failures were said on standard error already.
    private var reported = (log: false, screen: false)
    /// The wall deadline last handed to the ``WallTimer`` (``handOverWallDeadline()``).
    var wallDeadline: WallInstant?
    /// Keeps the timer's record for `eggtimer recover`; nil when there is no state folder.
    private var records: RecordKeeper?
    /// The timer's presence on the MQTT broker (`--mqtt`); nil without one.
    var link: BusLink?
    /// The line spoken at the head of each ringing (`--say`, `--announce`); nil without one.
    var spokenLine: SpokenLine?
    /// Whether the wall clock is synchronised (``ClockSync/isSynchronised()``); a seam for tests.
    var clockSynchronised: () -> Bool = ClockSync.isSynchronised

    /// Puts the pieces together; nothing runs until ``run(deviceProblem:)``.
    /// - Parameters:
    ///   - routing: Where output goes and whether keys are read, as decided at start.
    ///   - startup: The decoded sound and the start-up warnings, shown on screen.
    ///   - options: The parsed command line and configuration file.
    ///   - clock: The boot clock the controller and the log read.
    ///   - player: Plays the alarm.
    ///   - loop: Feeds the controller its inputs.
    ///   - signals: The handled signals; used to stop the process on Ctrl-Z.
    ///   - start: What the controller starts (`options.start`, or a recorded timer resumed).
    ///   - records: Keeps the timer's record; nil for none.
    ///   - notes: Shown on screen with the start-up warnings (a resumed timer's lateness).
    init(
        routing: OutputRouting, startup: Startup, options: Options, clock: MonotonicClock, player: AlarmPlayer,
        loop: EventLoop, signals: SignalSet, start: Controller.Start, records: RecordKeeper?, notes: [String] = []
    ) {
        var configuration = Controller.Configuration()
        configuration.presets = options.presets
        configuration.loops = options.loops
        configuration.waitForKey = options.wait
        configuration.soundLength = startup.sound.duration
        configuration.ringFor = options.ringFor
        configuration.keyGuard = options.keypad.keyGuard
        configuration.presetBasis = options.presetBasis
        configuration.runsDoneCommand = options.onDone != nil
        configuration.label = options.processLabel
        configuration.pid = getpid()
        configuration.requestID = options.requestID
        doneCommand = options.onDone
        label = options.processLabel
        controller = Controller(configuration: configuration, start: start)
        let (now, wall) = Self.readClocks(clock)
        snapshot = controller.snapshot(at: now, wall: wall)
        self.records = records
        terminal = TerminalSession(routing: routing)
        output = EventOutput(log: routing.log, clock: clock, descriptor: STDOUT_FILENO)
        view = View(style: .init(unicode: Self.localeIsUTF8(), color: Self.colorWanted()))
        view.messages = startup.warnings + notes
        view.processID = getpid()
        json = options.json
        (self.loop, self.player, self.signals, self.clock) = (loop, player, signals, clock)
        applyRouting()
    }

    /// Runs until the controller exits (or a signal ends it).
    /// - Parameter deviceProblem: Why the device did not open at start, reported like any other.
    /// - Returns: The exit status.
    mutating func run(deviceProblem: AlarmError?) -> ExitStatus {
        terminal.enter()
        var (now, wall) = readClocks()
        var effects = controller.start(at: now, wall: wall)
        effects += controller.observe(clockSynchronised: clockSynchronised(), at: now)
        if let deviceProblem {
            effects += controller.handle(.audio(.deviceUnavailable(deviceProblem)), at: clock.now())
        }
        snapshot = controller.snapshot(at: now, wall: wall)
        handOverWallDeadline()
        while true {
            publishState()  // first: the house hears of a change before any disk write
            recordTimer()  // then: once an event is logged, the record says so too
            if let status = perform(effects) { return finish(status) }
            tellSpokenLineNotes()
            shareStatus()  // after the effects: a reply goes out before the watchers hear of it
            followForeground()
            now = clock.now()
            view.clockWarning = snapshot.clockUnsynchronised
            let screen = controller.screen(at: now)
            terminal.draw(
                view.lines(snapshot, screen, at: now, columns: terminal.size.columns, rows: terminal.size.rows))
            output.writeMinuteLine(snapshot, at: now)
            reportOutputFailures()
            let inputs: [Input]
            do { inputs = try loop.wait(until: nextWake(at: now)) } catch { return finish(error) }
            (now, wall) = readClocks()
            effects = controller.handle(round: routeBus(inputs), at: now, wall: wall)
            // Each round (one adjtimex call): NTP's first answer after boot is a clock step, which
            // the wall-clock timer turns into a wake-up.
            if controller.followsWallClock {
                effects += controller.observe(clockSynchronised: clockSynchronised(), at: now)
            }
            snapshot = controller.snapshot(at: now, wall: wall)
            handOverWallDeadline()
        }
    }

    /// The boot clock now and what the wall clock (CLOCK_REALTIME) reads at that instant.
    ///
    /// The wall time comes from a bracketed reading of the two clocks' offset, so a preemption
    /// between the two reads cannot look like a clock step.
    private func readClocks() -> (ContinuousClock.Instant, WallInstant) { Self.readClocks(clock) }

    /// ``readClocks()`` on `clock`.
    private static func readClocks(_ clock: MonotonicClock) -> (ContinuousClock.Instant, WallInstant) {
        let now = clock.now()
        return (now, wall(at: now, clock))
    }

    /// Brings the timer's record up to date: the keeper plans the write or removal (nothing when
    /// unchanged), the session carries it out.
    private mutating func recordTimer() {
        guard var keeper = records else { return }
        let step = keeper.plan(
            snapshot, schedule: controller.schedule?.record, recoveredDeadline: controller.recovered?.deadline.deadline,
            offset: WallClock.system.offset(), clock: clock)
        guard let step else { return }
        keeper.perform(step)
        records = keeper
    }

    /// Says once on standard error that the log or the UI could no longer be written (a closed
    /// pipe, a full disk, a terminal gone with EIO).
    ///
    /// Nothing else changes: the failed writer writes no more, and the countdown, the alarm and the
    /// exit status go on as before.
    private mutating func reportOutputFailures() {
        if let error = output.failed, !reported.log {
            reported.log = true
            printError("eggtimer: standard output: \(errorText(error)); no more log lines")
        }
        if let error = terminal.failed, !reported.screen {
            reported.screen = true
            printError("eggtimer: the terminal: \(errorText(error)); no more screen updates")
        }
    }

    /// The next instant anything is due: the controller's deadlines, the screen's next change,
    /// the next plain minute line.
    private func nextWake(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let screen = terminal.hasScreen ? view.nextChange(snapshot, controller.screen(at: now), at: now) : nil
        let foreground = awaitsForeground ? now.advanced(by: Self.foregroundCheck) : nil
        let bus = link?.nextRefresh
        return [controller.nextWake(at: now), screen, output.nextMinuteLine(snapshot, at: now), foreground, bus]
            .compactMap { $0 }.min()
    }

    /// Carries out `effects` in order.
    /// - Returns: The exit status when one of them ends the app.
    private mutating func perform(_ effects: [Effect]) -> ExitStatus? {
        for effect in effects {
            switch effect {
            case .emit(let event): output.write(event)
            case .startAlarm(let at, let loops, let line):
                spokenLine?.alarmStarting(at: at, loops: loops, line: line, now: clock.now())  // never waited for
                player.start(at: at, loops: loops, now: clock.now())
            case .stopAlarm:
                spokenLine?.alarmStopped()
                player.stop(at: clock.now())
            case .bell: terminal.bell()
            case .resize: terminal.resize()
            case .suspend:
                terminal.suspend(signals)
                retakeTerminal()
            case .retakeTerminal: retakeTerminal()
            case .detach:
                terminal.detach()
                followForeground()
            case .exit(let status): return status
            case .reply(let connection, let reply): answer(connection, reply)
            case .runDoneCommand: startDoneCommand()
            case .publishState: publishState(now: true)
            case .log(let text): if !terminal.hasScreen { printError("eggtimer: " + text) }
            }
        }
        return nil
    }

    /// Says what the spoken line reported (not ready, failed, no library): on standard error
    /// while no screen is on, else among the screen's messages.
    private mutating func tellSpokenLineNotes() {
        guard let notes = spokenLine?.takeNotes(), !notes.isEmpty else { return }
        for note in notes {
            if terminal.hasScreen { view.messages.append(note) } else { printError("eggtimer: " + note) }
        }
    }

    /// Answers a control request with the timer's status as it is now, or the refusal.
    private func answer(_ connection: Int, _ reply: ControlReply) {
        switch reply {
        case .refused(let reason): loop.first(ControlInbox.self)?.reply(connection, "error\t" + reason)
        case .status: loop.first(ControlInbox.self)?.reply(connection, status(at: clock.now()).line)
        }
    }

    /// Hands the control socket's watchers the status as it is now (they get it when it changed).
    private func shareStatus() {
        guard let control = loop.first(ControlInbox.self), control.watcherCount > 0 else { return }
        control.broadcast(watchLine(at: clock.now()))
    }

    /// The line a watcher gets: the status line as a `status` request's reply.
    private func watchLine(at now: ContinuousClock.Instant) -> String { status(at: now).line }

    /// What this timer says about itself on the control socket: its snapshot at `now` (the wall
    /// clock read now), as the status line encodes it.
    func status(at now: ContinuousClock.Instant) -> TimerStatus {
        TimerStatus(controller.snapshot(at: now, wall: Self.wall(at: now, clock)))
    }

    /// What the wall clock reads at `now` on `clock` (the offset read now).
    static func wall(at now: ContinuousClock.Instant, _ clock: MonotonicClock) -> WallInstant {
        WallInstant(unixNanoseconds: clock.nanoseconds(now) + WallClock.system.offset())
    }

    /// Starts `--on-done`'s command; a failure to start it is said, never fatal.
    private mutating func startDoneCommand() {
        guard let doneCommand, loop.first(ChildWatch<Input>.self) == nil else { return }
        do {
            loop.add(try DoneCommand.start(command: doneCommand))
        } catch {
            printError("eggtimer: --on-done: cannot start /bin/sh: \(errorText(error.code))")
        }
    }

    /// The one way out: restores the terminal, then stops the alarm, waiting for the device at
    /// most ``AlarmPlayer/answerLimit`` (a stuck device is left behind; the process ends anyway).
    ///
    /// The timer's record is removed, except when SIGTERM or SIGHUP ended the process (a reboot,
    /// `systemctl stop`, a closed SSH session): then `eggtimer recover` starts it again.
    private mutating func finish(_ status: ExitStatus) -> ExitStatus {
        terminal.leave()
        if var keeper = records {
            let signal = status.signalName.flatMap { RecordKeeper.keptBy.contains($0) ? $0 : nil }
            if keeper.end(keepingFor: signal), let signal {
                // Said, as the user who sent it may have meant "stop for good" (then: cancel).
                printError(
                    "eggtimer: \(label.escapingControlCharacters): ended by \(signal); "
                        + "its record is kept: `eggtimer recover` starts it again")
            }
            records = keeper
        }
        // The record's last write comes before the watchers' last line: a kitchen that forgets a
        // kept record on that line (a STOP after SIGTERM) must not see it written again after.
        loop.first(ControlInbox.self)?.finish(watchLine(at: clock.now()))
        finishBus()
        guard player.isRunning else { return status }
        player.stop(at: clock.now())
        player.waitForStop(clock: clock)
        return status
    }

    private static func localeIsUTF8() -> Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty {
                // language_TERRITORY.codeset@modifier: is the codeset UTF-8 (spelled any way)?
                guard let dot = value.firstIndex(of: ".") else { return false }
                let codeset = value[value.index(after: dot)...].prefix { $0 != "@" }
                return codeset.lowercased().filter { $0 != "-" } == "utf8"
            }
        }
        return false
    }

    /// Colours unless NO_COLOR is set to anything non-empty (no-color.org).
    private static func colorWanted() -> Bool {
        guard let value = getenv("NO_COLOR") else { return true }
        return String(cString: value).isEmpty
    }
}
