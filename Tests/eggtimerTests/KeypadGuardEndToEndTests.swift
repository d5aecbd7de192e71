import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing

@testable import Kitchen

/// Issue 40 end to end: keys mean one thing at a time, through the real `eggtimer kitchen`
/// reading its keypad's FIFO (``House``), judged by the records' own time stamps.
///
/// Every wait is on the kitchen's log or a timer's watch, never a sleep.
@Suite struct KeypadGuardEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// The kitchen of `pad` with one device, `event0`, once it listens and the device is open.
    private func listening(_ pad: House) throws -> PipedChild {
        try pad.addKeypad("event0")
        let kitchen = pad.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()), "\(kitchen.stdout)")
        try pad.connectKeypad("event0")
        return kitchen
    }

    /// The kitchen's `key: …` lines after the first `offset` characters of its log.
    private func keyLines(_ kitchen: PipedChild, after offset: Int) -> [String] {
        String(Array(kitchen.stdout)[offset...]).split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("key: ")
        }
    }

    /// Presses `code` (5 s apart by the time stamps) until a `key: …` line says `wanted`: the
    /// kitchen says what runs until it has seen the alarm ring.
    private func press(_ pad: House, _ kitchen: PipedChild, _ code: KeyCode, until wanted: String) throws -> Bool {
        for _ in 0..<50 {
            let offset = kitchen.stdout.count
            try pad.press(code)
            guard kitchen.expect("key: ", after: offset, until: soon()) else { return false }
            let tail = String(Array(kitchen.stdout)[offset...])
            guard let start = tail.firstRange(of: "key: ")?.lowerBound,
                kitchen.expect("\n", after: offset + tail.distance(from: tail.startIndex, to: start), until: soon())
            else { return false }
            if keyLines(kitchen, after: offset).first?.contains(wanted) == true { return true }
        }
        return false
    }

    private func stop(_ kitchen: PipedChild) {
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// Enter stops tea; a second Backspace 300 ms after Enter was let go, by its time stamp (and
    /// written only once the stop was answered), does not cancel the other pot, nor does 1 start
    /// an egg; a key pressed after the guard works.
    @Test func keysRightAfterAStopAreIgnoredByTheirTimeStampsAndOneAfterTheGuardWorks() throws {
        let pad = House(config: "key-4 = 1s tea\nkey-5 = 10m pasta\nannounce = no\n", keypad: true)
        let kitchen = try listening(pad)
        try pad.press(KeyCode.digits[5])
        #expect(kitchen.expect("pasta: started, rings in 10:00 (pid ", until: soon()), "\(kitchen.stdout)")
        try pad.press(KeyCode.digits[4])
        #expect(kitchen.expect("tea: started, rings in 0:01 (pid ", until: soon()), "\(kitchen.stdout)")
        let watch = try ControlClient.watch(label: "tea", folder: pad.sockets)
        #expect(try watch.awaitState(.ringing, until: soon()))
        #expect(try press(pad, kitchen, .enter, until: "key: tea: alarm stopped"), "\(kitchen.stdout)")
        #expect(kitchen.expect("key: tea stopped\n", until: soon()), "\(kitchen.stdout)")
        #expect(try watch.awaitState(.done, until: soon()))

        let offset = kitchen.stdout.count
        try pad.press(.backspace, after: .milliseconds(380))
        try pad.press(KeyCode.digits[1], after: .milliseconds(600))
        let ignored = "key: ignored: pressed right after a key stopped an alarm (key-guard 1s)"
        try pad.press(.dot)  // 5 s later by its stamp: past the guard, it says what runs
        #expect(kitchen.expect("key: pasta: ", after: offset, until: soon()), "\(kitchen.stdout)")
        _ = kitchen.expect(" left", after: offset, until: soon())
        let lines = keyLines(kitchen, after: offset)
        #expect(lines.count == 3 && lines.prefix(2).allSatisfy { $0 == ignored }, "\(lines)")
        #expect(lines.last?.hasPrefix("key: pasta: ") == true, "\(lines)")
        #expect(!kitchen.stdout.contains("cancelled in 3 s"), "\(kitchen.stdout)")
        #expect(pad.status("pasta")?.state == .counting)
        #expect(!pad.command(["status"]).stdout.contains("Soft"))
        _ = pad.command(["cancel", "pasta"])
        stop(kitchen)
    }

    /// A Backspace that bounces (closes again 3 ms after its first release) counts once: the
    /// cancel it asks for is not withdrawn by its own bounce.
    @Test func aBouncingKeyCountsOnce() throws {
        let pad = House(config: "announce = no\n", keypad: true)
        let kitchen = try listening(pad)
        let offset = kitchen.stdout.count
        try pad.pressBouncing(.backspace)
        try pad.press(.dot)
        #expect(kitchen.expect("key: no timer runs\n", after: offset, until: soon()), "\(kitchen.stdout)")
        let lines = keyLines(kitchen, after: offset).prefix { $0 != "key: no timer runs" }
        #expect(Array(lines) == ["key: no timer runs to cancel"], "\(kitchen.stdout)")
        stop(kitchen)
    }
}
