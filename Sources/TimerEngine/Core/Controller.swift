package import AlarmAudio
import Glibc
package import TimerCore
package import TimerModel

/// The app's logic as a state machine over an injected clock.
///
/// ``Input``s go in with the instant they were seen; ``Effect``s come out. It does no I/O and never
/// reads a clock, so every behaviour is tested by passing instants. The mode says where the app
/// is (the menu, counting, ringing), and each mode holds only its own state; the files
/// `Controller+Menu`, `Controller+Counting` and `Controller+Ringing` handle each mode's inputs.
///
/// Not thread-safe: owned by the event loop.
package struct Controller {
    package typealias Instant = ContinuousClock.Instant

    /// Where the app is.
    package enum Mode: Equatable {
        case menu(Menu)
        case counting(Counting)
        case ringing(Ringing)
        /// The app is done and exits with this status.
        case exited(ExitStatus)
    }

    /// Fixed settings from the command line.
    package struct Configuration: Equatable {
        package var presets = Preset.eggs
        /// Stop the alarm by itself after this many passes (nil: until acknowledged).
        package var loops: Int?
        /// Pomodoro: loop the alarm until a key between intervals instead of playing it once.
        package var waitForKey = false
        /// The alarm sound's length, for the silent fallback's `--loops` timing.
        package var soundLength: Duration = .seconds(1)
        /// How long before the deadline the device is opened.
        package var armLead: Duration = .milliseconds(1500)
        /// How often the fallback bell rings while no device works.
        package var bellPeriod: Duration = .seconds(1)
        /// `--ring-for`: how long an alarm rings unacknowledged before it counts as missed.
        package var ringFor: Duration?
        /// How long a snooze lasts when none is given (10 min, as desktop clocks do).
        package var snoozeLength: Duration = .seconds(600)
        /// `key-guard`: how long the menu an alarm returned to ignores its picks (``KeyGuard``);
        /// zero: never.
        package var keyGuard = KeyGuard.standard
        /// Whether `--on-done` gave a command to run at each deadline.
        package var runsDoneCommand = false
        /// How each preset's time was computed from the egg's size, temperature and the altitude
        /// ("Soft, 58 g from the fridge at sea level"); nil for a fixed time.
        package var presetBasis: [String?] = []
        /// The label this process answers to (its control socket's, its topics'): the snapshot's.
        package var label = ""
        /// This process's id, for the snapshot.
        package var pid: Int32 = 0
        /// The id of the start that made this timer (`--request-id`), for the snapshot.
        package var requestID: RequestID?

        /// The defaults above, and `loops` (nil: until acknowledged); the session sets the rest
        /// from the command line one by one.
        package init(loops: Int? = nil) { self.loops = loops }
    }

    /// How the app was started.
    package enum Start: Equatable {
        case menu
        /// One timer: its kind, length and label (the preset's name or the duration as typed).
        case timer(Run.Kind, Duration, label: String)
        /// The pomodoro technique with this plan, under `label` (default `pomodoro`).
        case pomodoro(Pomodoro.Plan, label: String = "pomodoro")
        /// A timer started again from its record (`eggtimer recover`).
        case resumed(Resumption)
        /// An alarm at a time on the wall clock (`eggtimer at TIME`), under `label`.
        case alarm(AlarmSchedule, label: String)
    }

    /// The audio device's health, kept across modes: a problem found at start or when the device
    /// is opened before the deadline is still the problem while ringing.
    package struct AudioHealth: Equatable {
        /// Whether the alarm reaches no device right now (a ringing is ``TimerState/silent``).
        ///
        /// The device fails (the player's `deviceUnavailable`, the log's `device_unavailable`) and
        /// the fallback bell rings: one name on the timer side for the three of issue 22.
        package var silent = false
        /// A device took the first frames after ``silent`` (a busy device was got at last): its
        /// `device_recovered` is logged when the player reports that it plays.
        package var returning = false
        /// The last device problem, shown on screen, until a device plays again.
        package var notice: AlarmError?
        /// Whether the device problem is a busy device (another process holds it), which the
        /// player waits for rather than a fault.
        package var waitsForBusyDevice: Bool {
            guard silent, case .deviceBusy = notice else { return false }
            return true
        }
        /// Whether any alarm this session was heard on no device (exit 69).
        package var alarmFailed = false
        /// Whether the player has a ringing (or a pre-opened device) that has not ended yet.
        package var playerActive = false
    }

    package let configuration: Configuration
    /// Whether the app returns to the menu after a timer (started without arguments).
    package let fromMenu: Bool
    /// Where the app is; set only by the controller's own files.
    package var mode: Mode = .menu(Menu()) {
        didSet { if let run = currentRun { recentRun = run } }
    }
    /// The pomodoro plan's progress, when running one.
    package var pomodoro: Pomodoro?
    package var audio = AudioHealth()
    /// The current run, or the last one as it was when it ended (`+`/`-` included).
    ///
    /// For what comes after a run: a device that hung while stopping, the `--on-done` command
    /// ending, the final snapshot. Follows ``mode``.
    package private(set) var recentRun: Run?
    /// How the last timer ended (done, cancelled, missed), for the exit status.
    package var outcome: TimerState?

    /// The alarm at a time, while one runs (its deadline follows the wall clock; see
    /// Controller+Alarm.swift); nil for a countdown.
    package var schedule: AlarmSchedule?
    /// The wall clock as last read beside the boot clock, to map wall deadlines to boot instants.
    package var wallReading: WallReading?
    /// Whether the wall clock was last reported as synchronised (``observe(clockSynchronised:at:)``).
    package var clockSynchronised = true
    /// A countdown recovered after a reboot, while it follows its wall-clock deadline (see
    /// Controller+Recovered.swift); nil otherwise.
    package var recovered: Recovered?

    /// Whether a hang-up (SIGHUP: the terminal closed, an SSH session dropped) detached the timer
    /// from its terminal: it counts and rings on headless, and ends when its timer ends instead
    /// of going back to the menu (nobody is left to pick from it).
    package private(set) var detached = false

    /// When the menu ignores its picks (``Configuration/keyGuard`` after an alarm ended and the
    /// app came back to the menu, or after the last pick ignored since): the one rule,
    /// ``KeyGuard/Window``.
    ///
    /// The keys typed to stop an alarm (a second key, a key hammered, both hands) never pick an
    /// egg: see Controller+Menu.swift. Set only by the controller's own files.
    package var menuGuard = KeyGuard.Window<Instant>()

    /// How many deadlines have been seen passed so far (each `finished`); see ``handle(round:at:)``.
    package var deadlinesSeen = 0

    /// Effects produced by the input being handled.
    private var out: [Effect] = []
    /// While a stop is awaited after an acknowledgement: the `acknowledged` event, which gets the
    /// instant the audio stopped, and the events and exit that came after it, held back to keep the
    /// log in order.
    ///
    /// See ``handleAudioEnd(stoppedAt:)``.
    private var held: Held?

    /// An acknowledgement waiting for the player's stop report.
    private struct Held {
        var acknowledged: TimerEvent
        /// Events and the exit that came after it.
        var after: [Effect] = []
        /// Whether the device was taking audio with nothing yet proving it was heard: a clean
        /// stop confirms it played; a hang means it had stalled, so the alarm was not heard.
        var unproven: Bool
    }

    /// Creates the controller in the menu; ``start(at:)`` then starts what `start` asks for.
    package init(configuration: Configuration, start: Start) {
        self.configuration = configuration
        self.fromMenu = start == .menu
        self.startRequest = start
    }

    private let startRequest: Start
    /// The pomodoro's label, kept for each interval it begins.
    package var pomodoroLabel = "pomodoro"

    /// Starts the timer or pomodoro asked for at `now` (nothing for the menu).
    /// - Returns: The effects of starting: the `started` or `interval` event.
    package mutating func start(at now: Instant) -> [Effect] {
        switch startRequest {
        case .menu: break
        case .timer(let kind, let duration, let label): begin(kind, duration: duration, label: label, at: now)
        case .pomodoro(let plan, let label):
            pomodoro = Pomodoro(plan: plan)
            pomodoroLabel = label
            begin(.pomodoro, duration: plan.duration(of: .work), label: label, at: now)
        case .resumed(let resumption): resume(resumption, at: now)
        case .alarm(let schedule, let label):
            self.schedule = schedule
            beginAlarm(label: label, at: now)
        }
        return takeEffects()
    }

    // MARK: - Inputs

    /// Handles one input seen at `now`.
    /// - Returns: What the event loop must do, in order.
    package mutating func handle(_ input: Input, at now: Instant) -> [Effect] {
        advance(to: now)
        switch input {
        case .key(let key): handle(key: key, at: now)
        case .signal(let number): handle(signal: number, at: now)
        case .audio(let event): handleAudio(event, at: now)
        case .tick: break
        case .command(let command, let origin, let connection):
            handle(command, from: origin, connection: connection, at: now)
        case .doneCommandEnded(let status, let signal): handleDoneCommandEnd(status: status, signal: signal, at: now)
        case .note(let line): perform(.log(line))  // a source's line (the control socket bound again)
        case .bus, .childExited, .fileWritten, .fileRemoved, .startRequest, .timerStatus, .timerEnded, .timerReply,
            .keyAction, .heard, .pairRequest, .unpairRequest:
            break
        }
        advance(to: now)
        return takeEffects()
    }

    /// Handles everything the event loop read in one wait, all seen at `now`.
    ///
    /// Keys and SIGUSR1 read in the round in which a deadline is first seen passed were sent
    /// before the alarm could be heard (the process was stopped or starved across the deadline):
    /// they are dropped, never taken as acknowledging the alarm (or as acting on the next
    /// pomodoro interval). Everything else is handled in order, as ``handle(_:at:)`` would.
    /// - Returns: What the event loop must do, in order.
    package mutating func handle(round inputs: [Input], at now: Instant) -> [Effect] {
        let seenBefore = deadlinesSeen
        advance(to: now)
        let deadlinePassedNow = deadlinesSeen != seenBefore
        var effects = takeEffects()
        for input in inputs where !(deadlinePassedNow && input.isUserAction) {
            effects += handle(input, at: now)
        }
        return effects
    }

    private mutating func handle(key: Key, at now: Instant) {
        switch mode {
        case .menu(let menu): handleMenu(key: key, menu, at: now)
        case .counting(var counting) where counting.previousAlarm != nil:
            // The last interval's alarm still playing its pass: a key stops it, like any alarm.
            counting.previousAlarm = nil
            mode = .counting(counting)
            stopAlarm()
        case .counting(let counting):
            if let command = command(forKey: key) {
                handle(command, from: .key, at: now)
            } else {
                handleCounting(key: key, counting, at: now)
            }
        case .ringing:
            if let command = command(forKey: key) { handle(command, from: .key, at: now) }
        case .exited: break
        }
    }

    private mutating func handle(signal number: Int32, at now: Instant) {
        switch number {
        case SIGHUP where currentRun != nil:
            // A hang-up never silences an alarm: a timer counting or ringing goes on headless.
            if !detached {
                detached = true
                out.append(.detach)
            }
        case SIGINT, SIGTERM, SIGHUP, SIGQUIT:
            if case .exited = mode { return }
            if currentRun != nil { outcome = .cancelled }
            mode = .exited(.signal(number))
            out.append(.exit(.signal(number)))
        case SIGWINCH: out.append(.resize)
        case SIGTSTP: out.append(.suspend)
        case SIGCONT: out.append(.retakeTerminal)
        default:
            if let command = Self.command(forSignal: number) { handle(command, from: .signal, at: now) }
        }
    }

    // MARK: - Reading the state

    /// The run on screen, if any.
    package var currentRun: Run? {
        switch mode {
        case .counting(let counting): counting.run
        case .ringing(let ringing): ringing.run
        case .menu, .exited: nil
        }
    }

    /// The current timer's state in the shared vocabulary; nil in the menu.
    package var state: TimerState? {
        switch mode {
        case .counting(let counting):
            counting.snoozed ? .snoozed : counting.run.countdown.isPaused ? .paused : .counting
        case .ringing: audio.silent ? .silent : .ringing
        case .menu: nil
        case .exited: outcome
        }
    }

    /// The next instant the controller must be ticked: opening the device before the deadline, the
    /// deadline, and while ringing on no device the fallback bell and the end of `--loops`.
    ///
    /// Display steps are the view's and the log's business.
    /// - Returns: nil when nothing is scheduled (waiting for a key).
    package func nextWake(at now: Instant) -> Instant? {
        var wakes: [Instant] = []
        switch mode {
        case .counting(let counting):
            if recovered != nil, !clockSynchronised { wakes.append(now.advanced(by: Self.syncCheck)) }
            guard let deadline = counting.run.countdown.deadline, recovered?.held != true else { break }
            wakes.append(deadline)
            if !counting.armed { wakes.append(deadline.advanced(by: .zero - configuration.armLead)) }
        case .ringing(let ringing):
            if audio.silent {
                let slot = ringing.bellSlot(at: now, period: configuration.bellPeriod)
                wakes.append(ringing.since.advanced(by: configuration.bellPeriod * (slot + 1)))
                if let loops = ringing.loops {
                    wakes.append(ringing.since.advanced(by: configuration.soundLength * loops))
                }
            }
        case .menu, .exited:
            break
        }
        return wakes.filter { $0 > now }.min() ?? wakes.min()
    }

    // MARK: - Shared transitions

    /// Returns and clears the effects gathered so far.
    package mutating func takeEffects() -> [Effect] {
        defer { out = [] }
        return out
    }

    /// Logs `event`, after any acknowledgement still waiting for its stop.
    package mutating func emit(_ event: TimerEvent) { send(.emit(event)) }

    /// Adds an effect that happens at once, whatever is held back (the bell, the audio commands).
    package mutating func perform(_ effect: Effect) { out.append(effect) }

    /// Adds `effect` in log order: held back behind a waiting acknowledgement.
    private mutating func send(_ effect: Effect) {
        if held != nil { held!.after.append(effect) } else { out.append(effect) }
    }

    /// Asks the player to start the alarm: the first frame at `at`, `loops` passes, `line` first.
    package mutating func startAlarm(at: Instant, loops: Int?, line: RingLine = .ready) {
        releaseHeld(stoppedAt: nil, hung: false)  // a new ringing replaces the old: no stop report comes
        audio.playerActive = true
        audio.silent = false  // the player reports again if the device still fails
        out.append(.startAlarm(at: at, loops: loops, line: line))
    }

    /// Asks the player to stop, if it is doing anything.
    package mutating func stopAlarm() {
        if audio.playerActive { out.append(.stopAlarm) }
    }

    /// Logs `acknowledged` now if nothing is playing, else once the player reports it stopped
    /// (so the event carries `audio_stopped_t_mono_ns`, the instant the device was dropped).
    /// - Parameters:
    ///   - event: The `acknowledged` event.
    ///   - unproven: Whether the alarm counts as heard only if the device stops cleanly.
    package mutating func logAcknowledgement(_ event: TimerEvent, unproven: Bool) {
        if audio.playerActive, held == nil {
            out.append(.stopAlarm)
            held = Held(acknowledged: event, unproven: unproven)
        } else {
            stopAlarm()
            emit(event)
        }
    }

    /// The player's ringing ended (finished, stopped or hung): release what waited for it.
    /// - Parameters:
    ///   - stoppedAt: When the device was dropped, if it was.
    ///   - hung: Whether it ended by hanging.
    package mutating func handleAudioEnd(stoppedAt: Instant?, hung: Bool = false) {
        audio.playerActive = false
        releaseHeld(stoppedAt: stoppedAt, hung: hung)
    }

    private mutating func releaseHeld(stoppedAt: Instant?, hung: Bool) {
        guard let released = held else { return }
        held = nil
        var (acknowledged, after) = (released.acknowledged, released.after)
        if hung, released.unproven {
            // The device had stalled before the key: the alarm was never heard after all.
            acknowledged.extra.append(.init(key: "silent", value: .text(silenceReason)))
            if !audio.alarmFailed {
                audio.alarmFailed = true
                let status = status(for: outcome)
                after = after.map { if case .exit = $0 { .exit(status) } else { $0 } }
                if case .exited = mode { mode = .exited(status) }
            }
        }
        if let stoppedAt {
            acknowledged.extra.append(.init(key: "audio_stopped_t_mono_ns", value: .instant(stoppedAt)))
        }
        out.append(.emit(acknowledged))
        out += after
    }

    /// Back to the menu when started from it, else exit.
    ///
    /// Back from an alarm (ringing, or snoozed), the menu ignores its picks for
    /// ``Configuration/keyGuard``.
    /// - Parameters:
    ///   - outcome: How the timer ended.
    ///   - now: The boot clock now.
    package mutating func leave(_ outcome: TimerState, at now: Instant) {
        self.outcome = outcome
        if fromMenu, !detached {
            let fromAlarm =
                switch mode {
                case .ringing: true
                case .counting(let counting): counting.snoozed
                case .menu, .exited: false
                }
            if fromAlarm { menuGuard.cover(now..<now.advanced(by: configuration.keyGuard), pressedAt: now) }
            mode = .menu(Menu())
        } else {
            exit(status(for: outcome))
        }
    }

    /// Ends the app with `status`.
    package mutating func exit(_ status: ExitStatus) {
        mode = .exited(status)
        send(.exit(status))
    }

    /// The exit status for a session whose last timer ended as `outcome` (nil: none ran or the
    /// menu was quit): an alarm heard on no device wins, since it is what went wrong.
    package func status(for outcome: TimerState?) -> ExitStatus {
        if audio.alarmFailed { return .unavailable }
        switch outcome {
        case .cancelled?: return .cancelled
        case .missed?: return .missed
        default: return .done
        }
    }

    /// Starts a countdown of `duration` at `now`.
    package mutating func begin(
        _ kind: Run.Kind, duration: Duration, label: String, at now: Instant, picked: Int? = nil
    ) {
        var countdown = Countdown<Instant>(total: duration)
        countdown.start(at: now)
        let run = Run(kind: kind, label: label, countdown: countdown)
        mode = .counting(Counting(run: run, startedAt: now, pickedEntry: picked))
        var extra: [(String, TimerEvent.Value)] = []
        if let explanation = explanation(of: run) { extra.append(("computed", .text(explanation))) }
        emit(event(kind == .pomodoro ? .interval : .started, run, at: now, extra: extra))
    }

    /// How `run`'s time was computed, with the time ("Soft, 58 g from the fridge at sea level:
    /// 4:35"), for an egg whose preset time was computed; nil otherwise.
    package func explanation(of run: Run) -> String? {
        guard case .egg(let index) = run.kind, index < configuration.presetBasis.count,
            let basis = configuration.presetBasis[index]
        else { return nil }
        return "\(basis): \(configuration.presets[index].duration.clockText)"
    }

    /// Whatever time has made due: opening the device, the deadline, the fallback bell.
    private mutating func advance(to now: Instant) {
        if case .counting(let counting) = mode { advanceCounting(counting, to: now) }
        if case .ringing(let ringing) = mode { advanceRinging(ringing, to: now) }
    }

    /// A timer event for `run` at `now`: its common fields from `run`'s snapshot (label, total,
    /// time left, the pomodoro phase and the alarm's time where there are), `extra` its own.
    package func event(
        _ name: TimerEvent.Name, _ run: Run?, at now: Instant, extra: [(String, TimerEvent.Value)] = []
    ) -> TimerEvent {
        TimerEvent(
            name, snapshot(of: run, at: now, wall: nil), at: now,
            extra: extra.map { TimerEvent.Field(key: $0.0, value: $0.1) })
    }
}
