import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing

@testable import eggtimer

/// Every keypad press answered by voice (issue 28), end to end.
///
/// The real `eggtimer kitchen` reads keys from a FIFO (the kitchen harness's keypad, ``House``); its answers
/// are made by the real speech layer and played into the house's file PCM. Every wait is on the kitchen's log or a timer's
/// watch, never a sleep.
@Suite struct KeypadVoiceEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// The kitchen of `pad` with one device, `event0`, once it listens and the device is open.
    private func listening(_ pad: House) throws -> PipedChild {
        try pad.addKeypad("event0")
        let kitchen = pad.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try pad.connectKeypad("event0")
        return kitchen
    }

    /// Presses `code` until the kitchen's log holds `wanted` after the press (the kitchen acts
    /// on a ringing once its watch has said so).
    private func press(
        _ pad: House, _ kitchen: PipedChild, _ code: KeyCode, held: Duration = .milliseconds(80),
        until wanted: String
    ) throws -> Bool {
        for _ in 0..<50 {
            let offset = kitchen.stdout.count
            try pad.press(code, held: held)
            guard kitchen.expect("key: ", after: offset, until: soon()) else { return false }
            _ = kitchen.expect("\n", after: offset, until: soon())
            if String(Array(kitchen.stdout)[offset...]).contains(wanted) { return true }
        }
        return false
    }

    private func stop(_ kitchen: PipedChild) {
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// A press that acknowledges a ringing timer is answered "tea stopped", played once the
    /// alarm is over (its last status comes a moment after the answer is made).
    @Test func anAcknowledgedAlarmIsAnsweredWithItsLabelStopped() throws {
        let pad = House(config: "key-4 = 1s tea\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.digits[4])
        #expect(kitchen.expect("tea: started", until: soon()), "\(kitchen.stdout)")
        let watch = try ControlClient.watch(label: "tea", folder: pad.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        #expect(try press(pad, kitchen, .enter, until: "key: tea: alarm stopped"), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: saying 'tea stopped'\n", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: 'tea stopped': played\n", until: soon()), "\(kitchen.stdout)")
        stop(kitchen)
    }

    /// A long press that snoozes is answered with the snooze's length, from the timer's reply.
    @Test func aSnoozeIsAnsweredWithItsLength() throws {
        let pad = House(config: "key-4 = 1s tea\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.digits[4])
        #expect(kitchen.expect("tea: started", until: soon()), "\(kitchen.stdout)")
        let watch = try ControlClient.watch(label: "tea", folder: pad.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        #expect(try press(pad, kitchen, .enter, held: .seconds(1), until: "key: tea: snoozed"), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: saying 'Snoozed for ten minutes'\n", until: soon()), "\(kitchen.stdout)")
        #expect(pad.command(["cancel", "tea"]).termination == .exited(0))
        stop(kitchen)
    }

    /// A minute more is answered with the time left; with nothing running, the minute key is
    /// answered "Nothing is running"; the speaker test adds no spoken line.
    @Test func aMinuteMoreIsAnsweredWithTheTimeLeftAndTheSpeakerTestSaysNothing() throws {
        let pad = House(config: "", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(.keypadAsterisk)
        #expect(kitchen.expect("key: speaker test: played\n", until: soon()), "\(kitchen.stdout)")
        try pad.press(.keypadPlus)
        #expect(kitchen.expect("key: no timer runs to move\n", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: 'Nothing is running': played\n", until: soon()), "\(kitchen.stdout)")
        let spoken = kitchen.stdout.split(separator: "\n").filter { $0.hasPrefix("voice: saying") }
        #expect(spoken == ["voice: saying 'Nothing is running'"], "the speaker test is its own answer")
        try pad.press(KeyCode.digits[1])
        #expect(kitchen.expect("voice: 'Soft egg, five minutes': played\n", until: soon()), "\(kitchen.stdout)")
        let offset = kitchen.stdout.count
        try pad.press(.keypadPlus)
        #expect(kitchen.expect("key: Soft: 60 s added\n", after: offset, until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("voice: saying 'Soft: ", after: offset, until: soon()), "\(kitchen.stdout)")
        _ = kitchen.expect(" left'\n", after: offset, until: soon())
        let answer = String(Array(kitchen.stdout)[offset...]).split(separator: "\n").first {
            $0.hasPrefix("voice: saying 'Soft: ")
        }
        // 5:00 and a minute more, less the moments since the start: "five minutes fifty-…" or "six minutes".
        let words = answer.map { String($0.dropFirst("voice: saying 'Soft: ".count)) } ?? ""
        #expect(words == "six minutes left'" || words.hasPrefix("five minutes fifty"), "\(kitchen.stdout)")
        #expect(pad.command(["cancel", "Soft"]).termination == .exited(0))
        stop(kitchen)
    }
}
