import ControlChannel
import Glibc
import Synchronization
import SystemKit
import TestSupport
import Testing
import TimerModel

/// What the timer of control protocol 3 was sent, shared between its thread and the test.
private final class Received: Sendable {
    /// Every line but the `watch`, in the order they came: the kitchen's commands.
    let commands = Mutex<[String]>([])
    /// Rung by the test to end the thread early (a failed test).
    let stop = WakePipe()
}

/// A timer of control protocol 3 (running across a package upgrade) in the kitchen's runtime
/// folder: a real ``ControlServer`` served on a thread of its own.
///
/// It answers `watch` with its status, ringing, and keeps that connection open; a command of
/// version 4 (with its origin) with the older timer's refusal (``ControlRequest/olderTimerRefusal``);
/// `eggtimer/1 ack` with its status `done`, and then ends as a timer does: its socket goes, its
/// watches get `done` and are closed. Owned by one test; ``stop()`` (or deinit) ends its thread.
private final class OlderTimer {
    let received = Received()
    private var thread: SystemThread?

    /// Listens on `<folder>/<label>.sock` and starts serving.
    /// - Throws: `ControlError` when the socket cannot be made, `TestFailure` when the thread cannot start.
    init(folder: String, label: String) throws {
        let server = try ControlServer(folder: folder, label: label)
        nonisolated(unsafe) let owned = server  // used by the thread alone from here on
        let received = received
        switch SystemThread.start({ serveAsProtocol3(owned, label: label, received) }) {
        case .success(let thread): self.thread = thread
        case .failure(let error): throw TestFailure("no thread for the old timer: \(error)")
        }
    }

    deinit { stop() }

    /// The command lines received so far, in order.
    var commands: [String] { received.commands.withLock { $0 } }

    /// Ends the thread if it still serves, and waits for its end.
    func stop() {
        received.stop.ring()
        thread?.join()
        thread = nil
    }
}

/// The old timer's thread: serves `server` until its plain `ack`, a stop, or 60 s.
private func serveAsProtocol3(_ server: ControlServer, label: String, _ received: Received) {
    let pid = getpid()
    let ringing = TimerStatus(label: label, pid: pid, state: .ringing, remaining: .zero, deadlineUnixMilliseconds: nil)
    let done = TimerStatus(label: label, pid: pid, state: .done, remaining: .zero, deadlineUnixMilliseconds: nil)
    var watches: [ControlConnection] = []
    var asking: [ControlConnection] = []
    var over = false
    let deadline = ContinuousClock.now + .seconds(60)
    while !over, ContinuousClock.now < deadline {
        var polled = ([received.stop.descriptor, server.descriptor] + (watches + asking).map(\.descriptor))
            .map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&polled, nfds_t(polled.count), 1000) >= 0 || errno == EINTR else { return }
        let ready = Set(polled.filter { $0.revents != 0 }.map(\.fd))
        if ready.contains(received.stop.descriptor) { return }
        if ready.contains(server.descriptor), let connection = server.accept() { asking.append(connection) }
        // A watch the kitchen closed goes; nothing else comes on one.
        watches.removeAll { ready.contains($0.descriptor) && $0.read() == .closed }
        var waiting: [ControlConnection] = []
        for connection in asking {
            guard ready.contains(connection.descriptor) else {
                waiting.append(connection)
                continue
            }
            switch connection.read() {
            case .pending: waiting.append(connection)
            case .closed: break
            case .line(let line) where line == ControlRequest.watchLine:
                connection.reply(ringing.line)
                watches.append(connection)
            case .line(let line):
                received.commands.withLock { $0.append(line) }
                switch ControlRequest(line: line) {
                case .command(.status, nil): connection.reply(ringing.line)
                case .command(.acknowledge, nil):
                    connection.reply(done.line)
                    // It ends as a timer does: its socket goes first (so the kitchen finds no
                    // successor there), then its watches get its last status and are closed.
                    unlink(server.path)
                    for watch in watches { watch.reply(done.line) }
                    watches = []
                    over = true
                default: connection.reply(ControlRequest.olderTimerRefusal)  // not of its versions
                }
            }
        }
        asking = waiting
    }
}

/// Issue 39 end to end: the real kitchen commands a timer of the previous control protocol.
///
/// The kitchen names the front of every command (control protocol 4); a timer older than that
/// refuses the line, and the kitchen sends the command again without its origin, as the same
/// exchange. Every wait is on an event (a log line of the kitchen's), never a sleep.
@Suite struct KitchenOlderTimerEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// Any key while something rings acknowledges all that ring: the old timer is sent the
    /// command with the keypad's origin, refuses it, and is sent `eggtimer/1 ack`; the key's
    /// answer is that its alarm stopped.
    @Test func aKeyPressStopsATimerOfProtocol3ByAskingAgainWithoutTheOrigin() throws {
        let house = House(config: "announce = no\n", keypad: true)
        try RuntimeFolder.prepare(house.sockets)
        let tea = try OlderTimer(folder: house.sockets, label: "tea")
        try house.addKeypad("event0")
        let kitchen = house.kitchen()
        #expect(kitchen.expect("following tea (pid \(getpid()), ringing)", until: soon()), "\(kitchen.stdout)")
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try house.connectKeypad("event0")

        let offset = kitchen.stdout.count
        try house.press(.enter)
        let answer = line(of: kitchen, startingWith: "key: ", after: offset)
        #expect(answer == "key: tea: alarm stopped", "\(kitchen.stdout)")
        #expect(tea.commands == ["eggtimer/4\tack\tby=keypad", "eggtimer/1\tack"])
        // A failed answer says neither line: waiting for them would only cost the deadline.
        if answer == "key: tea: alarm stopped" {
            #expect(kitchen.expect("key: tea stopped\n", after: offset, until: soon()), "\(kitchen.stdout)")
            #expect(
                kitchen.expect("tea: ended (pid \(getpid()), done)", after: offset, until: soon()), "\(kitchen.stdout)")
        }
        tea.stop()
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    /// The first whole line of `child`'s output after its first `offset` characters that begins
    /// with `prefix`, reading until 20 s from now.
    /// - Returns: The line, without its newline; nil when none came by then.
    private func line(of child: PipedChild, startingWith prefix: String, after offset: Int) -> String? {
        let deadline = soon()
        while true {
            let lines = child.stdout.dropFirst(offset).split(separator: "\n", omittingEmptySubsequences: false)
            // The last piece is the line still being written (empty once a newline ended the text).
            if let line = lines.dropLast().first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            guard child.readSome(until: deadline) else { return nil }
        }
    }
}
