import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing

@testable import Kitchen
@testable import eggtimer

/// Issue 27 end to end: the real `eggtimer kitchen` reading keys from FIFOs.
///
/// The FIFOs (the kitchen harness's keypads, ``House``) stand in for `/dev/input/eventN`, under a private `EGGTIMER_INPUT_ROOT` (its `dev/input` and a fake sysfs
/// `sys/class/input/eventN/device/capabilities/key`), fed `struct input_event` records by the
/// header's layout (`InputEvent.bytes`). Its timers ring into a file PCM (the house's config).
/// Every wait is on the kitchen's log or a timer's watch, never a sleep.
@Suite struct KeypadEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// The harness points the kitchen at its FIFOs through the variable the kitchen reads.
    @Test func theHarnessNamesTheKitchensInputRootVariable() {
        #expect(House.inputRootVariable == Kitchen.inputRootVariable)
    }

    /// The first `key: …` line the kitchen says after the first `offset` characters of its log.
    private func keyLine(_ kitchen: PipedChild, after offset: Int) -> String? {
        guard kitchen.expect("key: ", after: offset, until: soon()) else { return nil }
        let text = Array(kitchen.stdout)
        let tail = String(text[offset...])
        guard let start = tail.firstRange(of: "key: ") else { return nil }
        let rest = tail[start.lowerBound...]
        guard !rest.contains("\n") else { return String(rest.prefix { $0 != "\n" }) }
        _ = kitchen.expect(
            "\n", after: offset + tail.distance(from: tail.startIndex, to: start.lowerBound), until: soon())
        return String(
            String(Array(kitchen.stdout)[offset...]).split(separator: "\n").first { $0.contains("key: ") } ?? "")
    }

    /// Presses `code` until the kitchen's answer contains `wanted` (it says what runs until it has
    /// seen the alarm ring: the timer's own watch and the kitchen's are read apart).
    private func press(
        _ pad: House, _ kitchen: PipedChild, _ code: KeyCode, held: Duration = .milliseconds(80), until wanted: String
    ) throws -> Bool {
        for _ in 0..<50 {
            let offset = kitchen.stdout.count
            try pad.press(code, held: held)
            guard let line = keyLine(kitchen, after: offset) else { return false }
            if line.contains(wanted) { return true }
        }
        return false
    }

    /// The kitchen of `pad` with one device, `event0`, once it listens and the device is open.
    private func listening(_ pad: House) throws -> PipedChild {
        try pad.addKeypad("event0")
        let kitchen = pad.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try pad.connectKeypad("event0")
        return kitchen
    }

    private func stop(_ kitchen: PipedChild) {
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test func oneOnTheKeypadStartsASoftTimer() throws {
        let pad = House(config: "", keypad: true)
        try pad.addKeypad("event0")
        let kitchen = pad.kitchen()
        #expect(
            kitchen.expect("keys: reading \(pad.keypadInput)/event0, not grabbed", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try pad.connectKeypad("event0")
        try pad.press(KeyCode.digits[1])
        #expect(kitchen.expect("Soft: started, rings in 5:00 (pid ", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("(from keypad)", until: soon()))
        #expect(pad.status("Soft")?.state == .counting)
        #expect(pad.command(["status"]).stdout.contains("Soft"))
        stop(kitchen)
    }

    @Test func fourStartsItsPresetWhichRingsAndAPressAcknowledgesIt() throws {
        // announce = no: the kitchen's spoken answer ("tea stopped", after the ringing) opens the
        // same file PCM, truncating it, and may still hold it when the capture is read
        // (KeypadVoiceEndToEndTests has the answers).
        let pad = House(config: "key-4 = 1s tea\nannounce = no\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.keypadDigits[4])
        #expect(kitchen.expect("tea: started, rings in 0:01 (pid ", until: soon()), "\(kitchen.stdout)")
        let watch = try ControlClient.watch(label: "tea", folder: pad.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        #expect(try press(pad, kitchen, .enter, until: "key: tea: alarm stopped"), "\(kitchen.stdout)")
        #expect(try watch.awaitState(.done, until: soon()))
        #expect(try watch.awaitEnd(until: soon()))
        #expect(pad.log("tea").contains(#""event":"acknowledged""#), "the timer's own event")
        #expect(pad.captured() > 0, "it rang into the file PCM")
        stop(kitchen)
    }

    /// One press names every timer it stopped and the one that never reached its speaker.
    ///
    /// Issue 37: one press over an audible ringing timer and one ringing on no device (`-D hw:0`:
    /// defined, and no card here) names both and says which never reached its speaker. Both
    /// ring before the kitchen starts, so it follows them as ringing (its `following` lines).
    @Test func aPressNamesEveryTimerItStoppedAndTheSilentOne() throws {
        let pad = House(config: "announce = no\n", keypad: true)
        let soft = PipedChild(["1s", "--label", "soft", "--json"], environment: pad.environment)
        let pasta = PipedChild(["1s", "--label", "pasta", "-D", "hw:0", "--json"], environment: pad.environment)
        #expect(soft.expect(#""event":"sounding""#, until: soon()), "\(soft.stdout)")
        // Its deadline passed (its device failed at start already, when it was tried early).
        #expect(pasta.expect(#""event":"finished""#, until: soon()), "\(pasta.stdout)")
        try pad.addKeypad("event0")
        let kitchen = pad.kitchen()
        #expect(kitchen.expect("following soft (pid \(soft.pid), ringing)", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("following pasta (pid \(pasta.pid), silent)", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("pasta: rings silent: cannot open audio device 'hw:0': ", until: soon()))
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try pad.connectKeypad("event0")
        let offset = kitchen.stdout.count
        try pad.press(.enter)
        #expect(kitchen.expect(" stopped; pasta never reached its speaker\n", after: offset, until: soon()))
        let lines = String(Array(kitchen.stdout)[offset...]).split(separator: "\n")
        let answer = lines.first { $0.hasSuffix("stopped; pasta never reached its speaker") } ?? ""
        #expect(
            answer == "key: pasta and soft stopped; pasta never reached its speaker"
                || answer == "key: soft and pasta stopped; pasta never reached its speaker", "\(lines)")
        #expect(soft.finish() == .exited(0))
        #expect(pasta.finish() == .exited(69), "heard on no device")
        stop(kitchen)
    }

    @Test func aKeyHeldASecondByItsTimeStampsSnoozesTheAlarm() throws {
        let pad = House(config: "key-4 = 1s tea\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.digits[4])
        #expect(kitchen.expect("tea: started", until: soon()), "\(kitchen.stdout)")
        let watch = try ControlClient.watch(label: "tea", folder: pad.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        #expect(try press(pad, kitchen, .enter, held: .seconds(1), until: "key: tea: snoozed"), "\(kitchen.stdout)")
        #expect(try watch.awaitState(.snoozed, until: soon()))
        #expect(pad.log("tea").contains(#""event":"snoozed""#))
        stop(kitchen)
    }

    @Test func aKeyPressedAndNotLetGoSnoozesAtTheHoldDeadline() throws {
        let pad = House(config: "key-4 = 1s tea\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.digits[4])
        #expect(kitchen.expect("tea: started", until: soon()), "\(kitchen.stdout)")
        let watch = try ControlClient.watch(label: "tea", folder: pad.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        var snoozed = false
        for attempt in 0..<50 where !snoozed {
            let offset = kitchen.stdout.count
            // Only the down event: the kitchen's own timer at the hold deadline makes it a long press.
            let down =
                InputEvent(time: .seconds(500 + attempt), type: InputEvent.key, code: KeyCode.enter.rawValue, value: 1)
                .bytes
                + InputEvent(
                    time: .seconds(500 + attempt), type: InputEvent.synchronization,
                    code: InputEvent.synchronizationReport, value: 0
                ).bytes
            try pad.writeKeypad(down, to: "event0")
            let line = try #require(keyLine(kitchen, after: offset))
            snoozed = line.hasPrefix("key: tea: snoozed")
        }
        #expect(snoozed, "\(kitchen.stdout)")
        #expect(try watch.awaitState(.snoozed, until: soon()))
        stop(kitchen)
    }

    @Test func aVanishedDeviceMadeAgainIsReadAgain() throws {
        let pad = House(config: "", keypad: true)
        try pad.addKeypad("event0")
        let kitchen = pad.kitchen()
        #expect(kitchen.expect("keys: reading \(pad.keypadInput)/event0", until: soon()))
        try pad.connectKeypad("event0")
        #expect(pad.unplugKeypad("event0"))
        #expect(kitchen.expect("keys: \(pad.keypadInput)/event0 is gone", until: soon()), "\(kitchen.stdout)")
        let offset = kitchen.stdout.count
        #expect(mkfifo(pad.keypadInput + "/event0", 0o600) == 0)
        #expect(
            kitchen.expect("keys: reading \(pad.keypadInput)/event0", after: offset, until: soon()), "\(kitchen.stdout)"
        )
        try pad.connectKeypad("event0")
        try pad.press(KeyCode.digits[2])
        #expect(kitchen.expect("Medium: started", until: soon()), "\(kitchen.stdout)")
        stop(kitchen)
    }

    @Test func twoDevicesAtOnce() throws {
        let pad = House(config: "", keypad: true)
        try pad.addKeypad("event0")
        try pad.addKeypad("event1")
        let kitchen = pad.kitchen()
        #expect(kitchen.expect("keys: reading \(pad.keypadInput)/event1", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try pad.connectKeypad("event0")
        try pad.connectKeypad("event1")
        try pad.press(KeyCode.digits[1], on: "event0")
        try pad.press(KeyCode.keypadDigits[3], on: "event1")
        #expect(kitchen.expect("Soft: started", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("Hard: started", until: soon()), "\(kitchen.stdout)")
        stop(kitchen)
    }

    @Test func aFloodOfTenThousandEventsThenAPressAcknowledges() throws {
        let pad = House(config: "key-4 = 1s tea\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.digits[4])
        #expect(kitchen.expect("tea: started", until: soon()), "\(kitchen.stdout)")
        let watch = try ControlClient.watch(label: "tea", folder: pad.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        let repeatRecord = InputEvent(
            time: .seconds(101), type: InputEvent.key, code: KeyCode.letterA.rawValue, value: 2
        ).bytes
        try pad.writeKeypad(Array((0..<10_000).map { _ in repeatRecord }.joined()), to: "event0")
        #expect(try press(pad, kitchen, .keypadEnter, until: "key: tea: alarm stopped"), "\(kitchen.stdout)")
        #expect(try watch.awaitState(.done, until: soon()))
        let keyLines = kitchen.stdout.split(separator: "\n").filter { $0.hasPrefix("key: ") }
        #expect(keyLines.allSatisfy { !$0.contains("30") }, "no unused key code is said: \(keyLines)")
        stop(kitchen)
    }

    @Test func plusReportCancelAndTheSpeakerTestEachSayOneKeyLine() throws {
        let pad = House(config: "", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(.keypadAsterisk)
        #expect(
            kitchen.expect("key: speaker test: playing the alarm once on file:", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("key: speaker test: played\n", until: soon()), "\(kitchen.stdout)")
        #expect(pad.captured() > 0, "the alarm was played once into the file PCM")
        try pad.press(KeyCode.digits[1])
        #expect(kitchen.expect("Soft: started", until: soon()))
        // Answered by voice too (issue 28), through the same device: the speaker test is over.
        let before = pad.captured()
        #expect(kitchen.expect("voice: saying 'Soft egg, five minutes'\n", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: 'Soft egg, five minutes': played\n", until: soon()), "\(kitchen.stdout)")
        #expect(pad.captured() > before, "the answer was played into the file PCM")
        var offset = kitchen.stdout.count
        try pad.press(.keypadPlus)
        #expect(keyLine(kitchen, after: offset)?.hasPrefix("key: Soft: ") == true, "\(kitchen.stdout)")
        #expect((pad.status("Soft")?.remaining ?? .zero) > .seconds(300), "a minute more")
        offset = kitchen.stdout.count
        try pad.press(.enter)
        let report = try #require(keyLine(kitchen, after: offset))
        #expect(report.hasPrefix("key: Soft: 5:") || report.hasPrefix("key: Soft: 6:"), "\(report)")
        #expect(report.hasSuffix(" left"), "\(report)")
        #expect(kitchen.expect("voice: saying 'Soft: ", until: soon()), "\(kitchen.stdout)")
        offset = kitchen.stdout.count
        try pad.press(.backspace)
        #expect(
            keyLine(kitchen, after: offset) == "key: Soft is cancelled in 3 s unless the cancel key is pressed again")
        #expect(kitchen.expect("key: Soft: cancelled", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("Soft: ended", until: soon()))
        #expect(kitchen.expect("voice: saying 'Cancelled'\n", until: soon()), "\(kitchen.stdout)")
        stop(kitchen)
    }

    /// The report key with nothing running is answered "Nothing is running", heard in the file
    /// PCM; with `announce = no` the kitchen keeps quiet and only logs.
    @Test(arguments: [false, true])
    func theReportWithNothingRunningIsSpokenUnlessAnnounceIsNo(quiet: Bool) throws {
        let pad = House(config: quiet ? "announce = no\n" : "", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(.enter)
        #expect(kitchen.expect("key: no timer runs\n", until: soon()), "\(kitchen.stdout)")
        if quiet {
            // A start afterwards is a barrier: the report's answer would have come before it.
            try pad.press(KeyCode.digits[1])
            #expect(kitchen.expect("Soft: started", until: soon()))
            #expect(!kitchen.stdout.contains("voice:"), "\(kitchen.stdout)")
            #expect(pad.command(["cancel", "Soft"]).termination == .exited(0))
        } else {
            #expect(kitchen.expect("voice: 'Nothing is running': played\n", until: soon()), "\(kitchen.stdout)")
            #expect(pad.captured() > 0, "said into the file PCM")
        }
        stop(kitchen)
    }

    @Test func theSpeakerTestIsNotPlayedWithinTwoSecondsOfADeadline() throws {
        let pad = House(config: "key-4 = 1s tea\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.digits[4])
        #expect(kitchen.expect("tea: started", until: soon()), "\(kitchen.stdout)")
        let offset = kitchen.stdout.count
        try pad.press(.keypadAsterisk)
        let line = try #require(keyLine(kitchen, after: offset))
        // Rung already (the kitchen saw it ring): the press acknowledged it instead.
        #expect(
            line == "key: speaker test not played: a timer is due within 2 s" || line == "key: tea: alarm stopped",
            "\(line)")
        #expect(!kitchen.stdout.contains("speaker test: playing"))
        stop(kitchen)
    }

    @Test func noneReadsNoDeviceAndKeysIsRefusedOutsideTheKitchen() throws {
        let pad = House(config: "", keypad: true)
        try pad.addKeypad("event0")
        let kitchen = PipedChild(["kitchen", "--keys", "none"], environment: pad.environment)
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        #expect(!kitchen.stdout.contains("keys:"), "\(kitchen.stdout)")
        stop(kitchen)
        let timer = pad.command(["10s", "--keys", "auto"])
        #expect(timer.termination == .exited(64))
        #expect(timer.stderr.contains("--keys"), "\(timer.stderr)")
        let bad = pad.command(["kitchen", "--keys", "event0"])
        #expect(bad.termination == .exited(64))
        #expect(bad.stderr.contains("'event0'"), "\(bad.stderr)")
    }
}
