import ControlChannel
import EventLoop
import Glibc
import SystemKit
import TimerEngine

/// Every running timer of this user followed through its control socket's `watch`, as a source
/// of the event loop: each status line becomes `.timerStatus(socket:_:)`, each end
/// `.timerEnded(socket:)`.
///
/// The timers are found by their sockets in the runtime folder: all of them at first, then each
/// name the caller hands to ``look(at:now:)`` (a ``FolderWatch`` on the folder sees a socket
/// bound there). Nothing blocks: a watch is begun without waiting
/// (``ControlClient/beginWatch(label:folder:)``) and read when its descriptor is ready. A socket
/// that refuses the connection (a stale one, or a timer between bind() and listen()) is tried
/// again quietly with a doubling backoff (``retryFirst`` to ``retryLimit``); one that takes it but
/// sends no status within ``answerLimit`` (a stopped timer) is one `.note` and is tried again
/// the same way. Owned by the event loop's thread; not thread-safe.
package final class TimerFollows: LoopSource {
    private struct Follow {
        let watch: ControlWatch
        let since: ContinuousClock.Instant
        var answered = false
    }

    private struct Retry {
        var at: ContinuousClock.Instant
        var backoff: Backoff
        /// Whether its not answering was said already (said once until it answers).
        var noted = false
    }

    /// The runtime folder.
    let folder: String
    /// The only socket name followed, or nil for every one.
    private let only: String?
    /// Socket names never followed (none yet: the kitchen's own socket lies in a subfolder).
    private var follows: [String: Follow] = [:]
    private var retries: [String: Retry] = [:]

    /// How long a timer has to send its first status line.
    static let answerLimit = Duration.seconds(2)
    /// The first wait before a socket that refused or did not answer is tried again.
    static let retryFirst = Duration.milliseconds(20)
    /// The longest wait between tries of one socket.
    static let retryLimit = Duration.seconds(600)
    /// How many lines one watch is read for in one round at most, so a chatty peer cannot hold the loop.
    static let linesPerRound = 64

    /// Follows the timers in `folder`.
    /// - Parameters:
    ///   - folder: The runtime folder (``RuntimeFolder/current()``).
    ///   - only: A single socket name to follow (`eggtimer start` waiting for its timer), or nil.
    ///   - now: The boot clock: every socket there now is tried at once.
    init(folder: String, only: String? = nil, at now: ContinuousClock.Instant) {
        (self.folder, self.only) = (folder, only)
        for name in ControlClient.labels(in: folder) { look(at: name, now: now) }
        if let only, retries[only] == nil, follows[only] == nil { look(at: only, now: now) }
    }

    /// The socket names followed now.
    var followed: [String] { follows.keys.sorted() }

    /// Looks at the socket `name` (without `.sock`) soon: at once, whatever its backoff.
    /// - Parameters:
    ///   - name: A socket's name, or nil to look at the whole folder again (an inotify overflow).
    ///   - now: The boot clock.
    func look(at name: String?, now: ContinuousClock.Instant) {
        guard let name else {
            for socket in ControlClient.labels(in: folder) { look(at: socket, now: now) }
            return
        }
        guard only.map({ $0 == name }) ?? true, follows[name] == nil else { return }
        retries[name] = Retry(at: now, backoff: Backoff(first: Self.retryFirst, limit: Self.retryLimit))
    }

    /// Each watch's descriptor.
    var pollRequests: [PollRequest] {
        follows.values.map { PollRequest(descriptor: $0.watch.descriptor, events: Int16(POLLIN)) }
    }

    /// The next retry, or the first-line deadline of a watch not answered yet.
    var nextCheck: ContinuousClock.Instant? {
        let unanswered = follows.values.filter { !$0.answered }.map { $0.since + Self.answerLimit }
        return (retries.values.map(\.at) + unanswered).min()
    }

    /// Reads the watches that are ready, gives up the silent ones, and tries the due retries.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        for name in follows.keys.sorted() {
            guard let follow = follows[name] else { continue }
            if ready.contains(where: { $0.descriptor == follow.watch.descriptor }) {
                read(name, at: now, into: &inputs)
            } else if !follow.answered, now >= follow.since + Self.answerLimit {
                follows[name] = nil
                retry(
                    name, at: now,
                    saying: "\(name): no status within \(Self.answerLimit.components.seconds) s; tried again later",
                    into: &inputs)
            }
        }
        for (name, due) in retries.sorted(by: { $0.key < $1.key }) where now >= due.at {
            begin(name, at: now, into: &inputs)
        }
    }

    /// Reads what `name`'s watch sent.
    private func read(_ name: String, at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        guard let follow = follows[name] else { return }
        for _ in 0..<Self.linesPerRound {
            let next: ControlWatch.Next
            do { next = try follow.watch.next(until: .now) } catch {
                follows[name] = nil
                if follow.answered { inputs.append(.timerEnded(socket: name)) }
                retry(name, at: now, saying: "\(name): \(error.description); tried again later", into: &inputs)
                return
            }
            switch next {
            case .quiet: return
            case .ended:
                follows[name] = nil
                if follow.answered { inputs.append(.timerEnded(socket: name)) }
                // A successor with the same label may have bound already: one quiet look.
                retries[name] = Retry(
                    at: now + Self.retryFirst, backoff: Backoff(first: Self.retryFirst, limit: Self.retryLimit))
                return
            case .line(let line):
                guard let status = TimerStatus(line: line) else { continue }
                follows[name]?.answered = true
                retries[name] = nil
                inputs.append(.timerStatus(socket: name, status))
            }
        }
    }

    /// Begins the watch of `name`, or schedules its next try.
    private func begin(_ name: String, at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        do {
            follows[name] = Follow(watch: try ControlClient.beginWatch(label: name, folder: folder), since: now)
            retries[name]?.at = now + Self.retryLimit  // kept for its `noted`; the watch decides
        } catch .system(_, let code) where code == ENOENT {
            retries[name] = nil  // gone: a new socket of that name is seen when it is bound
        } catch .system(_, let code) where code == ECONNREFUSED || code == EAGAIN {
            retry(name, at: now, saying: nil, into: &inputs)
        } catch {
            retry(name, at: now, saying: "\(name): \(error.description); tried again later", into: &inputs)
        }
    }

    /// Schedules `name`'s next try on its backoff, with a line (once until it answers) if given.
    private func retry(
        _ name: String, at now: ContinuousClock.Instant, saying line: String?, into inputs: inout [Input]
    ) {
        var entry = retries[name] ?? Retry(at: now, backoff: Backoff(first: Self.retryFirst, limit: Self.retryLimit))
        entry.at = now + entry.backoff.next()
        if let line, !entry.noted {
            entry.noted = true
            inputs.append(.note(line))
        }
        retries[name] = entry
    }
}
