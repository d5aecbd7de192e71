import AlarmAudio
import ControlChannel
import Glibc
import KeyInput
import SystemKit
import TimerEngine
import TimerModel

// The kitchen's keypad: the source made from its settings (and the test seam EGGTIMER_INPUT_ROOT),
// and each KeyAction carried out: a start through start(_:from: .keypad), the alarms' acknowledge
// and snooze and the newest timer's add and cancel through act(_:from: .keypad) (the core decides,
// each timer's exchange never blocks the loop), the report and the speaker test. Every action is
// one `key: …` line; no key code is ever said.

extension Kitchen {
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
        let source = KeypadSource(settings: settings.keypad, selection: selection, folders: Self.keypadFolders()) {
            [unowned self] in core.timers.values.contains { $0.state.isRinging }
        }
        for line in source.takeLines() { say(line) }
        return source
    }

    /// The followed timers' latest statuses, newest first.
    var newestTimers: [TimerStatus] { core.newestFirst.compactMap { core.timers[$0] } }

    /// Carries out one keypad action, with its one line.
    func perform(key action: KeyAction) {
        let now = clock.now()
        switch action {
        case .start(let request): start(request, from: .keypad)
        case .acknowledgeAllRinging: act(.acknowledgeAll, from: .keypad)
        case .snoozeAllRinging: act(.snoozeRinging, from: .keypad)
        case .addToNewest(let delta): act(.addToNewest(delta), from: .keypad)
        case .cancelPending:
            guard let newest = core.newestFirst.first, let label = core.timers[newest]?.label else {
                say("key: no timer runs to cancel")
                return speak(phrases.nothingRunning)
            }
            say("key: \(label) is cancelled in 3 s unless the cancel key is pressed again")
            speak(phrases.cancelling(label, in: KeyMap.cancelDelay))
        case .cancelWithdrawn:
            say("key: cancel withdrawn")
            speak(phrases.notCancelled)
        case .cancelNewest: act(.cancelNewest, from: .keypad)
        case .report:
            say("key: " + report())
            speakReport()
        case .testSound: testSound(at: now)
        case .pairingCode: speakPairingCode()
        case .ignoredAfterAlarm:
            let keyGuard = KeyGuard.text(settings.keypad.keyGuard)
            say("key: ignored: pressed right after a key stopped an alarm (key-guard \(keyGuard))")
        }
    }

    /// What runs, in one line: `pasta: 3:40 left; Soft: ringing`, newest first.
    func report() -> String {
        let now = wallMilliseconds()
        let parts = newestTimers.map { status in
            status.state == .counting || status.state == .paused
                ? "\(status.label): \(Self.timeLeft(status, atWall: now).clockText) left"
                    + (status.state == .paused ? ", paused" : "")
                : "\(status.label): \(status.state.rawValue)"
        }
        return parts.isEmpty ? "no timer runs" : parts.joined(separator: "; ")
    }

    /// The time a followed timer has left now, from its latest status (a report once said "2:00
    /// left" of a 2 min timer nine seconds in: the status of its start).
    /// - Parameters:
    ///   - status: The timer's latest status.
    ///   - now: The wall clock now, in milliseconds since the Unix epoch.
    /// - Returns: ``TimerState/timeLeft(remaining:deadlineUnixMilliseconds:atWall:)``.
    static func timeLeft(_ status: TimerStatus, atWall now: Int64) -> Duration {
        status.state.timeLeft(
            remaining: status.remaining, deadlineUnixMilliseconds: status.deadlineUnixMilliseconds, atWall: now)
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
