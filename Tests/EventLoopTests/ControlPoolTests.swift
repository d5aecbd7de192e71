import ControlChannel
import EventLoop
import Glibc
import TestSupport
import Testing

/// The one connection pool as the kitchen's inbox uses it: the owner's verdicts, the connection
/// limit (the idlest goes first) and the idle limit, on a real socket.
@Suite struct ControlPoolTests {
    final class Socket {
        let folder = makePrivateDirectory()
        let pool: ControlPool
        /// The lines the owner was handed, by connection.
        var lines: [(id: Int, line: String)] = []

        init(connectionLimit: Int) throws {
            try RuntimeFolder.prepare(folder + "/kitchen")
            pool = ControlPool(
                server: try ControlServer(folder: folder + "/kitchen", label: "kitchen"),
                connectionLimit: connectionLimit)
        }

        deinit { removeDirectory(folder) }

        /// One round at `now`: `start` lines wait for their answer, anything else is refused.
        func round(at now: ContinuousClock.Instant = .now, wait: Int32 = 50) {
            let set = pool.pollRequests
            var fds = set.map { pollfd(fd: $0.descriptor, events: $0.events, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), wait)
            let ready = fds.filter { $0.revents != 0 }.map { PollReady(descriptor: $0.fd, revents: $0.revents) }
            pool.service(ready, at: now) { id, line in
                lines.append((id, line))
                return line == "start" ? .answering : .reply("error\tno")
            }
        }
    }

    @Test func aWaitingRequestIsAnsweredLaterAndAnyOtherAtOnce() throws {
        let socket = try Socket(connectionLimit: 4)
        let waiting = try ControlPeer(socket.pool.path)
        waiting.send("start")
        socket.round()
        let refused = try ControlPeer(socket.pool.path)
        refused.send("other")
        socket.round()
        #expect(refused.lines(1) == ["error\tno"])
        #expect(refused.ended)
        #expect(socket.pool.pollRequests.count == 1, "a request waiting for its answer is not polled")
        let id = try #require(socket.lines.first { $0.line == "start" }?.id)
        socket.pool.reply(id, "ok")
        #expect(waiting.lines(1) == ["ok"])
    }

    @Test func theIdlestGoesFirstPastTheLimitAndAnIdleOneAtItsTimeLimit() throws {
        let socket = try Socket(connectionLimit: 2)
        let start = ContinuousClock.now
        let oldest = try ControlPeer(socket.pool.path)
        socket.round(at: start)
        let peers = [try ControlPeer(socket.pool.path), try ControlPeer(socket.pool.path)]
        socket.round(at: start + .milliseconds(1))
        #expect(oldest.ended, "the idlest was closed to make room")
        #expect(socket.pool.pollRequests.count == 3)
        #expect(socket.pool.nextCheck == start + .milliseconds(1) + socket.pool.idleLimit)
        socket.round(at: start + .seconds(10), wait: 0)
        for peer in peers { #expect(peer.ended) }
        #expect(socket.pool.pollRequests.count == 1)
    }
}
