import ControlChannel
import EventLoop
import Glibc
import TestSupport
import Testing

/// The inbox side of `watch` on a real socket, driven by hand as the event loop drives it.
@Suite struct ControlWatchersTests {
    final class Timer {
        let folder = makePrivateDirectory()
        let inbox: ControlInbox
        var path: String { inbox.path }

        init(watchers: ControlWatchers = ControlWatchers()) throws {
            try RuntimeFolder.prepare(folder + "/eggtimer")
            inbox = ControlInbox(
                server: try ControlServer(folder: folder + "/eggtimer", label: "tea"), watchers: watchers)
        }

        deinit { removeDirectory(folder) }

        /// One look at the poll set as the loop takes it: what is ready now or within `wait`.
        @discardableResult
        func round(wait: Int32 = 50) -> [ControlInbox.Request] {
            let set = inbox.pollRequests
            var fds = set.map { pollfd(fd: $0.descriptor, events: $0.events, revents: 0) }
            guard poll(&fds, nfds_t(fds.count), wait) > 0 else { return [] }
            let ready = fds.filter { $0.revents != 0 }.map { PollReady(descriptor: $0.fd, revents: $0.revents) }
            var requests: [ControlInbox.Request] = []
            inbox.service(ready, at: .now, into: &requests)
            return requests
        }

        /// The events asked for each watcher, in the order they came (after the listening socket;
        /// no request connection is open in these tests when it is read).
        var watcherEvents: [Int16] { inbox.pollRequests.dropFirst().map(\.events) }
    }

    private func line(_ state: String, remaining: Int, deadline: Int? = 1_796_026_323_000) -> String {
        "ok\tlabel=tea\tpid=1\tstate=\(state)\tremaining_ns=\(remaining)"
            + (deadline.map { "\tdeadline_ms=\($0)" } ?? "")
    }

    @Test func aWatcherGetsTheCurrentLineAtOnceThenOneLinePerChangeButNotForTheTimeLeft() throws {
        let timer = try Timer()
        let watcher = try ControlPeer(timer.path)
        watcher.send(ControlRequest.watch.line)
        #expect(timer.round().isEmpty, "a watch is the inbox's own, never the controller's")
        #expect(timer.inbox.watcherCount == 1)
        timer.inbox.broadcast(line("counting", remaining: 5_000))
        timer.inbox.broadcast(line("counting", remaining: 4_000))  // the time left alone: no line
        timer.inbox.broadcast(line("paused", remaining: 4_000, deadline: nil))
        timer.inbox.broadcast(line("paused", remaining: 4_000, deadline: nil))
        timer.inbox.broadcast(line("counting", remaining: 4_000, deadline: 1_796_026_324_000))
        #expect(
            watcher.lines(3) == [
                line("counting", remaining: 5_000), line("paused", remaining: 4_000, deadline: nil),
                line("counting", remaining: 4_000, deadline: 1_796_026_324_000),
            ])
        timer.inbox.finish(line("cancelled", remaining: 0, deadline: nil))
        #expect(watcher.ended)
        #expect(watcher.lines(4).last == line("cancelled", remaining: 0, deadline: nil))
        #expect(timer.inbox.watcherCount == 0)
    }

    /// The most watchers open, one more refused with its error line, and an `ack` still reaches
    /// the controller and is answered; watchers are no request connections to drop as idle.
    @Test func theMostWatchersAndOneMoreRefusedLeaveRoomForAck() throws {
        let timer = try Timer()
        var watchers: [ControlPeer] = []
        for _ in 0..<ControlWatchers.defaultLimit {
            let watcher = try ControlPeer(timer.path)
            watcher.send(ControlRequest.watch.line)
            watchers.append(watcher)
            timer.round()
        }
        #expect(timer.inbox.watcherCount == ControlWatchers.defaultLimit)
        let refused = try ControlPeer(timer.path)
        refused.send(ControlRequest.watch.line)
        timer.round()
        #expect(refused.ended)
        #expect(refused.lines(1) == [ControlWatchers.refusal(limit: ControlWatchers.defaultLimit)])
        var idle: [ControlPeer] = []
        for _ in 0..<(2 * ControlInbox.connectionLimit) { idle.append(try ControlPeer(timer.path)) }
        let ack = try ControlPeer(timer.path)
        ack.send(ControlRequest.command(.acknowledge).line)
        var requests: [ControlInbox.Request] = []
        for _ in 0..<4 { requests += timer.round() }
        guard let request = requests.first, request.command == .acknowledge else {
            Issue.record("no ack among \(requests)")
            return
        }
        let connection = request.connection
        timer.inbox.reply(connection, line("done", remaining: 0, deadline: nil))
        #expect(ack.lines(1) == [line("done", remaining: 0, deadline: nil)])
        #expect(timer.inbox.watcherCount == ControlWatchers.defaultLimit, "no watcher was dropped for them")
        timer.inbox.broadcast(line("done", remaining: 0, deadline: nil))
        for watcher in watchers { #expect(watcher.lines(1) == [line("done", remaining: 0, deadline: nil)]) }
    }

    /// A watcher that never reads is dropped once its queue would overflow; POLLOUT is asked
    /// only while a queue has bytes; a watcher that reads is never held back by it.
    @Test func aWatcherThatDoesNotReadIsDroppedWhenItsQueueWouldOverflow() throws {
        let timer = try Timer(watchers: ControlWatchers(limit: 4, queueLimit: 4096))
        let slow = try ControlPeer(timer.path, receiveBuffer: 1024)
        slow.send(ControlRequest.watch.line)
        timer.round()
        let reader = try ControlPeer(timer.path)
        reader.send(ControlRequest.watch.line)
        timer.round()
        #expect(timer.inbox.watcherCount == 2)
        #expect(timer.watcherEvents == [Int16(POLLIN), Int16(POLLIN)])
        var sent: [String] = []
        for change in 0..<2000 where !slow.hungUp {
            let next = line(change % 2 == 0 ? "paused" : "counting", remaining: change, deadline: 1_000 + change)
            let start = ContinuousClock.now
            timer.inbox.broadcast(next)
            #expect(ContinuousClock.now - start < .milliseconds(100), "a broadcast never waits")
            sent.append(next)
            #expect(reader.lines(sent.count).count == sent.count)
            if timer.inbox.watcherCount == 2, timer.watcherEvents.first == Int16(POLLIN | POLLOUT) {
                timer.round(wait: 0)  // the loop's look: the slow one polls not writable, and stays
            }
        }
        #expect(slow.hungUp, "dropped after \(sent.count) changes")
        #expect(timer.inbox.watcherCount == 1)
        #expect(timer.watcherEvents == [Int16(POLLIN)], "the reader's queue is empty: no POLLOUT")
        #expect(reader.lines(sent.count) == sent)
    }

    @Test func aWatcherThatGoesAwayIsDropped() throws {
        let timer = try Timer()
        var watcher: ControlPeer? = try ControlPeer(timer.path)
        watcher?.send(ControlRequest.watch.line)
        timer.round()
        #expect(timer.inbox.watcherCount == 1)
        watcher = nil
        timer.round()
        #expect(timer.inbox.watcherCount == 0)
    }
}
