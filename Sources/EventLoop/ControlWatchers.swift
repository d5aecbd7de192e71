package import ControlChannel
import Glibc

/// The control socket's watchers (`eggtimer/2 watch`): the connections that receive every new
/// status line until the timer ends.
///
/// Bounded: at most ``limit`` at once (one more is refused with an error line; those open keep
/// their place), each with at most ``queueLimit`` bytes unsent; a watcher that does not read is
/// dropped when its queue would overflow, so it never blocks or slows the timer. Watchers do not
/// count against the request connections' ``ControlInbox/connectionLimit``. Never blocks, except
/// ``finish(_:within:)`` for its bounded time. Owned by the event loop's thread.
package struct ControlWatchers {
    private var watchers: [Int: ControlWatcher] = [:]
    /// How many watchers may be open at once.
    package let limit: Int
    /// The most unsent bytes one watcher may hold.
    package let queueLimit: Int

    /// How many watchers a timer keeps by default.
    package static let defaultLimit = 16
    /// A watcher's queue of unsent bytes by default: 64 KiB, some 300 status lines.
    package static let defaultQueueLimit = 64 * 1024
    /// The refusal a watcher beyond ``limit`` gets.
    package static func refusal(limit: Int) -> String { "error\tthis timer has \(limit) watchers already" }

    /// No watchers yet.
    /// - Parameters:
    ///   - limit: How many may be open at once, at least 1.
    ///   - queueLimit: A watcher's most unsent bytes, at least 1.
    package init(limit: Int = defaultLimit, queueLimit: Int = defaultQueueLimit) {
        precondition(limit > 0 && queueLimit > 0)
        (self.limit, self.queueLimit) = (limit, queueLimit)
    }

    /// How many are open.
    package var count: Int { watchers.count }

    /// Whether `id` is a watcher's.
    package func contains(_ id: Int) -> Bool { watchers[id] != nil }

    /// Takes `connection` (which sent `watch`) as watcher `id`, or refuses it when full.
    ///
    /// With ``limit`` open it gets one error line and is closed. A watcher gets its first line at
    /// the next ``broadcast(_:)``.
    package mutating func add(_ id: Int, _ connection: ControlConnection) {
        guard watchers.count < limit else {
            connection.reply(Self.refusal(limit: limit))
            return
        }
        watchers[id] = ControlWatcher(connection, queueLimit: queueLimit)
    }

    /// The descriptors to poll: `POLLIN` (to see a peer go), and `POLLOUT` only while a queue
    /// has bytes.
    package var pollSet: [(fd: Int32, events: Int16, id: Int)] {
        watchers.sorted { $0.key < $1.key }.map { id, watcher in
            (watcher.descriptor, Int16(POLLIN) | (watcher.wantsWrite ? Int16(POLLOUT) : 0), id)
        }
    }

    /// Handles readiness `revents` on watcher `id`: sends what waits, reads and discards what the
    /// peer sent, drops it when it went away or failed.
    package mutating func ready(_ id: Int, revents: Int16) {
        guard let watcher = watchers[id] else { return }
        var alive = revents & Int16(POLLERR | POLLNVAL) == 0
        if alive, revents & Int16(POLLOUT) != 0 { alive = watcher.flush() }
        if alive, revents & Int16(POLLIN | POLLHUP) != 0 { alive = watcher.drain() }
        if !alive { watchers[id] = nil }
    }

    /// Sends `line` to every watcher whose last line said something else (the time left aside);
    /// drops those that cannot take it.
    package mutating func broadcast(_ line: String) {
        for (id, watcher) in watchers where !watcher.send(line) { watchers[id] = nil }
    }

    /// The end of the run: the final status to every watcher, then all closed.
    ///
    /// `line` goes to those that have not had it; then this waits at most `limit` for their
    /// queues to empty.
    /// C: `poll`.
    package mutating func finish(_ line: String, within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        broadcast(line)
        while true {
            for (id, watcher) in watchers where !watcher.wantsWrite { watchers[id] = nil }
            let left = ContinuousClock.now.duration(to: deadline)
            guard !watchers.isEmpty, left > .zero else { break }
            let waiting = Array(watchers)
            var fds = waiting.map { pollfd(fd: $0.value.descriptor, events: Int16(POLLOUT), revents: 0) }
            let milliseconds = Int32(
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&fds, nfds_t(fds.count), milliseconds) >= 0 || errno == EINTR else { break }
            for (index, entry) in waiting.enumerated() where fds[index].revents != 0 {
                if fds[index].revents & Int16(POLLOUT) == 0 || !entry.value.flush() { watchers[entry.key] = nil }
            }
        }
        watchers = [:]
    }
}
