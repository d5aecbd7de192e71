import AlarmAudio
import Glibc
import HouseBus

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
/// ringing one becomes stale. Owned by the main thread.
struct Follower {
    private let options: Options
    private let clock = MonotonicClock()
    /// The wall clock that judges whether a state is stale.
    private let houseClock: HouseClock
    /// The timers whose last state is ringing (or silent), by `node/label`, with that state.
    private var ringingStates: [String: (topics: TimerTopics, state: TimerStatePayload)] = [:]
    /// The timers whose availability is `offline` (their process died), by `node/label`: the
    /// ringing state they left retained is stale.
    private var offline: Set<String> = []
    /// The timers ringing now: a ringing state, not offline and not stale.
    private var ringing: [String: TimerTopics] {
        ringingStates.filter { !offline.contains($0.key) && !houseClock.isStale($0.value.state) }.mapValues(\.topics)
    }
    /// The keys ringing after the last round (to say which became stale since).
    private var rangLastRound: Set<String> = []
    /// Whether the player was asked to ring (and has not been asked to stop).
    private var playing = false
    /// Whether the device failed and no frame played since (the terminal bell rings meanwhile).
    private var deviceDown = false
    /// When the fallback bell rang last.
    private var lastBell: ContinuousClock.Instant?
    /// Whether the broker is unreachable and this was said.
    private var brokerDown = false
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
            sound: startup.sound, device: options.device, loudness: options.loudness(for: startup.sound))
        var loop = EventLoop(clock: clock)
        defer { loop.close() }
        loop.add(signals)
        loop.add(player)
        loop.add(Keyboard(keyboard: keyboard != nil))
        loop.add(client)
        // Availability first: the retained `offline` of a dead timer arrives before its stale state.
        client.subscribe("\(options.bus.prefix)/+/+/availability", qos: 1)
        client.subscribe("\(options.bus.prefix)/+/+/state", qos: 1)
        client.subscribe(availabilityTopic, qos: 1)
        client.publish(BusLink.online(availabilityTopic))
        client.start(at: clock.now())
        if startup.deviceProblem != nil { deviceDown = true }
        say("following \(options.bus.prefix)/+/+/state as \(options.bus.nodeName)")
        let status = serve(&loop, client: client, player: player)
        stopRinging(player)
        client.finish(publishing: BusLink.leaving(availabilityTopic), limit: BusLink.finishLimit)
        player.waitForStop(clock: clock)
        return status
    }

    /// The event loop: inputs in, ringing started and stopped, until a signal ends it.
    private mutating func serve(_ loop: inout EventLoop, client: BusClient, player: AlarmPlayer) -> ExitStatus {
        while true {
            let now = clock.now()
            let bell = deviceDown && playing ? (lastBell ?? now).advanced(by: .seconds(1)) : nil
            let wake = [bell, nextStale(at: now)].compactMap { $0 }.min()
            let inputs: [Input]
            do { inputs = try loop.wait(until: wake) } catch { return error }
            for input in inputs {
                switch input {
                case .signal(let number) where [SIGINT, SIGTERM, SIGHUP, SIGQUIT].contains(number):
                    return .signal(number)
                case .signal(SIGUSR1), .key: acknowledgeAll(client)
                case .bus(let event): handle(event, client: client)
                case .audio(let event): handle(event)
                default: break
                }
            }
            sayStale()
            updateRinging(player, at: clock.now())
        }
    }

    /// When the first ringing state becomes stale (boot clock), a millisecond after its limit;
    /// nil when none will (or this clock is not synchronised).
    private func nextStale(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard houseClock.isSynchronised() else { return nil }
        let limits = ringing.keys.compactMap { ringingStates[$0]?.state.staleAfterUnixMilliseconds }
        guard let first = limits.min() else { return nil }
        let left = max(0, first - houseClock.nowUnixMilliseconds() + 1)
        return now.advanced(by: .milliseconds(min(left, 86_400_000)))
    }

    /// Says which timers stopped ringing since the last round because their state became stale.
    private mutating func sayStale() {
        let now = Set(ringing.keys)
        for key in rangLastRound.subtracting(now).sorted() where ringingStates[key] != nil && !offline.contains(key) {
            say("\(key.escapingControlCharacters): stale")
        }
        rangLastRound = now
    }

    /// One report of the broker: a timer's state or availability, or the connection's health.
    private mutating func handle(_ event: BusEvent, client: BusClient) {
        switch event {
        case .connected:
            say(brokerDown ? "connected to the MQTT broker again" : "connected to the MQTT broker")
            brokerDown = false
            // The retained states arrive again at once; a timer that ended meanwhile is gone.
            ringingStates = [:]
            offline = []
        case .connectionLost(let reason):
            if !brokerDown { printError("eggtimer: warning: MQTT: \(reason); reconnecting") }
            brokerDown = true
        case .message(let topic, let payload, _) where topic == availabilityTopic:
            // Another follower of this node ended (its offline, then its clear) or died (its Last
            // Will): this one still runs.
            if payload.isEmpty || payload == Array("offline".utf8) { client.publish(BusLink.online(availabilityTopic)) }
        case .message(let topic, let payload, _):
            message(topic: topic, payload: payload)
        case .notice(let text):
            printError("eggtimer: MQTT: \(text)")
        case .published:
            break
        }
    }

    /// A timer's state or availability message; says which timers start or stop ringing.
    private mutating func message(topic: String, payload: [UInt8]) {
        guard let (topics, kind) = TimerTopics.parse(topic, prefix: options.bus.prefix),
            topics.label != BusOptions.followerLabel
        else { return }
        let key = "\(topics.node)/\(topics.label)"
        let wasRinging = ringing[key] != nil
        var said = "offline"
        switch kind {
        case "state" where payload.isEmpty:
            ringingStates[key] = nil
            said = "ended"
        case "state":
            guard let state = TimerStatePayload.parse(payload) else {
                printError("eggtimer: ignored a malformed state on \(topic)")
                return
            }
            let rings = state.timerState?.isRinging == true
            ringingStates[key] = rings ? (topics, state) : nil
            said = rings && houseClock.isStale(state) ? "stale" : state.state
        case "availability" where payload == Array("offline".utf8): offline.insert(key)
        case "availability": offline.remove(key)
        default: return
        }
        let rings = ringing[key] != nil
        if rings != wasRinging || (said == "stale" && !rings) {
            say("\(key.escapingControlCharacters): \((rings ? "ringing" : said).escapingControlCharacters)")
        }
        if rings { rangLastRound.insert(key) } else { rangLastRound.remove(key) }
    }

    /// A report of the alarm player.
    private mutating func handle(_ event: AlarmPlayer.Event) {
        switch event {
        case .firstFrame, .deviceRecovered: deviceDown = false
        case .deviceUnavailable(let error):
            if !deviceDown { printError("eggtimer: warning: \(error); the terminal bell rings instead") }
            deviceDown = true
        case .hung(let error):
            printError("eggtimer: warning: \(error)")
            deviceDown = true
            playing = false
        case .finished, .stopped:
            playing = false
        }
    }

    /// Starts the alarm while any timer rings, stops it when none does; rings the bell each
    /// second while the device is down.
    private mutating func updateRinging(_ player: AlarmPlayer, at now: ContinuousClock.Instant) {
        if !ringing.isEmpty, !playing {
            playing = true
            player.start(at: now, loops: nil, now: now)
        } else if ringing.isEmpty, playing {
            stopRinging(player)
        }
        if playing, deviceDown, lastBell.map({ now >= $0.advanced(by: .seconds(1)) }) ?? true {
            lastBell = now
            if isatty(STDOUT_FILENO) == 1 { out.write("\u{7}") }
        }
    }

    private mutating func stopRinging(_ player: AlarmPlayer) {
        if playing { player.stop(at: clock.now()) }
        playing = false
    }

    /// Sends `ack` to every timer shown ringing.
    private mutating func acknowledgeAll(_ client: BusClient) {
        for (key, topics) in ringing.sorted(by: { $0.key < $1.key }) {
            client.publish(BusMessage(topic: topics.command, payload: Array("ack".utf8), retain: false, qos: 1))
            say("\(key.escapingControlCharacters): ack sent")
        }
    }

    /// One line on standard output.
    private mutating func say(_ text: String) { out.write(text + "\n") }
}
