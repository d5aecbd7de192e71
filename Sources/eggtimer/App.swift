import AlarmAudio
import CSystem
import Glibc
import TimerCore

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
        let routing = OutputRouting.decide(.current(json: options.json))
        if options.command == .menu, !routing.keyboard {
            printError(
                "eggtimer: the egg menu needs a keyboard on standard input; give a duration or soft, medium, hard")
            return .usage
        }
        let startup: Startup
        do { startup = try Startup(options: options) } catch { return error }

        _ = CSystem_setTimerSlack(1)  // wake at the deadline, not up to 50 us after it
        Self.requestRealtimeScheduling()
        guard let signals = SignalSet() else {
            printError("eggtimer: cannot set up signal handling")
            return .osError
        }
        defer { signals.close() }
        let player = AlarmPlayer(sound: startup.sound, device: options.device)
        var session = Session(
            routing: routing, startup: startup, options: options, clock: clock, player: player,
            loop: EventLoop(signals: signals, player: player, keyboard: routing.keyboard, clock: clock), signals: signals)
        defer { session.loop.close() }
        return session.run(deviceProblem: startup.deviceProblem)
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
