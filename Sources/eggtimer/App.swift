import AlarmAudio
import CSystem
import Glibc
import TimerCore

/// A reason to exit before the event loop starts.
struct ExitStatus: Error {
    let status: Int32
}

/// The event loop: waits in one `ppoll` on the keyboard, the signals and the alarm player's
/// reports, with a timeout that ends at the controller's next deadline, then feeds what happened
/// to the controller and carries out its effects (audio, terminal, event log).
///
/// Runs on the main thread. It owns the terminal: the original settings are restored on every
/// exit path, including signals.
struct App {
    let options: Options
    private let clock = MonotonicClock()
    private let log: EventLog
    private var stdout = Output(descriptor: STDOUT_FILENO)

    init(options: Options) {
        self.options = options
        self.log = EventLog(clock: clock)
    }

    /// Runs until the user quits or the timer is done.
    /// - Returns: The exit status.
    mutating func run() -> Int32 {
        silenceAudioLibraryMessages()
        var keyboard = RawMode(descriptor: STDIN_FILENO)  // nil when standard input is no terminal
        if options.command == .menu, keyboard == nil {
            printError(
                "eggtimer: the egg menu needs a keyboard on standard input; give a duration or soft, medium, hard")
            return 64
        }

        // The sound is decoded and the device tried before the countdown, so a problem shows
        // while it can be fixed; and before signals are blocked, so Ctrl-C still ends a start-up
        // that stalls (a slow disk, an odd device).
        var messages: [String] = []
        let sound: AlarmSound
        do { sound = try loadSound(warnings: &messages) } catch { return error.status }
        var startupNotice: String?
        do {
            try AlarmPlayer.probe(device: options.device, sound: sound)
        } catch {
            printError(
                "eggtimer: \(error); the countdown runs anyway and the alarm falls back to the terminal bell."
                    + " Pick a device with -D NAME (see aplay -L).")
            startupNotice = "\(error)"
        }

        _ = CSystem_setTimerSlack(1)  // wake at the deadline, not up to 50 us after it
        Self.requestRealtimeScheduling()
        guard let signals = SignalSet() else {
            printError("eggtimer: cannot set up signal handling")
            return 71
        }
        defer { signals.close() }

        let player = AlarmPlayer(sound: sound, device: options.device)

        // Where things go: the UI on a terminal, JSON or plain lines on standard output.
        // `--json` on a terminal gets the JSON alone; `eggtimer 10m --json | jq .` or `> log`
        // typed at a terminal draws the UI on standard error, and the keys work either way.
        let uiDescriptor: Int32? =
            isatty(STDOUT_FILENO) == 1
            ? (options.json ? nil : STDOUT_FILENO)
            : (isatty(STDERR_FILENO) == 1 && keyboard != nil ? STDERR_FILENO : nil)
        let plainLines = !options.json && uiDescriptor != STDOUT_FILENO
        var screen = uiDescriptor.map { Screen(output: Output(descriptor: $0)) }
        var view = View(style: .init(unicode: Self.localeIsUTF8(), color: Self.colorWanted()))
        view.messages = messages
        view.hasKeyboard = keyboard != nil
        view.processID = getpid()
        var size = Self.terminalSize(uiDescriptor)

        var configuration = Controller.Configuration()
        configuration.presets = options.presets
        configuration.loops = options.loops
        configuration.waitForKey = options.wait
        configuration.soundLength = sound.duration
        let start: Controller.Start
        switch options.command {
        case .preset(let index): start = .timer(.egg(index), options.presets[index].duration)
        case .countdown(let duration): start = .timer(.plain, duration)
        case .pomodoro: start = .pomodoro(options.plan)
        default: start = .menu
        }

        keyboard?.enter()
        keyboard?.discardTypedAhead()  // keys typed while it was building are not meant for it
        screen?.enter()
        var stdinOpen = keyboard != nil || isStdinReadable()
        let decoder = KeyDecoder()
        var controller = Controller(configuration: configuration, start: start, at: clock.now())
        var lastStop: AlarmPlayer.Report?
        var lastMinute: Int64 = -1

        /// Restores everything; the one way out.
        func finish(_ status: Int32) -> Int32 {
            player.stop(at: clock.now())
            screen?.leave()
            keyboard?.restore()
            return status
        }

        var effects = controller.takeInitialEffects()
        if let startupNotice {
            effects += controller.handle(audio: .unavailable(reason: startupNotice), at: clock.now())
        }

        while true {
            // Carry out effects in order.
            for effect in effects {
                switch effect {
                case .emit(var event):
                    if event.name == .acknowledged, let stoppedAt = lastStop?.stoppedAt {
                        event.extra.append(.init(key: "audio_stopped_t_mono_ns", value: .instant(stoppedAt)))
                    }
                    if options.json {
                        stdout.write(log.json(event) + "\n")
                    } else if plainLines, let line = log.plain(event) {
                        stdout.write(line + "\n")
                    }
                case .startAlarm(let at, let loops):
                    player.start(at: at, loops: loops, now: clock.now())
                case .stopAlarm:
                    player.stop(at: clock.now())
                case .bell:
                    if var screen {
                        screen.bell()
                    } else if isatty(STDERR_FILENO) == 1 {
                        var terminal = Output(descriptor: STDERR_FILENO)
                        terminal.write("\u{07}")
                    }
                case .exit(let status):
                    return finish(status)
                }
            }
            effects = []

            // Draw, and log a plain line per minute when there is no UI on standard output.
            let now = clock.now()
            if screen != nil {
                screen!.draw(view.lines(controller, at: now, columns: size.columns, rows: size.rows))
                if let error = screen!.output.failed { return finish(error == EPIPE ? 141 : 74) }
            }
            if plainLines, case .counting(let run) = controller.mode, run.countdown.isRunning {
                // Whole minutes left, rounded up: changes exactly when a whole minute is left.
                let left = run.countdown.remaining(at: now)
                let minute = (left.roundedUpToWholeSeconds.components.seconds + 59) / 60
                if lastMinute >= 0, minute != lastMinute, left > .zero {
                    stdout.write("\(run.label): \(left.clockText) left\n")
                }
                lastMinute = minute
            } else {
                lastMinute = -1
            }
            // Standard output gone (a closed descriptor, a reader that quit): exit quietly now.
            if let error = stdout.failed { return finish(error == EPIPE ? 141 : 74) }

            // Wait for the next deadline, key, signal or audio report.
            let step: Duration? = screen != nil ? View.spinnerStep : (plainLines ? .seconds(60) : nil)
            var fds = [
                pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            if stdinOpen { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            let wake = [controller.nextWake(at: clock.now(), step: step), player.nextCheck].compactMap { $0 }.min()
            let ready: Int32
            if let wake {
                let wait = max(.zero, clock.now().duration(to: wake))
                let (seconds, attoseconds) = wait.components
                var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                ready = ppoll(&fds, nfds_t(fds.count), &timeout, nil)
            } else {
                ready = ppoll(&fds, nfds_t(fds.count), nil, nil)
            }
            if ready < 0 && errno != EINTR { return finish(71) }

            // Signals first: they may end everything.
            if fds[0].revents != 0 {
                for signal in signals.drain() {
                    switch signal {
                    case SIGINT: return finish(130)
                    case SIGTERM: return finish(143)
                    case SIGHUP: return finish(129)
                    case SIGQUIT: return finish(131)
                    case SIGWINCH:
                        size = Self.terminalSize(uiDescriptor)
                        screen?.invalidate()
                    case SIGTSTP:
                        screen?.leave()
                        keyboard?.restore()
                        signals.suspendProcess()
                        keyboard?.enter()
                        screen?.enter()
                        size = Self.terminalSize(uiDescriptor)
                    case SIGCONT:
                        // Continued after a stop we did not ask for: take the terminal back.
                        keyboard?.enter()
                        screen?.invalidate()
                    case SIGUSR1:
                        effects += controller.acknowledgeExternally(at: clock.now())
                    default: break
                    }
                }
            }
            for event in player.events(at: clock.now()) {
                if case .stopped(let report) = event { lastStop = report }
                if let report = Self.report(event) { effects += controller.handle(audio: report, at: clock.now()) }
            }
            if stdinOpen, fds.count > 2, fds[2].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 256)
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count > 0 {
                    for key in decoder.decode(bytes[0..<count]) {
                        effects += controller.handle(key: key, at: clock.now())
                    }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    stdinOpen = false  // EOF or closed: polling it again would spin
                }
            }
            effects += controller.tick(at: clock.now())
        }
    }

    /// The sound to ring: `--sound PATH` (errors are fatal: 66 missing, 65 not audio), else the
    /// shipped sound, else (a damaged install) the built-in tone.
    /// - Parameter warnings: Gets each warning, also printed to standard error at once; the UI
    ///   shows them too, since its full screen would hide what was printed before it.
    /// - Returns: The decoded sound.
    /// - Throws: `ExitStatus` 66 or 65 when `--sound` names a missing or a non-audio file.
    private func loadSound(warnings: inout [String]) throws(ExitStatus) -> AlarmSound {
        func warn(_ text: String) {
            printError("eggtimer: warning: " + text)
            warnings.append(text)
        }
        /// Decodes `path`, passing its warnings on; a silent file gets the built-in tone instead.
        func decodeAudible(_ path: String) throws(AlarmError) -> AlarmSound {
            let sound = try AlarmSound.decode(path: path)
            for warning in sound.warnings { warn("\(path): \(warning)") }
            guard Self.isAudible(sound) else {
                warn("\(path) is silent (peak below -60 dBFS); using the built-in alarm tone")
                return AlarmSound.builtInTone()
            }
            return sound
        }
        if let path = options.soundPath {
            do {
                return try decodeAudible(path)
            } catch {
                printError("eggtimer: \(error)")
                if case .soundNotFound = error { throw ExitStatus(status: 66) }
                throw ExitStatus(status: 65)
            }
        }
        guard let path = SoundLocator.locate() else {
            warn("\(SoundLocator.fileName) not found beside the program; using the built-in alarm tone")
            return AlarmSound.builtInTone()
        }
        do {
            return try decodeAudible(path)
        } catch {
            warn("\(error); using the built-in alarm tone")
            return AlarmSound.builtInTone()
        }
    }

    /// The quietest peak that counts as an alarm: -60 dBFS, 32768 × 10^(-60/20) ≈ 33 (sample value).
    static let audiblePeak = 33

    /// Whether `sound` can be heard at all: a silent file is a broken alarm, not a choice.
    static func isAudible(_ sound: AlarmSound) -> Bool { sound.peakAmplitude >= audiblePeak }

    private static func report(_ event: AlarmPlayer.Event) -> Controller.AudioReport? {
        switch event {
        case .firstFrame(let at): .firstFrame(at: at)
        case .deviceUnavailable(let error), .hung(let error): .unavailable(reason: "\(error)")
        case .deviceRecovered: .recovered
        case .finished: .finished
        case .stopped: nil
        }
    }

    /// Asks for the lowest real-time priority (SCHED_FIFO 1) where the system allows it (root,
    /// CAP_SYS_NICE, or `LimitRTPRIO=1` in a systemd unit), as audio servers do for their audio
    /// threads; quietly keeps the normal policy otherwise.
    ///
    /// Under full CPU load the normal scheduler wakes a sleeping thread up to 3–4 ms late; at
    /// SCHED_FIFO it is 0.2 ms (BENCHMARKS.md). Both threads only ever block in poll or sleep, so
    /// they take little; the kernel's RT throttling (95 % by default) bounds any bug. Call before
    /// starting the playback thread, which inherits the policy.
    private static func requestRealtimeScheduling() {
        var parameters = sched_param(sched_priority: 1)
        _ = sched_setscheduler(0, SCHED_FIFO, &parameters)
    }

    /// Whether standard input can be read at all (not closed).
    private func isStdinReadable() -> Bool { fcntl(STDIN_FILENO, F_GETFD) != -1 }

    private static func terminalSize(_ descriptor: Int32?) -> (columns: Int, rows: Int) {
        var rows: UInt16 = 0
        var columns: UInt16 = 0
        guard let descriptor, CSystem_windowSize(descriptor, &rows, &columns) == 0, columns > 0, rows > 0 else {
            return (80, 24)
        }
        return (Int(columns), Int(rows))
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
