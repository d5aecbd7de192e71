import ControlChannel
import EventLoop
import Glibc
import TestSupport
import Testing

/// Issue 40: a control socket deleted under a running loop is bound again by its keeper in the
/// round the folder's event wakes, with one line; without that event nothing is looked at.
@Suite struct SocketKeeperTests {
    /// A server in a private folder and its keeper on a loop.
    final class Kept {
        let folder = makePrivateDirectory()
        let server: ControlServer
        let keeper: SocketKeeper
        var loop = testLoop()

        init() throws {
            server = try ControlServer(folder: folder, label: "tea")
            keeper = SocketKeeper(server: server)
            loop.add(keeper) { .note($0) }
        }

        deinit {
            loop.close()
            removeDirectory(folder)
        }

        /// The lines said in rounds until one is said or `deadline` passes (the wake-up: the
        /// rounds end at the folder's event).
        func lines(until deadline: ContinuousClock.Instant) throws -> [String] {
            while ContinuousClock.now < deadline {
                let lines = try loop.round(until: deadline).compactMap { input -> String? in
                    if case .note(let line) = input { return line }
                    return nil
                }
                if !lines.isEmpty { return lines }
            }
            return []
        }
    }

    @Test func aDeletedSocketIsBoundAgainInTheRoundItsDeletionWakes() throws {
        let kept = try Kept()
        #expect(kept.keeper.nextCheck == nil, "no period: the folder's events wake it")
        #expect(kept.keeper.pollRequests.count == 1)
        #expect(try kept.loop.round(until: .now) == [.tick], "nothing changed: nothing said")
        let deleted = ContinuousClock.now
        #expect(unlink(kept.server.path) == 0)
        let lines = try kept.lines(until: deleted + .seconds(10))
        #expect(lines == ["control socket \(kept.server.path) was deleted: bound again"])
        #expect(ContinuousClock.now - deleted < .seconds(2), "\(ContinuousClock.now - deleted)")
        let peer = try ControlPeer(kept.server.path)
        #expect(kept.server.accept() != nil)
        _ = peer
        // Its own bind is an event too: looked at, intact, nothing said.
        #expect(try kept.lines(until: .now + .milliseconds(200)).isEmpty)
    }

    @Test func aFileInItsPlaceIsSaidOnceAndTheSocketBoundAgainWhenItGoes() throws {
        let kept = try Kept()
        let path = kept.server.path
        #expect(unlink(path) == 0)
        #expect(mkdir(path, 0o700) == 0)  // another file takes the name before the round
        let lines = try kept.lines(until: .now + .seconds(10))
        #expect(lines == ["control socket \(path) was replaced by another file: left alone, bound again once it goes"])
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR, "left alone")
        #expect(rmdir(path) == 0)
        #expect(try kept.lines(until: .now + .seconds(10)) == ["control socket \(path) was deleted: bound again"])
        #expect((try? ControlPeer(path)) != nil)
    }
}
