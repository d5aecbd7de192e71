import AlarmAudio
import ControlChannel
import Glibc
import KeyInput
import SystemKit
import TimerModel

// The kitchen's keypad: the source made from the options (and the test seam EGGTIMER_INPUT_ROOT),
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
        guard let selection = options.keypad.selection else { return nil }
        let source = KeypadSource(
            selection: selection, folders: Self.keypadFolders(), starts: options.keypad.starts
        ) { [unowned self] in core.timers.values.contains { $0.state.isRinging } }
        for line in source.takeLines() { say(line) }
        return source
    }

    /// The followed timers' socket names, newest first (by when the kitchen first saw each).
    private var newestFirst: [String] { seenOrder.reversed().filter { core.timers[$0] != nil } }

    /// Carries out one keypad action, with its one line.
    func perform(key action: KeyAction) {
        let now = clock.now()
        switch action {
        case .start(let request): start(request, from: .keypad)
        case .acknowledgeAllRinging: command(.acknowledge, toAll: { $0.state.isRinging })
        case .snoozeAllRinging: command(.snooze(nil), toAll: { $0.state.isRinging })
        case .addToNewest(let delta):
            guard let newest = newestFirst.first else { return say("key: no timer runs to move") }
            send(.add(delta), to: newest)
        case .cancelPending:
            guard let newest = newestFirst.first, let label = core.timers[newest]?.label else {
                return say("key: no timer runs to cancel")
            }
            say("key: \(label) is cancelled in 3 s unless the cancel key is pressed again")
        case .cancelWithdrawn: say("key: cancel withdrawn")
        case .cancelNewest:
            guard let newest = newestFirst.first else { return say("key: no timer runs to cancel") }
            send(.cancel, to: newest)
        case .report: say("key: " + report())
        case .testSound: testSound(at: now)
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
    private func command(_ command: Command, toAll fits: (TimerStatus) -> Bool) {
        let targets = newestFirst.filter { core.timers[$0].map(fits) ?? false }
        guard !targets.isEmpty else { return say("key: nothing rings") }
        for socket in targets { send(command, to: socket) }
    }

    /// One exchange with the timer on `socket` (at most ``keypadAnswerLimit``), and its line.
    private func send(_ command: Command, to socket: String) {
        let label = core.timers[socket]?.label ?? socket
        do throws(ControlError) {
            let reply = try ControlClient.exchange(
                ControlRequest.command(command).line, label: socket, folder: runtime, timeout: Self.keypadAnswerLimit)
            switch ControlCommands.outcome(of: reply, command: command, label: label, time: .system) {
            case .success(let line): say("key: " + line)
            case .failure(let failure): say("key: " + failure.message)
            }
        } catch {
            say("key: \(label): \(error.description)")
        }
    }

    /// Plays the alarm once on the kitchen's device, unless a followed timer's deadline is within
    /// ``speakerTestMargin`` or a test plays already.
    private func testSound(at now: ContinuousClock.Instant) {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let nowMilliseconds = Int64(wall.tv_sec) * 1000 + Int64(wall.tv_nsec) / 1_000_000
        if core.timers.values.contains(where: {
            $0.deadlineUnixMilliseconds.map { abs($0 - nowMilliseconds) < Self.speakerTestMargin } ?? false
        }) {
            return say("key: speaker test not played: a timer is due within 2 s")
        }
        guard speakerTest == nil else { return say("key: speaker test playing already") }
        if alarmSound == nil {
            var warnings: [String] = []
            alarmSound = try? Startup.loadSound(options.soundPath, warnings: &warnings)
        }
        guard let sound = alarmSound else { return say("key: speaker test not played: the sound cannot be read") }
        let player = AlarmPlayer(sound: sound, device: options.device, loudness: options.loudness(for: sound))
        player.start(at: now, loops: 1, now: now)
        speakerTest = player
        loop.add(player)
        say("key: speaker test: playing the alarm once on \(options.device)")
    }

    /// A report of the speaker test's player: its ending is one line, and the player goes.
    func handleSpeakerTest(_ event: AlarmPlayer.Event) {
        guard let player = speakerTest else { return }
        if case .deviceUnavailable(let error) = event {
            say("key: speaker test: \(error)")
            return player.stop(at: clock.now())
        }
        guard event.endsRinging else { return }
        loop.remove(player)
        speakerTest = nil
        switch event {
        case .finished: say("key: speaker test: played")
        case .hung(let error): say("key: speaker test: \(error)")
        default: break  // stopped: its reason was said
        }
    }
}
