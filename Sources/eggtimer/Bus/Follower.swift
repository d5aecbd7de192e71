import AlarmAudio
import EventLoop
import Glibc
import HouseBus
import HouseLink
import SystemKit
import TerminalUI
import TimerEngine

/// `eggtimer follow --mqtt URL`: a speaker for the whole house.
///
/// It watches every timer's retained state on the broker and rings through its own device
/// (with the usual fallbacks: the device is tried again, the terminal bell rings while none
/// works) whenever any of them is ringing; a key or SIGUSR1 sends `ack` to each timer it shows
/// ringing. It keeps running across timers until SIGINT, SIGTERM, SIGHUP or SIGQUIT (exit
/// 128 + the signal). Its own availability topic is `<prefix>/<node>/follow/availability`, with a
/// Last Will; another follower of the same node that ends or dies there is answered with
/// `online` again. It never rings for a stale state (not refreshed within three of its promised
/// intervals, judged while its own clock is synchronised: ``HouseClock``), and stops when a
/// ringing one becomes stale.
///
/// The runner only: it makes the sources, feeds the loop's inputs with the boot clock and a
/// wall-clock reading to ``FollowerCore``, which decides, and carries out its
/// ``FollowerEffect``s. Owned by the main thread.
struct Follower {
    private let options: Options
    private let clock = MonotonicClock()
    /// The wall clock that judges whether a state is stale.
    private let houseClock: HouseClock
    private var out = Output(descriptor: STDOUT_FILENO)

    /// Prepares the follower for `options` (with the config file's settings).
    /// - Parameters:
    ///   - options: The command line over the config file.
    ///   - houseClock: The wall clock that judges staleness (``HouseClock/system``).
    init(options: Options, houseClock: HouseClock = .system) {
        self.options = options
        self.houseClock = houseClock
    }

    /// The follower's availability topic.
    var availabilityTopic: String {
        "\(options.bus.prefix)/\(options.bus.nodeName)/\(BusOptions.followerLabel)/availability"
    }

    /// Runs until a signal ends it.
    /// - Returns: The exit status: 128 + the signal; 64, 69 or 71 when it cannot start.
    mutating func run() -> ExitStatus {
        silenceAudioLibraryMessages()
        let startup: Startup
        do { startup = try Startup(options: options) } catch { return error }
        let will = BusMessage(topic: availabilityTopic, payload: Array("offline".utf8), retain: true, qos: 1)
        let client: BusClient
        do {
            client = try BusLink.connect(
                options.bus, clientName: "\(options.bus.nodeName.prefix(16))-follow", will: will)
        } catch { return error }
        guard let signals = SignalSet() else {
            printError("eggtimer: cannot set up signal handling")
            return .osError
        }
        defer { signals.close() }
        var keyboard = RawMode(descriptor: STDIN_FILENO)
        if keyboard?.enter() != true { keyboard = nil }
        defer { keyboard?.restore() }
        let player = AlarmPlayer(
            sound: startup.sound, device: options.device, fallbackDevice: options.fallback,
            loudness: options.loudness(for: startup.sound))
        var loop = EventLoop(clock: clock)
        defer { loop.close() }
        loop.add(signals)
        loop.add(player)
        loop.add(Keyboard(keyboard: keyboard != nil))
        loop.add(client)
        var core = FollowerCore(
            prefix: options.bus.prefix, availabilityTopic: availabilityTopic,
            deviceDown: startup.deviceProblem != nil)
        _ = perform(core.start(node: options.bus.nodeName), client: client, player: player)
        client.start(at: clock.now())
        let status = serve(&loop, core: &core, client: client, player: player)
        if core.playing { player.stop(at: clock.now()) }
        client.finish(publishing: BusLink.leaving(availabilityTopic), limit: BusLink.finishLimit)
        player.waitForStop(clock: clock)
        return status
    }

    /// The event loop: each input to the reducer, then a tick, until an effect ends it.
    private mutating func serve(
        _ loop: inout EventLoop, core: inout FollowerCore, client: BusClient, player: AlarmPlayer
    ) -> ExitStatus {
        while true {
            let inputs: [Input]
            do { inputs = try loop.wait(until: core.nextWake(at: clock.now(), wall: houseClock.reading())) } catch {
                return error
            }
            for event in inputs.compactMap(Self.event) + [.tick] {
                let effects = core.handle(event, at: clock.now(), wall: houseClock.reading())
                if let status = perform(effects, client: client, player: player) { return status }
            }
        }
    }

    /// What an input of the loop means to the follower; nil for none.
    private static func event(_ input: Input) -> FollowerCore.Event? {
        switch input {
        case .signal(let number): .signal(number)
        case .key: .key
        case .bus(let event): .bus(event)
        case .audio(let event): .audio(event)
        default: nil
        }
    }

    /// Carries out `effects` in order.
    /// - Returns: The status of an ``FollowerEffect/exit(_:)`` among them (the rest is not
    ///   carried out); nil to go on.
    private mutating func perform(_ effects: [FollowerEffect], client: BusClient, player: AlarmPlayer) -> ExitStatus? {
        for effect in effects {
            switch effect {
            case .subscribe(let filter): client.subscribe(filter, qos: 1)
            case .publish(let message): client.publish(message)
            case .say(let text): out.write(text + "\n")
            case .warn(let text): printError("eggtimer: \(text)")
            case .startRinging:
                let now = clock.now()
                player.start(at: now, loops: nil, now: now)
            case .stopRinging: player.stop(at: clock.now())
            case .ringBell: if isatty(STDOUT_FILENO) == 1 { out.write("\u{7}") }
            case .exit(let status): return status
            }
        }
        return nil
    }
}
