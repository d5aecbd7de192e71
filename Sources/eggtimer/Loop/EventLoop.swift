import Glibc
import SystemKit
import TimerEngine

/// Waits in one `ppoll` on the descriptors of a list of ``LoopSource``s and turns what happened
/// into ``Input``s.
///
/// The loop knows no source in particular: each says which descriptors to poll, when it next
/// needs a look, and what its readiness means. It owns one of them itself, a ``BootTimer`` armed
/// at the earliest of the caller's wake-up and the sources' next checks, so the wait follows the
/// boot clock through a suspend. A timer process adds the signalfd (``SignalSet``), the alarm
/// player (its event pipe and hang deadlines), the ``Keyboard``, the control socket
/// (``ControlInbox``), the wall-clock timer (``WallTimer``), the broker (`BusClient`) and, while it
/// runs, the `--on-done` command (``ChildWatch``); `follow`, `status --mqtt` and `recover`'s
/// wait add only what they need.
///
/// Nothing here blocks except that one `ppoll`, which the timer bounds. Owned by one thread (the
/// main thread); not thread-safe.
struct EventLoop {
    /// The sources, in the order their inputs come in a round (the loop's own timer first).
    private(set) var sources: [any LoopSource] = []
    private let timer: BootTimer?
    private let clock: MonotonicClock
    /// Reads the boot clock: `clock.now()`, or a test's clock.
    private let now: () -> ContinuousClock.Instant

    /// Creates the loop with no source but its own boot-clock timer.
    /// - Parameters:
    ///   - clock: The boot clock, and the mapping of its instants for the timer.
    ///   - now: Reads the boot clock; a seam for tests (the default reads `clock`).
    init(clock: MonotonicClock, now: (() -> ContinuousClock.Instant)? = nil) {
        self.clock = clock
        self.now = now ?? { clock.now() }
        timer = BootTimer(clock: clock)
        if let timer { sources.append(timer) }
    }

    /// Adds `source` after the others: its inputs come after theirs in a round.
    /// - Parameter source: A source not in the loop yet.
    mutating func add(_ source: any LoopSource) {
        sources.append(source)
    }

    /// Removes `source` (the same object); nothing if it is not in the loop.
    mutating func remove(_ source: any LoopSource) {
        sources.removeAll { $0 === source }
    }

    /// The first source of type `type`, if any.
    func first<Source: LoopSource>(_ type: Source.Type) -> Source? {
        sources.lazy.compactMap { $0 as? Source }.first
    }

    /// Releases the loop's own timer; the other sources belong to whoever added them.
    func close() {
        timer?.close()
    }

    /// Blocks until a source's descriptor is ready, a source's next check passes or `wake`
    /// (boot clock) passes, whichever is first.
    ///
    /// A wake-up or next check already passed does not block at all.
    /// - Parameter wake: When the caller must run again even if nothing happens; nil for never.
    /// - Returns: The inputs in the order the sources were added (a timer process: signals, audio
    ///   reports, keys, control requests, broker reports, the `--on-done` command's end), then
    ///   always a final `.tick`.
    /// - Throws: `ExitStatus.osError` if `ppoll` fails for a reason other than EINTR.
    mutating func wait(until wake: ContinuousClock.Instant?) throws(ExitStatus) -> [Input] {
        let round = sources
        let deadline = ([wake] + round.map(\.nextCheck)).compactMap { $0 }.min()
        var fds: [pollfd] = []
        var owners: [Int] = []
        for (index, source) in round.enumerated() {
            for request in source.pollRequests {
                fds.append(pollfd(fd: request.descriptor, events: request.events, revents: 0))
                owners.append(index)
            }
        }
        let timeout: Duration?
        let before = now()
        if let deadline, deadline <= before {
            timeout = .zero
        } else if let timer {
            timer.arm(at: deadline)
            timeout = nil
        } else {
            timeout = deadline.map { max(.zero, before.duration(to: $0)) }  // the fallback without a timerfd
        }
        let ready: Int
        do { ready = try pollDescriptors(&fds, timeout: timeout) } catch {
            guard error.code == EINTR else { throw .osError }
            ready = -1
        }

        let after = now()
        var inputs: [Input] = []
        var next = 0
        for (index, source) in round.enumerated() {
            var readyFds: [PollReady] = []
            while next < owners.count, owners[next] == index {
                if ready > 0, fds[next].revents != 0 {
                    readyFds.append(PollReady(descriptor: fds[next].fd, revents: fds[next].revents))
                }
                next += 1
            }
            if !readyFds.isEmpty || source.nextCheck.map({ after >= $0 }) == true {
                source.service(readyFds, at: after, into: &inputs)
            }
        }
        sources.removeAll { $0.isFinished }
        inputs.append(.tick)
        return inputs
    }
}
