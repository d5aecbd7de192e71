import AlarmAudio
import ControlChannel
import Glibc
import KeyInput
import SystemKit
import TimerEngine
import TimerModel

// The kitchen's keypad: the source made from its settings (and the test seam EGGTIMER_INPUT_ROOT),
// and each KeyAction carried out: a start through start(_:from: .keypad), the alarms' acknowledge
// and snooze and the newest timer's add and cancel through each timer's control socket, the report
// and the speaker test. Every action is one `key: …` line; no key code is ever said.

extension Kitchen {
    /// How long one timer has to answer a keypad's command on its control socket.
    ///
    /// `ControlClient.exchange` blocks the loop for at most this long per timer: a timer answers
    /// in well under a millisecond, and a stopped one costs this once and is reported.
    static let keypadAnswerLimit = Duration.milliseconds(200)
    /// How close to a followed timer's deadline the speaker test is refused: 2 s.
    static let speakerTestMargin: Int64 = 2000

    /// The test seam: a folder holding `dev/input` and `sys/class/input`, read by the kitchen alone.
    static let inputRootVariable = "EGGTIMER_INPUT_ROOT"

    /// Where the keypad looks for devices: the system's folders, or under `EGGTIMER_INPUT_ROOT`.
    static func keypadFolders() -> KeyDevices.Folders {
        guard let root = getenv(inputRootVariable).map({ String(cString: $0) }), root.hasPrefix("/") else {
            return KeyDevices.Folders()
        }
        return KeyDevices.Folders(input: root + "/dev/input", classes: root + "/sys/class/input")
    }

    /// The keypad's source for `--keys` (nil with `none`), its opening lines said.
    func openKeypad() -> KeypadSource? {
        guard let selection = settings.keypad.selection else { return nil }
        let source = KeypadSource(
            selection: selection, folders: Self.keypadFolders(), starts: settings.keypad.starts
        ) { [unowned self] in core.timers.values.contains { $0.state.isRinging } }
        for line in source.takeLines() { say(line) }
        return source
    }

    /// The followed timers' socket names, newest first (by when the kitchen first saw each).
    private var newestFirst: [String] { seenOrder.reversed().filter { core.timers[$0] != nil } }

    /// The followed timers' latest statuses, newest first.
    var newestTimers: [TimerStatus] { newestFirst.compactMap { core.timers[$0] } }

    /// Carries out one keypad action, with its one line.
    func perform(key action: KeyAction) {
        let now = clock.now()
        switch action {
        case .start(let request): start(request, from: .keypad)
        case .acknowledgeAllRinging:
            let before = timers  // the statuses at the press: which rang silent
            answerRinging(.acknowledge, command(.acknowledge, toAll: { $0.state.isRinging }), before: before)
        case .snoozeAllRinging: answerRinging(.snooze(nil), command(.snooze(nil), toAll: { $0.state.isRinging }))
        case .addToNewest(let delta):
            guard let newest = newestFirst.first else {
                say("key: no timer runs to move")
                return speak(phrases.nothingRunning)
            }
            if let reply = send(.add(delta), to: newest) { answerMoved(reply) }
        case .cancelPending:
            guard let newest = newestFirst.first, let label = core.timers[newest]?.label else {
                say("key: no timer runs to cancel")
                return speak(phrases.nothingRunning)
            }
            say("key: \(label) is cancelled in 3 s unless the cancel key is pressed again")
            speak(phrases.cancelling(label, in: KeyMap.cancelDelay))
        case .cancelWithdrawn:
            say("key: cancel withdrawn")
            speak(phrases.notCancelled)
        case .cancelNewest:
            guard let newest = newestFirst.first else {
                say("key: no timer runs to cancel")
                return speak(phrases.nothingRunning)
            }
            if send(.cancel, to: newest) != nil { speak(phrases.cancelled) }
        case .report:
            say("key: " + report())
            speakReport()
        case .testSound: testSound(at: now)
        case .pairingCode: speakPairingCode()
        }
    }

    /// What runs, in one line: `pasta: 3:40 left; Soft: ringing`, newest first.
    func report() -> String {
        let parts = newestFirst.compactMap { core.timers[$0] }.map { status in
            status.state == .counting || status.state == .paused
                ? "\(status.label): \(status.remaining.clockText) left" + (status.state == .paused ? ", paused" : "")
                : "\(status.label): \(status.state.rawValue)"
        }
        return parts.isEmpty ? "no timer runs" : parts.joined(separator: "; ")
    }

    /// Sends `command` to every followed timer that `fits`, a line each; one line when none fits.
    /// - Returns: The label and reply of each timer that did it; nil when none fits.
    private func command(_ command: Command, toAll fits: (TimerStatus) -> Bool) -> [(label: String, reply: String)]? {
        let targets = newestFirst.filter { core.timers[$0].map(fits) ?? false }
        guard !targets.isEmpty else {
            say("key: nothing rings")
            return nil
        }
        return targets.compactMap { socket in
            send(command, to: socket).map { (core.timers[socket]?.label ?? socket, $0) }
        }
    }

    /// One exchange with the timer on `socket` (``exchange(_:with:)``), and its line.
    /// - Returns: The timer's reply when it did it (`ok` and its status); nil when not.
    @discardableResult
    private func send(_ command: Command, to socket: String) -> String? {
        switch exchange(command, with: socket) {
        case .done(let line, let reply):
            say("key: " + line)
            return reply
        case .failed(let line):
            say("key: " + line)
            return nil
        }
    }

    /// Plays the alarm once on the kitchen's device, unless a followed timer's deadline is within
    /// ``speakerTestMargin`` or a test plays already.
    private func testSound(at now: ContinuousClock.Instant) {
        if timerDue(within: Self.speakerTestMargin) {
            return say("key: speaker test not played: a timer is due within 2 s")
        }
        guard speakerTest == nil else { return say("key: speaker test playing already") }
        guard let sound = kitchenSound() else { return say("key: speaker test not played: the sound cannot be read") }
        play(sound, loudness: settings.loudness(for: sound), as: "key: speaker test", at: now)
        say("key: speaker test: playing the alarm once on \(settings.device)")
    }

    /// Whether a followed timer's deadline is within `margin` milliseconds of the wall clock now,
    /// before or after it (the wall clock ``wallMilliseconds``).
    func timerDue(within margin: Int64) -> Bool {
        let now = wallMilliseconds()
        return core.timers.values.contains {
            $0.deadlineUnixMilliseconds.map { deadline in
                let (distance, overflow) = deadline.subtractingReportingOverflow(now)
                return overflow || distance.magnitude < UInt64(max(0, margin))
            } ?? false
        }
    }

    /// The alarm sound, decoded once (its format is the kitchen's own sounds' too); nil when it
    /// cannot be read.
    func kitchenSound() -> AlarmSound? {
        if alarmSound == nil {
            alarmSound = loadSound(settings.soundPath)
        }
        return alarmSound
    }

    /// Plays `sound` once on the kitchen's device (the speaker test, a spoken answer); `what`
    /// begins the lines of its end.
    func play(_ sound: AlarmSound, loudness: Loudness, as what: String, at now: ContinuousClock.Instant) {
        let player = AlarmPlayer(
            sound: sound, device: settings.device, fallbackDevice: settings.fallback, loudness: loudness)
        player.start(at: now, loops: 1, now: now)
        (speakerTest, speakerUse) = (player, what)
        loop.add(player)
    }

    /// A report of the kitchen's own player (the speaker test, a spoken answer): its ending is
    /// one line, and the player goes.
    func handleSpeakerTest(_ event: AlarmPlayer.Event) {
        guard let player = speakerTest else { return }
        switch event {
        case .deviceUnavailable(let error), .stalled(let error):
            say("\(speakerUse): \(error)")
            return player.stop(at: clock.now())
        default: break
        }
        guard event.endsRinging else { return }
        loop.remove(player)
        speakerTest = nil
        switch event {
        case .finished: say("\(speakerUse): played")
        case .hung(let error): say("\(speakerUse): \(error)")
        default: break  // stopped: its reason was said
        }
    }
}
