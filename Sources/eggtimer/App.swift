import AlarmAudio
import ControlChannel
import EventLoop
import Glibc
import HouseLink
import Speech
import SystemKit
import TerminalUI
import TimerCore
import TimerEngine
import TimerText

/// Wires eggtimer together: the event loop's inputs go to the controller, the controller's
/// effects go to the player, the terminal and the log, and the screen is drawn after each round.
///
/// Runs on the main thread. Every exit goes through ``finish(_:)``, which restores the terminal
/// first and then ends even if the audio device is stuck.
struct App {
    let options: Options
    private let clock = MonotonicClock()

    init(options: Options) { self.options = options }

    /// Runs until the user quits or the timer is done.
    /// - Returns: The exit status.
    func run() -> ExitStatus {
        silenceAudioLibraryMessages()
        var options = options
        var start = options.start
        var notes: [String] = []
        if let path = options.resumeRecord {
            guard options.command == .menu else {
                printError("eggtimer: --resume-record takes no duration or mode")
                return .usage
            }
            do { (options, start, notes) = try Resume.load(path: path, base: options) } catch { return error }
        }
        let phrases = Phrasebook(voice: options.voice ?? SpeechLinePreparer.defaultVoice)
        let lines = options.spokenLines(label: options.processLabel, phrases: phrases)
        if options.resumeRecord == nil, !lines.isEmpty, let voice = options.voice {
            do throws(ExitStatus) { try Options.checkVoice(voice, from: options.voiceConfigLine) } catch {
                return error
            }
        }
        if Self.isAlarm(options.command, start), let warning = TimeZoneCheck.warning() {
            // glibc rings an unknown zone's 7:00 at 07:00 UTC without a word: say so, and go on.
            printError("eggtimer: warning: " + warning)
            notes.append(warning)
        }
        if case .alarm(let time, let text) = options.command {
            do { start = try Self.alarm(time, typed: text, options: options, clock: clock) } catch { return error }
        }
        let routing = OutputRouting.decide(.current(json: options.json))
        if options.command == .menu, options.resumeRecord == nil, !routing.keyboard {
            printError(
                "eggtimer: the egg menu needs a keyboard on standard input; give a duration or soft, medium, hard")
            return .usage
        }
        let label = options.processLabel
        let control: ControlInbox?
        do { control = try Self.listen(as: label) } catch { return error }
        let startup: Startup
        do { startup = try Startup(options: options) } catch { return error }

        try? setTimerSlack(.nanoseconds(1))  // wake at the deadline, not up to 50 us after it
        Self.requestRealtimeScheduling()
        guard let signals = SignalSet() else {
            printError("eggtimer: cannot set up signal handling")
            return .osError
        }
        defer { signals.close() }
        let player = AlarmPlayer(
            sound: startup.sound, device: options.device, fallbackDevice: options.fallback,
            loudness: options.loudness(for: startup.sound))
        var loop = EventLoop(clock: clock)
        loop.add(signals)
        loop.add(player)
        loop.add(Keyboard(keyboard: routing.keyboard))
        if let control {
            loop.add(control)
            loop.add(control.keeper)
        }
        if let wall = WallTimer() { loop.add(wall) }
        let spokenLine =
            lines.isEmpty
            ? nil
            : SpokenLine(
                texts: lines, voice: options.voice, sound: startup.sound, preparer: SpeechLinePreparer(), player: player
            )
        if let spokenLine {
            loop.add(spokenLine)
            spokenLine.request(at: clock.now())  // at start: ready long before the deadline
        }
        var link: BusLink?
        if options.bus.url != nil {
            do {
                let opened = try BusLink.open(options: options.bus, label: label, at: clock.now())
                link = opened.link
                loop.add(opened.client)
            } catch {
                // A recovered timer rings locally rather than not at all (its password file gone,
                // libmosquitto removed); a new one stops here, as its command line asked for MQTT.
                guard options.resumeRecord != nil else { return error }
                printError("eggtimer: warning: the recovered timer runs without MQTT")
            }
        }
        let records = RecordKeeper.open(label: label, options: options, resumedFrom: options.resumeRecord)
        var session = Session(
            routing: routing, startup: startup, options: options, clock: clock, player: player, loop: loop,
            signals: signals, start: start, records: records, notes: notes)
        session.link = link
        session.spokenLine = spokenLine
        defer { session.loop.close() }
        return session.run(deviceProblem: startup.deviceProblem)
    }

    /// Whether this run is an alarm at a time (`eggtimer at`, or one brought back by `recover`).
    private static func isAlarm(_ command: Options.Command, _ start: Controller.Start) -> Bool {
        if case .alarm = command { return true }
        if case .alarm = start { return true }
        return false
    }

    /// The start of `eggtimer at TIME`: its first occurrence after the wall clock now, in the
    /// local time zone (`TZ`).
    /// - Throws: `ExitStatus.usage` for a date or instant in the past (one line names it).
    private static func alarm(
        _ time: LocalAlarmTime, typed: String, options: Options, clock: MonotonicClock
    ) throws(ExitStatus) -> Controller.Start {
        let wall = WallInstant(unixNanoseconds: clock.nanoseconds(clock.now()) + WallClock.system.offset())
        let every = options.every.map { ($0, text: options.everyText ?? "") }
        do {
            let schedule = try AlarmSchedule(time, every: every, now: wall, resolver: LocalTimeResolver(), typed: typed)
            return .alarm(schedule, label: options.processLabel)
        } catch {
            printError("eggtimer: \(error.description)")
            throw .usage
        }
    }

    /// Opens the control socket for `label` in the runtime folder, so other shells can reach
    /// this timer (`eggtimer status|ack|cancel|snooze`).
    /// - Returns: The socket's inbox, or nil when the folder or socket cannot be had (said on
    ///   standard error: the timer still counts and rings, reachable by SIGUSR1).
    /// - Throws: `ExitStatus.usage` when a running timer already has this label (one line names it).
    private static func listen(as label: String) throws(ExitStatus) -> ControlInbox? {
        let folder = RuntimeFolder.current()
        do {
            try RuntimeFolder.prepare(folder)
            return ControlInbox(server: try ControlServer(folder: folder, label: label))
        } catch .labelInUse {
            let reply = try? ControlClient.exchange(ControlRequest.status.line, label: label, folder: folder)
            let running = reply.flatMap { TimerStatus(line: $0) }
            let pid = running.map { " (pid \($0.pid))" } ?? ""
            // Its label as it runs (`5 min`, asked as `5 MIN`): the one key matched.
            printError(
                "eggtimer: a timer labelled '\(running?.label ?? label)' is already running\(pid); "
                    + "give this one --label NAME")
            throw .usage
        } catch {
            printError("eggtimer: warning: no control socket (\(error)); stop the alarm with kill -USR1 \(getpid())")
            return nil
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
}
