import TimerCore

/// The app's logic as a state machine over an injected clock.
///
/// Keys, deadlines and audio reports go in; timer events and audio commands come out. It does no I/O and never reads a clock, so
/// every behaviour is tested by passing instants.
///
/// Not thread-safe: owned by the event loop.
struct Controller {
    typealias Instant = ContinuousClock.Instant

    /// What the timer is for, which sets its titles.
    enum Kind: Equatable {
        /// An egg from the menu or the command line: index into `Configuration.presets`.
        case egg(Int)
        /// A plain countdown (`eggtimer 90`, or a time typed in the menu).
        case plain
        /// The current pomodoro interval.
        case pomodoro(Pomodoro.Phase)
    }

    /// One countdown the user is watching.
    struct Run: Equatable {
        var kind: Kind
        /// The label in events: the preset's name, the duration's clock text, or the phase.
        var label: String
        var countdown: Countdown<Instant>
        /// Whether the alarm player has been started for this run's deadline.
        var armed = false
    }

    /// Where the app is.
    enum Mode: Equatable {
        /// The egg menu; `entry` is the custom duration being typed, if any.
        case menu(selection: Int, entry: String?, error: String?)
        case counting(Run)
        /// The time is up (at `since`, the deadline) and the alarm sounds until a key, the
        /// `--loops` passes, or (the last pomodoro interval without `--wait`) its one pass.
        case ringing(Run, since: Instant)
        /// The app is done and exits with `code`.
        case exited(code: Int32)
    }

    /// An instruction for the event loop.
    enum Effect: Equatable {
        /// Log the event (JSON and plain lines).
        case emit(TimerEvent)
        /// Open the device now and start the alarm's first frame at `at`; `loops` nil = until stopped.
        case startAlarm(at: Instant, loops: Int?)
        /// Stop the alarm (and any pre-opened device) now.
        case stopAlarm
        /// Ring the terminal bell (the alarm's fallback while no audio device works).
        case bell
        /// Exit with this status.
        case exit(Int32)
    }

    /// Reports from the audio side.
    enum AudioReport: Equatable {
        case firstFrame(at: Instant)
        case unavailable(reason: String)
        case recovered
        /// The alarm's requested number of passes has played.
        case finished
    }

    /// Fixed settings from the command line.
    struct Configuration: Equatable {
        var presets = Preset.eggs
        /// Stop the alarm by itself after this many passes (nil: until a key).
        var loops: Int?
        /// Pomodoro: loop the alarm until a key between intervals instead of playing it once.
        var waitForKey = false
        /// The alarm sound's length, for the silent fallback's `--loops` timing.
        var soundLength: Duration = .seconds(1)
        /// How long before the deadline the device is opened.
        var armLead: Duration = .milliseconds(1500)
        /// How often a flashing title toggles.
        var flashPeriod: Duration = .milliseconds(500)
        /// How long a picked menu entry flashes.
        var pickFlash: Duration = .milliseconds(600)
    }

    /// How the app was started.
    enum Start: Equatable {
        case menu
        case timer(Kind, Duration)
        case pomodoro(Pomodoro.Plan)
    }

    let configuration: Configuration
    /// Whether the app returns to the menu after a timer (started without arguments).
    let fromMenu: Bool
    private(set) var mode: Mode
    private(set) var pomodoro: Pomodoro?
    /// Whether the audio device is failing right now (the fallback bell rings while ringing).
    private(set) var deviceDown = false
    /// The last audio problem, shown on screen, until a device plays again.
    private(set) var notice: String?
    /// Whether any alarm this session was heard on no audio device (exit 69).
    private(set) var alarmFailed = false
    /// Whether the current ringing has been heard: a device played it for `heardAfter` without
    /// failing, played every requested pass, or was still playing when it was acknowledged.
    private var sounded = false
    /// Since when a device has been accepting this ringing's audio; nil while none does.
    private var playingSince: Instant?
    /// How long a device must keep accepting audio before a later failure no longer makes the
    /// alarm count as unheard: five 100 ms buffers, so frames have certainly left the buffer.
    static let heardAfter: Duration = .milliseconds(500)
    /// The menu entry that flashes after a pick, and when the pick was.
    private(set) var pickFlash: (index: Int, since: Instant)?

    /// Menu entries: the presets, then "Other…".
    var menuCount: Int { configuration.presets.count + 1 }

    /// Creates the controller and, for a timer or pomodoro start, starts it at `now`.
    init(configuration: Configuration, start: Start, at now: Instant) {
        self.configuration = configuration
        self.mode = .menu(selection: 0, entry: nil, error: nil)
        self.fromMenu = start == .menu
        var effects: [Effect] = []
        switch start {
        case .menu: break
        case .timer(let kind, let duration): begin(kind: kind, duration: duration, at: now, into: &effects)
        case .pomodoro(let plan):
            let pomodoro = Pomodoro(plan: plan)
            self.pomodoro = pomodoro
            begin(kind: .pomodoro(pomodoro.phase), duration: pomodoro.duration, at: now, into: &effects)
        }
        pendingEffects = effects
    }

    /// Effects produced by `init`; the loop takes them once with `takeInitialEffects()`.
    private var pendingEffects: [Effect] = []

    /// Returns the effects of starting, once.
    mutating func takeInitialEffects() -> [Effect] {
        defer { pendingEffects = [] }
        return pendingEffects
    }

    // MARK: - Inputs

    /// Handles a key at `now`.
    mutating func handle(key: Key, at now: Instant) -> [Effect] {
        var effects: [Effect] = []
        effects += advance(to: now)
        switch mode {
        case .exited:
            break
        case .menu(let selection, let entry, _):
            if let entry {
                handleEntry(key: key, entry: entry, selection: selection, at: now, into: &effects)
            } else {
                handleMenu(key: key, selection: selection, at: now, into: &effects)
            }
        case .counting(var run):
            switch key {
            case .character(" "):
                if run.countdown.isPaused {
                    run.countdown.resume(at: now)
                    effects.append(.emit(event(.resumed, run, at: now)))
                } else {
                    run.countdown.pause(at: now)
                    disarm(&run, into: &effects)
                    effects.append(.emit(event(.paused, run, at: now)))
                }
                mode = .counting(run)
            case .character("r"):
                run.countdown.restart(at: now)
                disarm(&run, into: &effects)
                mode = .counting(run)
                effects.append(.emit(event(.reset, run, at: now)))
            case .character("+"), .character("-"):
                let delta: Duration = key == .character("+") ? .seconds(60) : .seconds(-60)
                if canAdjust(by: delta, at: now), run.countdown.adjust(by: delta, at: now) {
                    disarm(&run, into: &effects)
                    mode = .counting(run)
                    effects.append(
                        .emit(event(.adjusted, run, at: now, extra: [("by_s", .integer(delta.components.seconds))])))
                }
            case .character("n") where pomodoro != nil:
                disarm(&run, into: &effects)
                effects.append(.emit(event(.cancelled, run, at: now, extra: [("by", .text("skip"))])))
                nextInterval(skipped: true, at: now, into: &effects)
            case .character("c"), .escape:
                disarm(&run, into: &effects)
                effects.append(.emit(event(.cancelled, run, at: now)))
                leave(at: now, into: &effects)
            case .character("q"):
                disarm(&run, into: &effects)
                effects.append(.emit(event(.cancelled, run, at: now, extra: [("by", .text("quit"))])))
                exit(at: now, into: &effects)
            default:
                break
            }
        case .ringing(let run, _):
            acknowledge(run, by: "key", at: now, into: &effects)
        }
        effects += advance(to: now)
        return effects
    }

    /// Handles the passing of time: finishes at the deadline, opens the device shortly before it,
    /// flashes, and ends a silent `--loops` fallback.
    mutating func tick(at now: Instant) -> [Effect] { advance(to: now) }

    /// Handles a report from the audio side.
    mutating func handle(audio report: AudioReport, at now: Instant) -> [Effect] {
        var effects = advance(to: now)
        switch report {
        case .firstFrame(let instant):
            playingSince = instant
            deviceDown = false
            notice = nil
            if case .ringing(let run, let since) = mode {
                effects.append(
                    .emit(event(.sounding, run, at: instant, extra: [("deadline_t_mono_ns", .instant(since))])))
            }
        case .unavailable(let reason):
            if let playingSince, now >= playingSince.advanced(by: Self.heardAfter) { sounded = true }
            playingSince = nil
            // Once per problem: a retry that fails the same way (the device is tried again 1.5 s
            // before the deadline) is not news.
            if !deviceDown, reason != notice {
                effects.append(
                    .emit(event(.deviceUnavailable, currentRun, at: now, extra: [("reason", .text(reason))])))
            }
            deviceDown = true
            notice = reason
        case .recovered:
            playingSince = now
            if deviceDown { effects.append(.emit(event(.deviceRecovered, currentRun, at: now))) }
            deviceDown = false
            notice = nil
        case .finished:
            if playingSince != nil { sounded = true }  // every requested pass was played and drained
            if case .ringing(let run, _) = mode, configuration.loops != nil || isOneShotRing {
                acknowledge(run, by: "loops", at: now, into: &effects)
            }
        }
        return effects
    }

    /// An external acknowledgement (SIGUSR1, for headless use): stops a ringing alarm.
    mutating func acknowledgeExternally(at now: Instant) -> [Effect] {
        var effects = advance(to: now)
        if case .ringing(let run, _) = mode { acknowledge(run, by: "signal", at: now, into: &effects) }
        return effects
    }

    // MARK: - Time

    /// The next instant the controller must be ticked, given how finely the display needs
    /// updating (`step`: a second for the spinner and clock, a minute for plain lines, nil for none).
    /// - Returns: nil when nothing is scheduled (waiting for a key).
    func nextWake(at now: Instant, step: Duration?) -> Instant? {
        var wakes: [Instant] = []
        if let (since, toggle) = pickFlashToggle(at: now) {
            // Each on/off toggle of the flash, then its end.
            wakes.append(since.advanced(by: configuration.pickFlash / Self.pickFlashToggles * (toggle + 1)))
        }
        switch mode {
        case .counting(let run):
            guard let deadline = run.countdown.deadline else { break }
            wakes.append(deadline)
            if !run.armed { wakes.append(deadline.advanced(by: .zero - configuration.armLead)) }
            if let step {
                // The display steps on multiples of `step` before the deadline.
                let left = run.countdown.remaining(at: now)
                let whole = step * Int((left / step).rounded(.down))
                let boundary = deadline.advanced(by: .zero - whole)
                wakes.append(boundary > now ? boundary : boundary.advanced(by: step))
            }
        case .ringing(let run, let since):
            let elapsed = since.duration(to: now)
            let flashes = Int((elapsed / configuration.flashPeriod).rounded(.down)) + 1
            wakes.append(since.advanced(by: configuration.flashPeriod * flashes))
            if deviceDown, let loops = ringLoops(run) {
                wakes.append(since.advanced(by: configuration.soundLength * loops))
            }
        case .menu, .exited:
            break
        }
        return wakes.filter { $0 > now }.min() ?? wakes.min()
    }

    /// Whether the title flashes "on" at `now` while ringing (and the picked menu entry flashes).
    func flashOn(at now: Instant) -> Bool {
        switch mode {
        case .ringing(_, let since):
            return Int((since.duration(to: now) / configuration.flashPeriod).rounded(.down)) % 2 == 0
        default:
            return pickFlashToggle(at: now).map { $0.toggle % 2 == 0 } ?? false
        }
    }

    /// How many times a picked entry toggles on and off while it flashes (three flashes).
    static let pickFlashToggles = 6

    /// The menu entry flashing after a pick at `now`, or nil once the flash is over.
    func flashingEntry(at now: Instant) -> Int? {
        pickFlashToggle(at: now) == nil ? nil : pickFlash?.index
    }

    /// While a picked entry flashes: when the pick was, and which toggle (0 on, 1 off, …) is showing.
    private func pickFlashToggle(at now: Instant) -> (since: Instant, toggle: Int)? {
        guard let pickFlash, now < pickFlash.since.advanced(by: configuration.pickFlash) else { return nil }
        let length = configuration.pickFlash / Self.pickFlashToggles
        return (pickFlash.since, Int((pickFlash.since.duration(to: now) / length).rounded(.down)))
    }

    /// Whether `+`/`-` (`delta` of ±1 min) may change the current countdown at `now`: the time left
    /// must stay above zero, and at most `DurationParser.maximum`.
    func canAdjust(by delta: Duration, at now: Instant) -> Bool {
        guard case .counting(let run) = mode, run.countdown.canAdjust(by: delta, at: now) else { return false }
        return delta <= .zero || run.countdown.remaining(at: now) + delta <= DurationParser.maximum
    }

    /// The run on screen, if any.
    var currentRun: Run? {
        switch mode {
        case .counting(let run), .ringing(let run, _): run
        default: nil
        }
    }

    // MARK: - Transitions

    private mutating func advance(to now: Instant) -> [Effect] {
        var effects: [Effect] = []
        if case .counting(var run) = mode, let deadline = run.countdown.deadline {
            if !run.armed, now >= deadline.advanced(by: .zero - configuration.armLead) {
                run.armed = true
                deviceDown = false  // the player reports again if the device still fails
                effects.append(.startAlarm(at: deadline, loops: ringLoops(run)))
                mode = .counting(run)
            }
            if now >= deadline {
                effects.append(.emit(event(.finished, run, at: now)))
                sounded = false
                playingSince = nil
                lastBellSlot = -1
                if isOneShot(run), pomodoro?.isLastInterval != true {
                    // A pomodoro interval without --wait: the alarm plays once while the next starts.
                    // After the last one it rings its pass out before the app exits.
                    if deviceDown { effects.append(.bell) }
                    nextInterval(skipped: false, at: now, into: &effects)
                } else {
                    mode = .ringing(run, since: deadline)
                }
            }
        }
        if case .ringing(let run, let since) = mode, deviceDown {
            // The fallback: the bell once a second while no device works.
            let slot = Int((since.duration(to: now) / (configuration.flashPeriod * 2)).rounded(.down))
            if slot != lastBellSlot {
                lastBellSlot = slot
                effects.append(.bell)
            }
            if let loops = ringLoops(run), now >= since.advanced(by: configuration.soundLength * loops) {
                acknowledge(run, by: "loops", at: now, into: &effects)
            }
        }
        return effects
    }

    /// The last second (since the deadline) in which the fallback bell rang.
    private var lastBellSlot = -1

    private var isOneShotRing: Bool {
        if case .ringing(let run, _) = mode { return isOneShot(run) }
        return false
    }

    /// How many passes a ringing plays before ending by itself; nil: until acknowledged.
    private func ringLoops(_ run: Run) -> Int? { isOneShot(run) ? 1 : configuration.loops }

    private func isOneShot(_ run: Run) -> Bool {
        if case .pomodoro = run.kind { return !configuration.waitForKey }
        return false
    }

    private mutating func acknowledge(_ run: Run, by source: String, at now: Instant, into effects: inout [Effect]) {
        effects.append(.stopAlarm)
        if playingSince != nil, !deviceDown { sounded = true }
        if !sounded { alarmFailed = true }
        effects.append(.emit(event(.acknowledged, run, at: now, extra: [("by", .text(source))])))
        if pomodoro != nil {
            nextInterval(skipped: false, at: now, into: &effects)
        } else {
            leave(at: now, into: &effects)
        }
    }

    /// Back to the menu when started from it, else exit.
    private mutating func leave(at now: Instant, into effects: inout [Effect]) {
        if fromMenu {
            mode = .menu(selection: 0, entry: nil, error: nil)
            pickFlash = nil
        } else {
            exit(at: now, into: &effects)
        }
    }

    private mutating func exit(at now: Instant, into effects: inout [Effect]) {
        let code: Int32 = alarmFailed ? 69 : 0
        mode = .exited(code: code)
        effects.append(.exit(code))
    }

    private mutating func disarm(_ run: inout Run, into effects: inout [Effect]) {
        if run.armed {
            run.armed = false
            effects.append(.stopAlarm)
        }
    }

    /// Starts the pomodoro's next interval, or exits when the plan is done.
    private mutating func nextInterval(skipped: Bool, at now: Instant, into effects: inout [Effect]) {
        guard var pomodoro else { return }
        if case .pomodoro = currentRun?.kind {} else { return }
        let next = pomodoro.advance(skipped: skipped)
        self.pomodoro = pomodoro
        guard let next else {
            exit(at: now, into: &effects)
            return
        }
        begin(kind: .pomodoro(next), duration: pomodoro.duration, at: now, into: &effects)
    }

    /// Starts a countdown of `duration` at `now`.
    private mutating func begin(kind: Kind, duration: Duration, at now: Instant, into effects: inout [Effect]) {
        var countdown = Countdown<Instant>(total: duration)
        countdown.start(at: now)
        let label: String
        switch kind {
        case .egg(let index): label = configuration.presets[index].name
        case .plain: label = duration.clockText
        case .pomodoro(let phase): label = phase.rawValue
        }
        let run = Run(kind: kind, label: label, countdown: countdown)
        mode = .counting(run)
        if case .pomodoro = kind {
            effects.append(.emit(event(.interval, run, at: now)))
        } else {
            effects.append(.emit(event(.started, run, at: now)))
        }
    }

    private mutating func handleMenu(key: Key, selection: Int, at now: Instant, into effects: inout [Effect]) {
        var pick: Int?
        switch key {
        case .up: mode = .menu(selection: (selection + menuCount - 1) % menuCount, entry: nil, error: nil)
        case .down: mode = .menu(selection: (selection + 1) % menuCount, entry: nil, error: nil)
        case .enter: pick = selection
        case .character(let c):
            let lower = Character(c.lowercased())
            if let digit = c.wholeNumberValue, digit >= 1, digit <= configuration.presets.count {
                pick = digit - 1
            } else if let index = configuration.presets.firstIndex(where: { $0.name.lowercased().first == lower }) {
                pick = index
            } else if lower == "t" || lower == "o" {
                pick = configuration.presets.count
            } else if lower == "q" {
                exit(at: now, into: &effects)
            }
        default: break
        }
        guard let pick else { return }
        if pick == configuration.presets.count {
            mode = .menu(selection: pick, entry: "", error: nil)
        } else {
            pickFlash = (pick, now)
            begin(kind: .egg(pick), duration: configuration.presets[pick].duration, at: now, into: &effects)
        }
    }

    /// The longest duration that can be typed in the menu (the longest valid one is 12 characters).
    static let entryLimit = 24

    private mutating func handleEntry(
        key: Key, entry: String, selection: Int, at now: Instant, into effects: inout [Effect]
    ) {
        switch key {
        case .escape:
            mode = .menu(selection: selection, entry: nil, error: nil)
        case .backspace:
            mode = .menu(selection: selection, entry: String(entry.dropLast()), error: nil)
        case .eraseLine:
            mode = .menu(selection: selection, entry: "", error: nil)
        case .enter:
            do {
                let duration = try DurationParser.parse(entry)
                pickFlash = (selection, now)
                begin(kind: .plain, duration: duration, at: now, into: &effects)
            } catch {
                mode = .menu(selection: selection, entry: entry, error: error.description)
            }
        case .character(let c) where entry.count < Self.entryLimit:
            mode = .menu(selection: selection, entry: entry + String(c), error: nil)
        default:
            break
        }
    }

    private func event(
        _ name: TimerEvent.Name, _ run: Run?, at now: Instant, extra: [(String, TimerEvent.Value)] = []
    ) -> TimerEvent {
        TimerEvent(
            name: name, label: run?.label ?? "", total: run?.countdown.total ?? .zero,
            remaining: run?.countdown.remaining(at: now) ?? .zero, at: now,
            extra: extra.map { .init(key: $0.0, value: $0.1) })
    }
}
