import ControlChannel
import EventLoop
import Glibc
import TestSupport
import Testing

@testable import eggtimer

/// Issue 22's `watch` end to end: real timers with no terminal (keys on a pipe, the alarm into a
/// file PCM), watched over their real control sockets in a private runtime folder.
@Suite struct WatchEndToEndTests {

    private let soon = { ContinuousClock.now + .seconds(15) }

    /// The `state=` word of a status line.
    private func state(_ next: ControlWatch.Next) -> String? {
        guard case .line(let line) = next else { return nil }
        return TimerStatus(line: line)?.state.rawValue
    }

    /// A watch on `label` in `house`.
    private func watch(_ label: String, in house: House) throws -> ControlWatch {
        try ControlClient.watch(label: label, folder: house.runtime + "/eggtimer")
    }

    /// The current line at once, then one line per change whatever made it (keys, the deadline,
    /// `snooze` and `ack` over the socket), the last with the final state, then the end; nothing
    /// for the time left alone.
    @Test func aWatchGetsTheCurrentLineAtOnceThenOneLinePerChangeAndTheEnd() throws {
        let house = House(sharesState: false)
        let timer = house.timer(["2s", "--label", "tea"], capture: "tea")
        #expect(timer.expect(#""event":"started""#, until: soon()))
        let watch = try watch("tea", in: house)
        let first = try watch.next(until: .now)
        #expect(state(first) == "counting")
        if case .line(let line) = first { #expect(TimerStatus(line: line)?.deadlineUnixMilliseconds != nil) }
        timer.type(" ")
        let paused = try watch.next(until: soon())
        #expect(state(paused) == "paused")
        if case .line(let line) = paused { #expect(TimerStatus(line: line)?.deadlineUnixMilliseconds == nil) }
        timer.type(" ")
        // Each line kept, so that a failure says what came instead (a load of both cores once
        // showed three failures here without it).
        for expected in ["counting", "ringing"] {
            let next = try watch.next(until: soon())
            #expect(state(next) == expected, "\(next)")
        }
        #expect(house.command(["snooze", "--for", "1s"]).termination == .exited(0))
        for expected in ["snoozed", "ringing"] {
            let next = try watch.next(until: soon())
            #expect(state(next) == expected, "\(next)")
        }
        #expect(house.command(["ack"]).termination == .exited(0))
        #expect(state(try watch.next(until: soon())) == "done")
        #expect(try watch.next(until: soon()) == .ended)
        #expect(timer.finish() == .exited(0))
    }

    /// A watcher that never reads (a small receive buffer) is dropped once its queue would
    /// overflow, while the timer goes on: a watcher that reads gets every change, the alarm rings
    /// at its deadline, and an `ack` from another connection is answered.
    @Test func aWatcherThatDoesNotReadIsDroppedWhileTheTimerRingsOnTime() throws {
        let house = House(sharesState: false)
        // A long label makes long lines: fewer changes fill the queue.
        let label = "watched-" + String(repeating: "t", count: 40)
        let timer = house.timer(["8s", "--label", label], capture: "tea")
        #expect(timer.expect(#""event":"started""#, until: soon()))
        let slow = try ControlPeer(house.runtime + "/eggtimer/\(label).sock", receiveBuffer: 1024)
        slow.send(ControlRequest.watch.line)
        let reader = try watch(label, in: house)
        #expect(state(try reader.next(until: soon())) == "counting")
        var changes = 0
        var paused = false
        while !slow.hungUp, changes < 4000 {
            timer.type(" ")
            paused.toggle()
            changes += 1
            let next = try reader.next(until: soon())
            #expect(state(next) == (paused ? "paused" : "counting"), "change \(changes)")
            guard case .line = next else { break }
            timer.readOutput(until: .now)  // its log, so that pipe never fills
        }
        #expect(slow.hungUp, "the slow watcher is dropped (after \(changes) changes)")
        if paused {
            timer.type(" ")
            #expect(state(try reader.next(until: soon())) == "counting")
        }
        #expect(state(try reader.next(until: soon())) == "ringing")
        #expect(timer.expect(#""event":"sounding""#, until: soon()))
        let sounding = try #require(timer.stdout.split(separator: "\n").first { $0.contains(#""event":"sounding""#) })
        let rang = try #require(number(after: #""t_mono_ns":"#, in: sounding))
        let deadline = try #require(number(after: #""deadline_t_mono_ns":"#, in: sounding))
        #expect(rang >= deadline && rang - deadline < 200_000_000, "rang \(rang - deadline) ns after its deadline")
        let ack = house.command(["ack", label])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(ack.stdout == "\(label): alarm stopped\n")
        #expect(state(try reader.next(until: soon())) == "done")
        #expect(try reader.next(until: soon()) == .ended)
        #expect(timer.finish() == .exited(0))
    }

    /// The most watchers a timer keeps, one more refused with its reason, and an `ack` still
    /// answered; every watcher hears of it.
    @Test func theMostWatchersAndOneMoreRefusedStillLetAckThrough() throws {
        let house = House(sharesState: false)
        let timer = house.timer(["1s", "--label", "tea"], capture: "tea")
        #expect(timer.expect(#""event":"sounding""#, until: soon()))
        var watches: [ControlWatch] = []
        for _ in 0..<ControlWatchers.defaultLimit {
            let watch = try watch("tea", in: house)
            #expect(state(try watch.next(until: .now)) == "ringing")
            watches.append(watch)
        }
        #expect(
            throws: ControlError.refused(
                path: house.runtime + "/eggtimer/tea.sock", reason: "this timer has 16 watchers already")
        ) {
            try watch("tea", in: house)
        }
        let ack = house.command(["ack"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(ack.stdout == "tea: alarm stopped\n")
        for watch in watches {
            #expect(state(try watch.next(until: soon())) == "done")
            #expect(try watch.next(until: soon()) == .ended)
        }
        #expect(timer.finish() == .exited(0))
    }

    /// Version 1's `status` is answered exactly as before, with a watcher open: one line, the
    /// same fields the watcher got, and the connection closed.
    @Test func aVersionOneStatusIsAnsweredAsBeforeBesideAWatcher() throws {
        let house = House(sharesState: false)
        let timer = house.timer(["30s", "--label", "tea"], capture: "tea")
        #expect(timer.expect(#""event":"started""#, until: soon()))
        let watch = try watch("tea", in: house)
        guard case .line(let watched) = try watch.next(until: .now) else {
            Issue.record("no first line")
            return
        }
        let asker = try ControlPeer(house.runtime + "/eggtimer/tea.sock")
        asker.send("eggtimer/1\tstatus")
        #expect(asker.ended)
        let lines = asker.lines(2)
        #expect(lines.count == 1)
        let reply = try #require(lines.first)
        #expect(reply.hasPrefix("ok\tlabel=tea\tpid=\(timer.pid)\tstate=counting\tremaining_ns="))
        #expect(ControlWatcher.changeKey(reply) == ControlWatcher.changeKey(watched))
        #expect(TimerStatus(line: reply)?.line == reply)
        #expect(house.command(["cancel"]).termination == .exited(0))
        #expect(state(try watch.next(until: soon())) == "cancelled")
        #expect(try watch.next(until: soon()) == .ended)
        #expect(timer.finish() == .exited(1))
    }
}

/// The integer after `key` in a JSON log line.
private func number(after key: String, in line: Substring) -> Int64? {
    guard let range = line.firstRange(of: key) else { return nil }
    return Int64(line[range.upperBound...].prefix { $0.isNumber })
}
